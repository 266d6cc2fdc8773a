package recall

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/fixtures"
	"github.com/memsys/memsys/parse"
)

// TestEventLookupWholeText: an event the lookup finds is the event as
// the whole file's parse reads it, its text whole, for every memory of
// the fixtures (IDs written once in the log and the archive). The
// lookup parsed a chunk from the event's heading to the next line
// starting with '#', so a "#### Notes" sub-heading or a "#tag" line,
// which belong to the event, cut it: the MCP resource
// memsys://event/evt-NNN served the event without what followed
// (Refs and Tags included), and recall lost a Summary written below one.
func TestEventLookupWholeText(t *testing.T) {
	found := 0
	// The fixtures hold those lines only in code blocks; this log has
	// them as text.
	subHeadings := fixtures.Memory{Name: "sub-headings", Files: map[string][]byte{workspace.LogName: []byte(
		"# Changelog\n\n## Event Log\n\n" +
			"### evt-001 | 2026-01-05 09:00 | alice | create\n\n**Scope**: auth\n**Details**:\n- entity: auth\n\n" +
			"#### Notes\n\nWhy it exists.\n\n**Summary**: Add the auth module\n**Refs**: none\n**Tags**: auth\n\n---\n\n" +
			"### evt-002 | 2026-01-05 10:00 | bob | fix\n\n**Scope**: auth\n**Summary**: Fix login\n\n#login\n\n**Refs**: evt-001\n**Tags**: auth\n")}}
	for _, m := range append(fixtures.Memories(t, "../../.."), subHeadings) {
		root := t.TempDir()
		var whole []parse.Event
		for name, b := range m.Files {
			if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			var opts []parse.Option
			if name != workspace.LogName {
				opts = append(opts, parse.Archive())
			}
			whole = append(whole, parse.Parse(name, b, opts...).Events...)
		}
		s, err := OpenEvents(root)
		if err != nil {
			continue // a memory workspace.Read refuses: nothing to look up
		}
		seen := map[int]int{}
		for _, e := range whole {
			seen[e.Num]++
		}
		for _, e := range whole {
			if seen[e.Num] != 1 {
				continue
			}
			got, ok := s.Event(e.ID)
			if !ok {
				continue // a lookup may miss (a heading in a code block), never return another text
			}
			found++
			if got.Text != e.Text || got.Summary != e.Summary || got.Range.File != e.Range.File {
				t.Errorf("%s: %s: the lookup's event is not the whole parse's:\n got %q\nwant %q", m.Name, e.ID, got.Text, e.Text)
			}
		}
	}
	if found == 0 {
		t.Fatal("no event looked up")
	}
}
