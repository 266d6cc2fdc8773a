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

// TestStatusAndLintAgreeOnFreshness writes one context.md horizon and
// one log per case and asks both status and lint (MS203) whether the
// file is stale: they must give the verdict in the table, together.
// Horizon evt-8 against last event evt-008 is the case where status
// once said stale and lint fresh.
func TestStatusAndLintAgreeOnFreshness(t *testing.T) {
	for _, tc := range []struct {
		name    string
		horizon string // the horizon line of context.md; "" for none
		ids     []string
		fresh   bool
	}{
		{"same ID", "Event horizon: evt-008", seq(8), true},
		{"unpadded horizon", "Event horizon: evt-8", seq(8), true},
		{"wider horizon", "Event horizon: evt-0008", seq(8), true},
		{"upper case horizon", "EVENT HORIZON: EVT-008", seq(8), true},
		{"unpadded last event", "Event horizon: evt-008", []string{"evt-1", "evt-8"}, true},
		{"behind", "Event horizon: evt-007", seq(8), false},
		{"ahead", "Event horizon: evt-009", seq(8), false},
		{"signed horizon", "Event horizon: evt-+8", seq(8), false},
		{"horizon without ID", "Event horizon: none", seq(8), false},
		{"no horizon line", "", seq(1), false},
		{"no horizon, no events", "", nil, true},
		{"horizon none, no events", "Event horizon: none", nil, true},
		{"horizon, no events", "Event horizon: evt-001", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, parse.LogFile, logWith(tc.ids))
			write(t, root, parse.ContextFile, "# Current Context\n\n<!-- Last generated: 2026-01-01 10:00 | "+tc.horizon+" -->\n")

			st, err := Status(root, 50)
			if err != nil {
				t.Fatal(err)
			}
			statusFresh := st.Context.State == "fresh"

			mem, err := workspace.Load(root)
			if err != nil {
				t.Fatal(err)
			}
			l, err := lint.New(config.Default())
			if err != nil {
				t.Fatal(err)
			}
			ds := l.Check(lint.Input{Log: mem.Log, Events: mem.Events, Exists: func(rel string) bool {
				_, err := os.Stat(filepath.Join(root, rel))
				return err == nil
			}, ReadFile: func(rel string) ([]byte, error) { return workspace.ReadFile(root, rel) }})
			lintFresh := true
			for _, d := range ds {
				if d.Rule == "MS203" {
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
