package materialize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestChangeBuilderSame: at every event of generated histories with
// supersessions (one with a Supersedes field the prediction misses, one
// with IDs used twice), the Change a ChangeBuilder keeps is
// ReplayChange's over the history up to the event when Add says it is
// exact, and a second builder given the Seen fields up to the event
// gives it when it is not; SupersededAt, given the fields of a history
// cut anywhere after the event, answers as SupersededBy over the cut
// history. Both answers must occur, or the check is not tested.
func TestChangeBuilderSame(t *testing.T) {
	exact, rebuilt := 0, 0
	for _, c := range changeCases() {
		evs := parse.Parse("CHANGELOG.md", []byte(c.log)).Events
		b := NewChangeBuilder(parse.ScanSupersedes("CHANGELOG.md", []byte(c.log)))
		for i := range evs {
			before := len(b.Seen())
			got, ok := b.Add(&evs[i], i%3 != 1 || c.every)
			if i%3 == 1 && !c.every {
				continue
			}
			_, want := ReplayChange(evs[:i+1])
			if !ok {
				rebuilt++
				again := NewChangeBuilder(b.Seen())
				for j := range i {
					again.Add(&evs[j], false)
				}
				got, ok = again.Add(&evs[i], true)
				if !ok {
					t.Fatalf("%s, %s: the second build is not exact", c.name, evs[i].ID)
				}
			} else {
				exact++
			}
			if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
				t.Fatalf("%s, %s (exact %v):\ngot  %s\nwant %s", c.name, evs[i].ID, ok, g, w)
			}
			seen := Supersessions(evs)
			for n := i + 1; n <= len(evs); n += 5 {
				by, _ := SupersededAt(Supersessions(evs[:n]), before, evs[i].ID)
				if w := SupersededBy(evs[:n])[i]; by != w {
					t.Fatalf("%s, %s cut at %s: superseded by %q, want %q (%d fields)", c.name, evs[i].ID, evs[n-1].ID, by, w, len(seen))
				}
			}
		}
	}
	t.Logf("%d exact, %d built again", exact, rebuilt)
	if exact == 0 || rebuilt == 0 {
		t.Errorf("%d exact, %d built again: both paths must be tested", exact, rebuilt)
	}
}

type changeCase struct {
	name, log string
	every     bool // keep every event's Change, not two in three
}

// changeCases are the histories TestChangeBuilderSame replays.
func changeCases() []changeCase {
	gen := string(loggen.GenerateSemantic(240, 2))
	// A Supersedes field in a fenced block is text to the parser, a
	// field to the scan: the prediction is wrong.
	at := strings.Index(gen, "\n### evt-100 ")
	fenced := gen[:at] + "\n```\n**Supersedes**: evt-090\n```\n" + gen[at:]
	// evt-050 again near the end, superseding evt-040, and evt-060
	// again superseding itself and evt-050.
	end := len(gen)
	dup := gen[:end] + "\n### evt-050 | 2026-12-01 10:00 | x | decision\n\n**Scope**: s\n**Summary**: again\n**Supersedes**: evt-040\n" +
		"\n### evt-060 | 2026-12-01 10:01 | x | create\n\n**Scope**: s\n**Summary**: again\n**Supersedes**: evt-060, evt-050\n"
	return []changeCase{
		{"seed 1", string(loggen.GenerateSemantic(240, 1)), false},
		{"seed 2", gen, true},
		{"fenced Supersedes", fenced, false},
		{"duplicates", dup, true},
	}
}
