package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
)

// TestLogFastSame calls memsys_log on a generated log and archive
// through memory.LogCounted, which answers from the end of the log,
// and through memory.Log, which parses the whole history, and fails
// unless the text and the structured result (events and matched) are
// the same. The calls the end of the log can answer must not read the
// log whole, so the fast path is the one compared.
func TestLogFastSame(t *testing.T) {
	root := t.TempDir()
	arch := strings.Replace(string(loggen.Generate(300, 2)), "## Event Log", "## Archive: evt-001 through evt-300", 1)
	for name, data := range map[string]string{workspace.LogName: string(loggen.Generate(3000, 1)), workspace.ArchiveNames[0]: arch} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connect(t, root)
	for _, c := range []struct {
		args map[string]any
		fast bool // answered from the end of the log
	}{
		{map[string]any{"limit": 10}, true},
		{map[string]any{}, true}, // the default limit
		{map[string]any{"limit": 1}, true},
		{map[string]any{"limit": 5, "type": []string{"decision", "FIX"}}, true},
		{map[string]any{"limit": 3, "agent": "Reviewer", "since": "2024-01-01"}, true},
		{map[string]any{"limit": 4, "until": "2024-03-01"}, false}, // too few matches near the end
		{map[string]any{"limit": 100000}, false},
		{map[string]any{"limit": 10, "open": true}, false},
		{map[string]any{"limit": 10, "type": []string{"launch"}}, false}, // an error
	} {
		t.Run(fmt.Sprint(c.args), func(t *testing.T) {
			var got, want string
			var wholeRead bool
			stop := workspace.ObserveReads(func(path string) {
				wholeRead = wholeRead || filepath.Base(path) == workspace.LogName
			})
			got = logCall(t, cs, c.args)
			stop()
			if wholeRead == c.fast {
				t.Errorf("read the log whole: %v, want %v", wholeRead, !c.fast)
			}
			logEvents = memory.Log
			defer func() { logEvents = memory.LogCounted }()
			want = logCall(t, cs, c.args)
			if got != want {
				t.Errorf("from the end of the log:\n%s\nthe whole history:\n%s", got, want)
			}
		})
	}
}

// logCall calls memsys_log with args and returns its text, its
// structured result and whether it is an error, as one string.
func logCall(t *testing.T, cs *mcp.ClientSession, args map[string]any) string {
	t.Helper()
	res := call(t, cs, "memsys_log", args)
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("error %v\n%s\n%s", res.IsError, text(res), b)
}
