package converge

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestRenderSupersedes: the derived files' driver renders what regen
// writes when the merged history supersedes an event. Render streamed
// the events without telling the replay which ones later events
// supersede, so a superseded decision kept its graph row and its Active
// Constraint, and the merge ended with derived files that regen --check
// called out of date.
func TestRenderSupersedes(t *testing.T) {
	const e1 = "### evt-001 | 2025-01-01 09:00 | ada | decision\n\n**Scope**: core\n**Summary**: Use Go\n\n" +
		"**Details**:\n- from: none\n- to: go\n- rationale: speed\n\n**Refs**: none\n**Tags**: none\n\n---\n\n"
	const e2 = "### evt-002 | 2025-01-01 09:10 | ada | decision\n\n**Scope**: core\n**Summary**: Use Zig\n\n" +
		"**Details**:\n- from: go\n- to: zig\n- rationale: fun\n\n**Refs**: none\n**Tags**: none\n**Supersedes**: evt-001\n"
	for _, c := range []struct{ name, archive, log string }{
		{"log", "", "## Event Log\n\n" + e1 + e2},
		// the superseding event archived too: the prediction reads the archive
		{"archive", "## Archived Events\n\n" + e1 + e2, "## Event Log\n\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var archive []byte
			var events []parse.Event
			if c.archive != "" {
				archive = []byte(c.archive)
				events = append(events, parse.Parse("changelog-archive.md", archive, parse.Archive()).Events...)
			}
			events = append(events, parse.Parse("CHANGELOG.md", []byte(c.log)).Events...)
			g, _ := materialize.Replay(events)
			want := materialize.RenderGraph(g)
			graph, _ := Render("CHANGELOG.md", []byte(c.log), "changelog-archive.md", archive, materialize.DefaultOptions())
			if !bytes.HasPrefix(graph, want) {
				t.Fatalf("graph.md\n got:\n%s\nwant (before the seal):\n%s", graph, want)
			}
		})
	}
}
