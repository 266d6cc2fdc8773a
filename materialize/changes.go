package materialize

import "github.com/memsys/memsys/parse"

// A ChangeBuilder is ReplayChange one event at a time, for a caller
// that streams the history (parse.Stream) instead of keeping it:
// memsys show, which replays up to the first event with the number it
// shows and learns only at the end whether that event is the answer
// (a later one with the same number, up to an --at event that may come
// again, would be). It replays each event quiet, as ReplayChange does
// all but the last, and builds the Change of each event added with
// keep. It keeps no event, only strings read from them, so a stream may
// reuse the events' memory once Add returns.
type ChangeBuilder struct {
	r    *replayer
	s    *supersession
	seen []parse.Supersession
	// lastSkip is the index of the last expected edge an event was
	// skipped for (-1: none). A skip for an edge that no event added
	// so far carries is right for the whole history and wrong for
	// ReplayChange over the events so far, which does not know it.
	lastSkip int
	// forced is set once a kept event was applied although the
	// expected edges skip it: the replay after it is then neither
	// ReplayChange's over a longer prefix nor Replay's.
	forced bool
}

// NewChangeBuilder starts a replay over a history whose Supersedes
// fields are edges (Replayer.Expect: workspace predicts them from the
// bytes).
func NewChangeBuilder(edges []parse.Supersession) *ChangeBuilder {
	return &ChangeBuilder{r: newReplayer(), s: newSupersession(edges), lastSkip: -1}
}

// Add replays the next event. With keep, it returns the event's Change
// and whether that Change is exactly ReplayChange's over the events
// added so far (this one last); when it is not, because the expected
// edges were wrong or a later event's Supersedes field changed the
// replay before it, replay again with a new builder given the Seen()
// of the events up to this one. Without keep it returns a zero Change
// and false.
func (b *ChangeBuilder) Add(e *parse.Event, keep bool) (Change, bool) {
	j := b.s.supersededBy(e)
	// The kept Change is allocated only when asked for: the replay
	// keeps a pointer to it while the event replays, so a local would
	// move to the heap on every call.
	var kept *Change
	b.r.quiet = !keep
	switch {
	case keep:
		// ReplayChange never skips the last event of its history: only
		// a later one can supersede it, and there is none.
		kept = new(Change)
		b.r.apply(e, kept)
	case j >= 0:
		b.lastSkip = max(b.lastSkip, j)
		b.r.skip(e, &b.r.scratch, b.s.edges[j].ID)
	default:
		b.r.apply(e, &b.r.scratch)
	}
	b.r.quiet = false
	b.r.scratch = Change{NodesAdded: b.r.scratch.NodesAdded[:0], Notes: b.r.scratch.Notes[:0]}
	if sp, ok := parse.SupersessionOf(e); ok {
		b.seen = append(b.seen, sp)
	}
	b.s.observe(e)
	if !keep {
		return Change{}, false
	}
	exact := b.s.exact && !b.forced && b.lastSkip < b.s.next
	b.forced = b.forced || j >= 0
	return *kept, exact
}

// Seen returns the Supersedes fields of the events added so far.
func (b *ChangeBuilder) Seen() []parse.Supersession { return b.seen }
