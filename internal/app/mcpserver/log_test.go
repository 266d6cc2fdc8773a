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

// TestLogEmptyFilters: a filter sent with no value ("agent": "", a type
// list of blanks) is refused in the words memsys log uses for an empty
// flag (memory.LogFilter.Blank), the tool's parameter named where the
// CLI names the flag, as a tool error. memsys_log read "" as no filter
// and listed the whole history as if it had matched, " " as an agent
// that matched nothing, and an entity " " as a misspelling, suggesting
// the first nodes of the graph. The CLI's side is the testscript
// entity-empty-name.
func TestLogEmptyFilters(t *testing.T) {
	cs := connect(t, copyExample(t))
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"entity": ""}, `memsys: entity "" is empty: name a node of the graph`},
		{map[string]any{"entity": " - "}, `memsys: entity " - " is empty: name a node of the graph`},
		{map[string]any{"agent": ""}, `memsys: agent is empty: give it a value, or leave the parameter out`},
		{map[string]any{"agent": " "}, `memsys: agent is empty: give it a value, or leave the parameter out`},
		{map[string]any{"since": ""}, `memsys: since is empty: give it a value, or leave the parameter out`},
		{map[string]any{"since": "\t"}, `memsys: since is empty: give it a value, or leave the parameter out`},
		{map[string]any{"until": ""}, `memsys: until is empty: give it a value, or leave the parameter out`},
		{map[string]any{"refs_to": ""}, `memsys: refs_to is empty: give it a value, or leave the parameter out`},
		{map[string]any{"at": ""}, `memsys: at is empty: give it a value, or leave the parameter out`},
		{map[string]any{"type": []string{}}, `memsys: type is empty: give it a value, or leave the parameter out`},
		{map[string]any{"type": []string{"", " "}}, `memsys: type is empty: give it a value, or leave the parameter out`},
		// The first empty filter is named, in the CLI's order.
		{map[string]any{"at": "", "agent": "", "limit": 5}, `memsys: agent is empty: give it a value, or leave the parameter out`},
	} {
		res := call(t, cs, "memsys_log", c.args)
		if got := text(res); !res.IsError || got != c.want {
			t.Errorf("%v: error %v %q, want the error %q", c.args, res.IsError, got, c.want)
		}
	}
	// A real filter beside an empty name in the list is still the
	// filter, as memsys log --type decision, reads it.
	var lg LogOut
	structured(t, call(t, cs, "memsys_log", map[string]any{"type": []string{"decision", ""}}), &lg)
	if lg.Matched != 2 || lg.Events[0].ID != "evt-001" {
		t.Errorf(`type ["decision", ""]: %+v, want the 2 decisions`, lg)
	}
}
