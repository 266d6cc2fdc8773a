package converge

import (
	"github.com/memsys/memsys/parse"
)

// Collision is one ID two histories both added since their common
// ancestor, with other content.
type Collision struct {
	ID   string
	A, B *parse.Event // the event in each history
}

// History returns the events of an archive and a log (either may be
// nil) in history order.
func History(archive, log *parse.Log) []parse.Event {
	var out []parse.Event
	for _, l := range []*parse.Log{archive, log} {
		if l != nil {
			out = append(out, l.Events...)
		}
	}
	return out
}

// Collide lists, in b's order, the events a and b both added after base
// under the same number with different text: merged by hand they would
// give one ID to two events. The same event added on both sides (a
// cherry-pick) is no collision.
func Collide(base, a, b []parse.Event) []Collision {
	old := make(map[int]bool, len(base))
	for _, e := range base {
		old[e.Num] = true
	}
	added := map[int]*parse.Event{}
	for i := range a {
		if e := &a[i]; e.Num > 0 && !old[e.Num] {
			if _, dup := added[e.Num]; !dup {
				added[e.Num] = e
			}
		}
	}
	var out []Collision
	seen := map[int]bool{}
	for i := range b {
		e := &b[i]
		if e.Num == 0 || old[e.Num] || seen[e.Num] {
			continue
		}
		seen[e.Num] = true
		if x, ok := added[e.Num]; ok && x.Text != e.Text {
			out = append(out, Collision{ID: e.ID, A: x, B: e})
		}
	}
	return out
}
