package memory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// TestStatusAndLintAgreeOnFreshness writes one log and one context.md
// per case and asks both status and lint whether the file is what regen
// writes: status by its horizon and seal, lint by MS203 (horizon) and
// MS205 (content). They must give the verdict in the table, together.
// Horizon evt-8 against last event evt-008 is the case where status
// once said stale and lint fresh; a hand edit with the right horizon
// the case where status said fresh and lint failed (issue 10).
func TestStatusAndLintAgreeOnFreshness(t *testing.T) {
	regen := func(root string) string {
		mem, x, err := Replay(root, lint.RenderOptions(config.Default()), "")
		if err != nil {
			t.Fatal(err)
		}
		_ = mem
		_, c := x.Files()
		return string(c)
	}
	stub := func(horizon string) func(string) string {
		return func(string) string {
			return "# Current Context\n\n<!-- Last generated: 2026-01-01 10:00 | " + horizon + " -->\n"
		}
	}
	for _, tc := range []struct {
		name    string
		ids     []string
		context func(root string) string // context.md, given the root with the log written
		after   func(t *testing.T, root string)
		fresh   bool
	}{
		{"what regen writes", seq(8), regen, nil, true},
		{"what regen writes, no events", nil, regen, nil, true},
		{"CRLF checkout of what regen writes", seq(8), func(r string) string { return strings.ReplaceAll(regen(r), "\n", "\r\n") }, nil, true},
		{"hand edit, right horizon", seq(8), func(r string) string {
			return strings.Replace(regen(r), "## Blockers", "## Blockers\n\n- hand note", 1)
		}, nil, false},
		{"seal removed", seq(8), func(r string) string {
			c := regen(r)
			return c[:strings.LastIndex(c, "<!-- memsys digest")]
		}, nil, false},
		{"an event edited in place", seq(8), regen, func(t *testing.T, root string) {
			write(t, root, parse.LogFile, strings.Replace(logWith(seq(8)), "**Summary**: event 3\n", "**Summary**: event three\n", 1))
		}, false},
		{"another window", seq(8), regen, func(t *testing.T, root string) {
			write(t, root, ".memsys.json", `{"context": {"windowEvents": 3}}`)
		}, false},
		{"a new event", seq(8), regen, func(t *testing.T, root string) { write(t, root, parse.LogFile, logWith(seq(9))) }, false},
		{"same ID, hand-written", seq(8), stub("Event horizon: evt-008"), nil, false},
		{"unpadded horizon, hand-written", seq(8), stub("Event horizon: evt-8"), nil, false},
		{"behind", seq(8), stub("Event horizon: evt-007"), nil, false},
		{"signed horizon", seq(8), stub("Event horizon: evt-+8"), nil, false},
		{"no horizon line", seq(1), stub(""), nil, false},
		{"horizon, no events", nil, stub("Event horizon: evt-001"), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, parse.LogFile, logWith(tc.ids))
			write(t, root, parse.ContextFile, tc.context(root))
			if tc.after != nil {
				tc.after(t, root)
			}

			st, err := Status(root)
			if err != nil {
				t.Fatal(err)
			}
			statusFresh := st.Context.State == "fresh"

			mem, err := workspace.Load(root)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := workspace.LoadConfig(root)
			if err != nil {
				t.Fatal(err)
			}
			l, err := lint.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ds := l.Check(lint.Input{Log: mem.Log, Events: mem.Events, Exists: func(rel string) bool {
				_, err := os.Stat(filepath.Join(root, rel))
				return err == nil
			}, ReadFile: func(rel string) ([]byte, error) { return workspace.ReadFile(root, rel) }})
			lintFresh := true
			for _, d := range ds {
				if d.Rule == "MS203" || d.Rule == "MS205" {
					lintFresh = false
				}
			}
			if statusFresh != tc.fresh || lintFresh != tc.fresh {
				t.Errorf("fresh: status %v (%s), lint %v, want %v\n%s", statusFresh, st.Context.State, lintFresh, tc.fresh, ds)
			}
		})
	}
}

func seq(n int) []string {
	var ids []string
	for i := 1; i <= n; i++ {
		ids = append(ids, fmt.Sprintf("evt-%03d", i))
	}
	return ids
}

func logWith(ids []string) string {
	var b strings.Builder
	b.WriteString(head)
	for i, id := range ids {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		b.WriteString(strings.Replace(event(i+1, "create"), fmt.Sprintf("evt-%03d", i+1), id, 1))
	}
	return b.String()
}

func write(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
