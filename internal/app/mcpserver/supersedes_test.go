package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
)

// TestAppendSupersedesCached: memsys_append with supersedes checks the
// correction against the history's Supersedes fields (MS126) from the
// history cache's checkpoint, which memsys_regen leaves (before any
// correction, then after the first), and the events appended after it (memory.Append), exactly as with the cache off: the
// same refusals in the same words and the same log, over a correction,
// a second one, a correction of the correction, the original corrected
// again, a revived correction and a short ID.
func TestAppendSupersedesCached(t *testing.T) {
	run := func(cache bool) []string {
		root := copyExample(t)
		if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
			t.Fatal(err) // the cache lives in .git/memsys-cache
		}
		t.Setenv(workspace.EnvNoCache, map[bool]string{true: "", false: "1"}[cache])
		cs := connect(t, root)
		if res := call(t, cs, "memsys_regen", map[string]any{}); res.IsError {
			t.Fatalf("regen: %s", text(res))
		}
		var out []string
		for i, sup := range []string{"evt-003", "evt-003", "evt-020", "evt-003", "evt-021", "evt-3"} {
			if i == 2 {
				// A new checkpoint, holding evt-020's Supersedes.
				call(t, cs, "memsys_regen", map[string]any{})
			}
			res := call(t, cs, "memsys_append", map[string]any{"type": "fix", "scope": "stripe", "summary": "correct " + sup,
				"details": []map[string]any{{"key": "entity", "value": "stripe"}}, "supersedes": []string{sup}})
			out = append(out, fmt.Sprintf("%s error %v: %s", sup, res.IsError, text(res)))
		}
		log, err := os.ReadFile(filepath.Join(root, workspace.LogName))
		if err != nil {
			t.Fatal(err)
		}
		return append(out, string(log))
	}
	cached, cold := run(true), run(false)
	for i := range cold {
		if cached[i] != cold[i] {
			t.Errorf("step %d:\ncached %s\ncold   %s", i, cached[i], cold[i])
		}
	}
	for i, want := range []string{"", "evt-020 already corrects it", "", "", "it makes evt-020 live again", "evt-022 already corrects it"} {
		if got := cold[i]; want == "" && strings.Contains(got, "error true") || want != "" && !strings.Contains(got, want) {
			t.Errorf("step %d: %s, want %q", i, got, want)
		}
	}
}
