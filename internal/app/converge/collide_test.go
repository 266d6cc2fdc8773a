package converge

import (
	"testing"

	"github.com/memsys/memsys/parse"
)

func TestCollide(t *testing.T) {
	events := func(evs []genEvent) []parse.Event {
		return parse.Parse("CHANGELOG.md", render(genHead, evs)).Events
	}
	base := appended(nil, "base", 2)
	a := appended(base, "a", 3)                               // evt-003..005
	b := appended(base, "b", 2)                               // evt-003..004, other text
	c := append(appended(base, "a", 1), genEvent{label: "c"}) // evt-003 as a's, evt-004 other
	for _, tc := range []struct {
		name string
		x, y []genEvent
		want []string
	}{
		{"both appended", a, b, []string{"evt-003", "evt-004"}},
		{"one picked the other's event", a, c, []string{"evt-004"}},
		{"nothing new on one side", a, base, nil},
		{"same branch", a, a, nil},
	} {
		got := Collide(events(base), events(tc.x), events(tc.y))
		var ids []string
		for _, c := range got {
			ids = append(ids, c.ID)
			if c.A.Text == c.B.Text {
				t.Errorf("%s: %s reported with equal text", tc.name, c.ID)
			}
		}
		if len(ids) != len(tc.want) || (len(ids) > 0 && ids[0] != tc.want[0]) || (len(ids) > 1 && ids[1] != tc.want[1]) {
			t.Errorf("%s: collisions %v, want %v", tc.name, ids, tc.want)
		}
	}
	ds := CollisionDiagnostics(events(base), events(a), events(b), "origin/main")
	if len(ds) != 2 || ds[0].Rule != "MS306" || ds[0].Message != "evt-003 is also evt-003 on origin/main with other content: run `memsys renumber --onto origin/main`" || ds[0].Detail == "" {
		t.Errorf("diagnostics %+v", ds)
	}
}
