package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
)

// TestAtDate: the "at" parameter takes a date or a time as --at does
// (memory.ResolveAt): memsys_log, memsys_graph and memsys_show given
// one answer exactly as given the ID of the last event before the first
// one dated after it, and a date before the history is one error that
// names the parameter and the first event's date.
func TestAtDate(t *testing.T) {
	root := t.TempDir()
	log := "# Changelog\n\n## Event Log\n\n"
	for i, day := range []string{"2026-03-01 10:00", "2026-03-02 10:00", "2026-03-03 10:00"} {
		log += fmt.Sprintf("### evt-%03d | %s | alice | modify\n\n**Scope**: api\n**Summary**: Change %d\n\n**Details**:\n- entity: api\n- changes: step %d\n\n**Refs**: none\n**Tags**: none\n\n---\n\n", i+1, day, i+1, i+1)
	}
	if err := os.WriteFile(filepath.Join(root, workspace.LogName), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root)
	answer := func(tool string, args map[string]any) string {
		res := call(t, cs, tool, args)
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("error %v\n%s\n%s", res.IsError, text(res), b)
	}
	for _, c := range []struct{ at, id string }{{"2026-03-02", "evt-002"}, {"2026-03-02T09:59", "evt-001"}, {"2026-03-03 10:00", "evt-003"}} {
		for _, tool := range []struct {
			name string
			args map[string]any
		}{
			{"memsys_log", map[string]any{}},
			{"memsys_graph", map[string]any{"format": "md"}},
			{"memsys_show", map[string]any{"id": "evt-001"}},
		} {
			args := func(at string) map[string]any {
				m := map[string]any{"at": at}
				for k, v := range tool.args {
					m[k] = v
				}
				return m
			}
			byDate, byID := answer(tool.name, args(c.at)), answer(tool.name, args(c.id))
			if byDate != byID {
				t.Errorf("%s at %q:\n%s\nat %s:\n%s", tool.name, c.at, byDate, c.id, byID)
			}
			if strings.HasPrefix(byDate, "error true") {
				t.Errorf("%s at %q: %s", tool.name, c.at, byDate)
			}
		}
	}
	got := answer("memsys_log", map[string]any{"at": "2026-02-28"})
	want := `at "2026-02-28": no event is dated at or before it (the first, evt-001, is dated 2026-03-01 10:00): give a date from 2026-03-01 10:00 on, or an event ID`
	if !strings.HasPrefix(got, "error true\n") || !strings.Contains(got, want) {
		t.Errorf("memsys_log at a date before the history:\n%s\nwant the error %q", got, want)
	}
	// A bare number that is a date is refused as --at refuses it: it
	// was read as evt-20260301 ("no such event").
	want = `at "20260301" reads as a date or as an event number: write 2026-03-01 for the end of that day, or evt-20260301 for the event`
	for _, tool := range []struct {
		name string
		args map[string]any
	}{
		{"memsys_log", map[string]any{"at": "20260301"}},
		{"memsys_graph", map[string]any{"format": "md", "at": "20260301"}},
		{"memsys_show", map[string]any{"id": "evt-001", "at": "20260301"}},
	} {
		if got := answer(tool.name, tool.args); !strings.HasPrefix(got, "error true\n") || !strings.Contains(got, want) {
			t.Errorf("%s at 20260301:\n%s\nwant the error %q", tool.name, got, want)
		}
	}
}

// TestAtEmpty: memsys_show and memsys_graph refuse an "at" sent blank,
// as memsys_log and the CLI's --at do, where they read it as left out
// and answered from the whole history; "at" left out still does.
func TestAtEmpty(t *testing.T) {
	cs := connect(t, copyExample(t))
	const want = `memsys: at is empty: give it a value, or leave the parameter out`
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"memsys_show", map[string]any{"id": "evt-001", "at": ""}},
		{"memsys_show", map[string]any{"id": "evt-001", "at": " "}},
		{"memsys_graph", map[string]any{"at": ""}},
	} {
		res := call(t, cs, c.tool, c.args)
		if got := text(res); !res.IsError || got != want {
			t.Errorf("%s %v: error %v %q, want the error %q", c.tool, c.args, res.IsError, got, want)
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"memsys_show", map[string]any{"id": "evt-001"}},
		{"memsys_graph", map[string]any{}},
		{"memsys_graph", map[string]any{"at": "evt-002"}},
	} {
		if res := call(t, cs, c.tool, c.args); res.IsError {
			t.Errorf("%s %v: %q, want an answer", c.tool, c.args, text(res))
		}
	}
}
