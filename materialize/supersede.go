package materialize

import (
	"strings"

	"github.com/memsys/memsys/parse"
)

// evKey identifies an event as Refs, Supersedes and closes name it
// ("evt-7" and "evt-007" match): by number, without building a string,
// for the well-formed IDs replay meets on every event; by the lowered
// text otherwise.
type evKey struct {
	n int
	s string
}

func keyOf(id string) evKey {
	id = strings.TrimSpace(id)
	if n, ok := parse.EventNum(id); ok {
		return evKey{n: n}
	}
	return evKey{n: -1, s: strings.ToLower(id)}
}

// supersession decides which events replay skips. The rule
// (docs/materialize.md, "Supersession"): an event X is skipped when a
// live event S that comes after X names X's ID in its Supersedes
// field. An event is live unless a live later event supersedes it, so
// superseding a correction brings the corrected event back, and a
// Supersedes naming the event itself, a later event or no event has no
// effect (lint reports them). Skipping X means replaying the history
// as if X had never been written; because replay is deterministic and
// the skip set depends only on the Supersedes fields, the graph at any
// point is the replay of the events up to it, minus those superseded
// by events up to it: the correction takes effect from the
// superseding event's position on.
type supersession struct {
	edges []parse.Supersession // in history order
	live  []bool               // per edge: whether its event is live
	// last maps an event key to the index of the last live edge that
	// names it; an event with that key is skipped while that edge's
	// event has not been replayed yet, that is, while it comes later.
	last map[evKey]int
	// next is the number of edges whose event has been replayed.
	next int
	// exact stays true while the events replayed match the edges; a
	// Replayer given a wrong prediction reports it (Replayer.Exact).
	exact bool
}

func newSupersession(edges []parse.Supersession) *supersession {
	s := &supersession{edges: edges, live: make([]bool, len(edges)), last: map[evKey]int{}, exact: true}
	// Backward: an edge's event is dead when a later live edge names it.
	named := map[evKey]bool{}
	for i := len(edges) - 1; i >= 0; i-- {
		k := keyOf(edges[i].ID)
		s.live[i] = !named[k]
		if !s.live[i] {
			continue
		}
		for _, t := range edges[i].Targets {
			tk := keyOf(t)
			if tk == k {
				continue // superseding itself: no effect
			}
			named[tk] = true
			if _, ok := s.last[tk]; !ok {
				s.last[tk] = i
			}
		}
	}
	return s
}

// supersededBy returns the index of the edge that supersedes ev, which
// is about to be replayed, or -1.
func (s *supersession) supersededBy(ev *parse.Event) int {
	if len(s.last) == 0 {
		return -1
	}
	if i, ok := s.last[keyOf(ev.ID)]; ok && i >= s.next {
		return i
	}
	return -1
}

// observe checks ev against the predicted edges and moves past its own.
func (s *supersession) observe(ev *parse.Event) {
	got, has := parse.SupersessionOf(ev)
	if s.next < len(s.edges) {
		want := s.edges[s.next]
		if has {
			if want.Equal(got) {
				s.next++
				return
			}
			s.exact = false
			return
		}
		if want.File == ev.Range.File && want.Offset == ev.Range.Offset {
			s.exact = false
		}
		return
	}
	if has {
		s.exact = false
	}
}

// done reports whether every edge was met in the history.
func (s *supersession) done() bool { return s.exact && s.next == len(s.edges) }

// Live reports, for each Supersedes field of a history (in order),
// whether its event is live: not superseded by a live later event.
// Only a live event's Supersedes takes effect.
func Live(edges []parse.Supersession) []bool { return newSupersession(edges).live }

// Supersessions returns the Supersedes fields of events, in order: what
// a Replayer expects (Replayer.Expect) when it is given these events.
func Supersessions(events []parse.Event) []parse.Supersession {
	var out []parse.Supersession
	for i := range events {
		if s, ok := parse.SupersessionOf(&events[i]); ok {
			out = append(out, s)
		}
	}
	return out
}

// SupersededBy returns, for each event of the history that replay
// skips, the ID of the first live event after it that supersedes it
// (two live corrections of one event are an error, MS126), by position
// in events.
func SupersededBy(events []parse.Event) map[int]string {
	t := NewSupersedeTracker(Supersessions(events))
	out := map[int]string{}
	for i := range events {
		if by, ok := t.Next(&events[i]); ok {
			out[i] = by
		}
	}
	return out
}

// A SupersedeTracker answers SupersededBy one event at a time, for a
// caller that streams the history and keeps none of it (the history
// cache's counts for memsys report).
type SupersedeTracker struct{ s *supersession }

// NewSupersedeTracker tracks a history whose Supersedes fields are
// edges (Supersessions of its events, or parse.ScanSupersedes'
// prediction, which Exact checks afterwards).
func NewSupersedeTracker(edges []parse.Supersession) *SupersedeTracker {
	return &SupersedeTracker{newSupersession(edges)}
}

// Next takes the history's next event and returns the ID of the first
// live event after it that supersedes it, ok false if none does.
func (t *SupersedeTracker) Next(ev *parse.Event) (by string, ok bool) {
	s := t.s
	if len(s.last) > 0 {
		by, ok = s.by(keyOf(ev.ID), s.next)
	}
	s.observe(ev)
	return by, ok
}

// SupersededAt is SupersededBy for one event, given the Supersedes
// fields of the history (edges, in order) rather than its events: the
// ID of the first live event after the event id that supersedes it,
// where before is how many of the edges belong to events before it;
// ok false if none does. memsys show streams the history, keeping the
// edges and not the events.
func SupersededAt(edges []parse.Supersession, before int, id string) (by string, ok bool) {
	return newSupersession(edges).by(keyOf(id), before)
}

// SkippedAt returns the Change replay records for the event id, given
// the Supersedes fields of the history (edges, in order) of which
// before belong to events before it, when replay skips the event (ok
// false when it applies it): no graph change, and the note naming the
// live event replay skipped it for. memsys show reports it for a
// superseded event rather than what the event did before it was
// superseded, which no derived file holds any more.
func SkippedAt(edges []parse.Supersession, before int, id string) (ch Change, ok bool) {
	s := newSupersession(edges)
	j, ok := s.last[keyOf(id)]
	if !ok || j < before {
		return Change{}, false
	}
	skipChange(&ch, id, s.edges[j].ID)
	return ch, true
}

// by returns the ID of the first live edge from index from on that
// names an event with key k, when the last live edge naming it (the
// one replay skips the event for) is from on; ok false otherwise.
func (s *supersession) by(k evKey, from int) (string, bool) {
	j, ok := s.last[k]
	if !ok || j < from {
		return "", false
	}
	for f := from; f <= j; f++ {
		if !s.live[f] {
			continue
		}
		for _, tg := range s.edges[f].Targets {
			if keyOf(tg) == k {
				return s.edges[f].ID, true
			}
		}
	}
	return s.edges[j].ID, true
}

// Exact reports whether the events given carried exactly the edges the
// tracker was made with: only then are its answers SupersededBy's.
func (t *SupersedeTracker) Exact() bool { return t.s.done() }

// A Twice is an event superseded by two live events, neither
// superseding the other: two versions of the truth (lint MS126). Edge
// and First index the edges given to SupersededTwice.
type Twice struct {
	Edge   int    // the later live edge
	Target string // the event both name, as Edge's field writes it
	First  int    // the first live edge that names it
}

// SupersededTwice returns, in history order, each live edge's target
// that an earlier live edge of another event already names: what lint
// reports as MS126 and what append refuses to write, so the two cannot
// disagree. Targets are matched by event number ("evt-7" and "evt-007"
// alike); a target that is no event ID, or the event itself, has no
// effect and is not counted. A correction that a later live event
// supersedes is not live (Live) and does not count.
func SupersededTwice(edges []parse.Supersession) []Twice {
	live := Live(edges)
	var out []Twice
	first := map[int]int{} // superseded event number → its first live superseder
	for i, e := range edges {
		if !live[i] {
			continue
		}
		self, _ := parse.EventNum(strings.TrimSpace(e.ID))
		for _, t := range e.Targets {
			n, ok := parse.EventNum(strings.TrimSpace(t))
			if !ok || n == self {
				continue
			}
			if f, ok := first[n]; ok && edges[f].ID != e.ID {
				out = append(out, Twice{Edge: i, Target: t, First: f})
				continue
			}
			first[n] = i
		}
	}
	return out
}
