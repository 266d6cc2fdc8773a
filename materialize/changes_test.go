package materialize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestChangeBuilderSame: for every event of generated histories with
// supersessions (and one with the cases that need the second build
// written out: a skip for a later field, a kept event a later field
// supersedes, a field the prediction misses, IDs used twice), a
// ChangeBuilder kept, as memsys show keeps them, the events numbered as
// that event gives ReplayChange's Change over the history up to it when
// Add says it is exact, and a second builder given the Seen fields up to
// it gives it when not. SupersededAt, given the fields of the history
// cut anywhere after the event, answers as SupersededBy over the cut
// history. Both answers must occur, or the check is not tested.
func TestChangeBuilderSame(t *testing.T) {
	exact, rebuilt := 0, 0
	for _, c := range changeCases() {
		evs := parse.Parse("CHANGELOG.md", []byte(c.log)).Events
		expect := parse.ScanSupersedes("CHANGELOG.md", []byte(c.log))
		for i := range evs {
			b := NewChangeBuilder(expect)
			var got Change
			var ok bool
			before := 0
			for j := range i + 1 {
				if j == i {
					before = len(b.Seen())
				}
				ch, k := b.Add(&evs[j], evs[j].Num == evs[i].Num)
				got, ok = ch, k
			}
			_, want := ReplayChange(evs[:i+1])
			if ok {
				exact++
			} else {
				rebuilt++
				again := NewChangeBuilder(b.Seen())
				for j := range i {
					again.Add(&evs[j], false)
				}
				if got, ok = again.Add(&evs[i], true); !ok {
					t.Fatalf("%s, %s: the second build is not exact", c.name, evs[i].ID)
				}
			}
			if g, w := fmt.Sprint(got), fmt.Sprint(want); g != w {
				t.Fatalf("%s, event %d, %s (exact %v):\ngot  %s\nwant %s", c.name, i, evs[i].ID, ok, g, w)
			}
			for n := i + 1; n <= len(evs); n += 5 {
				by, _ := SupersededAt(Supersessions(evs[:n]), before, evs[i].ID)
				if w := SupersededBy(evs[:n])[i]; by != w {
					t.Fatalf("%s, %s cut at %s: superseded by %q, want %q", c.name, evs[i].ID, evs[n-1].ID, by, w)
				}
			}
		}
	}
	t.Logf("%d exact, %d built again", exact, rebuilt)
	if exact == 0 || rebuilt == 0 {
		t.Errorf("%d exact, %d built again: both paths must be tested", exact, rebuilt)
	}
}

// changeCases are the histories TestChangeBuilderSame replays.
func changeCases() []struct{ name, log string } {
	gen := string(loggen.GenerateSemantic(240, 2))
	// A Supersedes field in a fenced block is text to the parser, a
	// field to the scan: the prediction is wrong.
	at := strings.Index(gen, "\n### evt-100 ")
	fenced := gen[:at] + "\n```\n**Supersedes**: evt-090\n```\n" + gen[at:]
	return []struct{ name, log string }{
		{"seed 1", string(loggen.GenerateSemantic(240, 1))},
		{"seed 2", gen},
		{"fenced Supersedes", fenced},
		{"second builds", string(loggen.GenerateSemantic(60, 3)) + secondBuilds},
	}
}

// secondBuilds are events that follow a 60-event generated log, each
// case a Change only a second build gets right: evt-062 creates the
// node evt-061 created, which evt-063 supersedes; the first evt-065,
// superseded by evt-066, created the node the second evt-065 creates;
// evt-069 creates the node evt-067 created, which evt-068 supersedes
// in a field the byte scan misses (its value on the next line).
const secondBuilds = `
### evt-061 | 2026-12-01 10:00 | x | create

**Scope**: s
**Summary**: late
**Details**:
- entity: late_node

### evt-062 | 2026-12-01 10:01 | x | create

**Scope**: s
**Summary**: late again
**Details**:
- entity: late_node

### evt-063 | 2026-12-01 10:02 | x | fix

**Scope**: s
**Summary**: drop evt-061
**Supersedes**: evt-061

### evt-065 | 2026-12-01 10:03 | x | create

**Scope**: s
**Summary**: kept early
**Details**:
- entity: forced_node

### evt-066 | 2026-12-01 10:04 | x | fix

**Scope**: s
**Summary**: drop evt-065
**Supersedes**: evt-065

### evt-065 | 2026-12-01 10:05 | x | create

**Scope**: s
**Summary**: kept again
**Details**:
- entity: forced_node

### evt-067 | 2026-12-01 10:06 | x | create

**Scope**: s
**Summary**: missed
**Details**:
- entity: missed_node

### evt-068 | 2026-12-01 10:07 | x | fix

**Scope**: s
**Summary**: drop evt-067
**Supersedes**:
evt-067

### evt-069 | 2026-12-01 10:08 | x | create

**Scope**: s
**Summary**: missed again
**Details**:
- entity: missed_node
`
