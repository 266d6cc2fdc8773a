package mcpserver

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
)

// TestShowSaysLoopAndSupersession: memsys_show gives what memsys show
// gives, structured (loop, closed_by, superseded_by, as show --format
// json) and as text: memsys show's text in the agent's words, which says
// that an event is superseded and whether its loop is open or which
// event closed it. The text content was the event's text alone, so an
// agent reading it took a corrected event or a closed blocker as
// current.
func TestShowSaysLoopAndSupersession(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	blocker := map[string]any{"type": "blocker", "scope": "stripe", "summary": "Sandbox down",
		"details": []map[string]any{{"key": "blocked", "value": "stripe"}, {"key": "reason", "value": "outage"}}}
	call(t, cs, "memsys_append", blocker)                                                                         // evt-020
	call(t, cs, "memsys_append", map[string]any{"type": "blocker", "scope": "stripe", "summary": "Webhooks down", // evt-021
		"details": []map[string]any{{"key": "blocked", "value": "stripe"}, {"key": "reason", "value": "outage"}}})
	call(t, cs, "memsys_append", map[string]any{"type": "fix", "scope": "stripe", "summary": "Sandbox back", // evt-022
		"details": []map[string]any{{"key": "closes", "value": "evt-020"}}})
	call(t, cs, "memsys_append", map[string]any{"type": "fix", "scope": "stripe", "summary": "Sandbox back, the right way", // evt-023
		"details": []map[string]any{{"key": "closes", "value": "evt-020"}}, "supersedes": []string{"evt-022"}})
	for _, c := range []struct {
		id, loop, closedBy, supersededBy string
		line                             string // the line the text must hold
	}{
		{"evt-020", "closed", "evt-023", "", "loop closed by evt-023 | "},
		{"evt-021", "open", "", "", `loop open: no later event closes it (an event with the detail "closes: evt-021" does)`},
		{"evt-022", "", "", "evt-023", "superseded by evt-023: left out of graph.md and context.md"},
	} {
		res := call(t, cs, "memsys_show", map[string]any{"id": c.id})
		var sh memory.ShowResult
		structured(t, res, &sh)
		closedBy := ""
		if sh.ClosedBy != nil {
			closedBy = sh.ClosedBy.ID
		}
		if sh.Loop != c.loop || closedBy != c.closedBy || sh.SupersededBy != c.supersededBy {
			t.Errorf("%s: loop %q closed_by %q superseded_by %q, want %q %q %q", c.id, sh.Loop, closedBy, sh.SupersededBy, c.loop, c.closedBy, c.supersededBy)
		}
		// The text is memsys show's, as the CLI prints it (this memory's
		// text names no command, so both front ends word it alike).
		want, err := memory.Show(root, "", c.id)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		want.WriteText(&b, front.CLI)
		if got := text(res); got != b.String() || !strings.Contains(got, c.line) {
			t.Errorf("%s: text\n%s\nwant memsys show's\n%s\nwith %q", c.id, got, b.String(), c.line)
		}
	}
}
