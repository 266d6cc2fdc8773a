package adopt

import (
	"fmt"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Result is the log after Apply and what it holds.
type Result struct {
	Log  []byte   // the new CHANGELOG.md
	IDs  []string // the appended events, in order
	Text [][]byte // each appended event as written
	// Missing is what of the hand-kept graph the replay of the new
	// history still lacks (Missing): empty when nothing curated is lost.
	Missing []string
}

// Apply appends the plan's drafts to the log src (file logName), with
// agent and time, each checked as memsys append checks an event; the
// archive, when there is one, is read for IDs and replayed first. It
// writes nothing: the caller writes Result.Log and regenerates. A log
// kept newest first is refused (newestFirst).
func Apply(logName string, src []byte, archive *parse.Log, in Input, p Plan, agent, time string) (Result, error) {
	var r Result
	if len(p.Drafts) > 0 {
		if err := newestFirst(parse.Parse(logName, src, parse.HeadersOnly()), logName); err != nil {
			return r, err
		}
	}
	out := src
	for _, d := range p.Drafts {
		d.Agent, d.Time = agent, time
		log := parse.Parse(logName, out, parse.HeadersOnly())
		if err := memory.Normalize(&d, memory.KnownIn(log, archive)); err != nil {
			return r, fmt.Errorf("adopting %q: %w", words.Clip(d.Scope), err)
		}
		id, err := memory.NextID(log, archive)
		if err != nil {
			return r, err
		}
		text := memory.Render(id, d, memory.Newline(out))
		if err := memory.CheckRoundTrip(id, d, text); err != nil {
			return r, fmt.Errorf("adopting %q: %w", words.Clip(d.Scope), err)
		}
		next, err := memory.AppendEvent(logName, out, log, text)
		if err != nil {
			return r, err
		}
		out = next
		r.IDs = append(r.IDs, id)
		r.Text = append(r.Text, text)
	}
	r.Log = out
	var events []parse.Event
	if archive != nil {
		events = append(events, archive.Events...)
	}
	events = append(events, parse.Parse(logName, out).Events...)
	g := materialize.ReplayGraph(events)
	if in.Graph != nil {
		hand, _ := materialize.ReadLoose(in.Graph)
		r.Missing = materialize.Missing(hand, g)
	}
	return r, nil
}

// newestFirst is nil unless the log's events are kept newest first
// (parse.Order), as a hand-kept changelog adopt meets may be. Adopt
// appends at the end, as append does, which is the top of the history
// only when the IDs rise in file order (lint's MS109): its events below
// the oldest would leave an order neither newest nor oldest first, one
// that archive refuses and that no later append can mend. The error is
// the one line that says what to do. A log with an event out of place
// elsewhere is not refused: the appended events still come after the
// highest ID, and lint reports the event out of place.
func newestFirst(l *parse.Log, file string) error {
	o := parse.OrderOf(l)
	if o.Ascending() || !o.Descending {
		return nil
	}
	return front.Errorf("%s:%d: the log is newest first (%s at line %d comes before %s at line %d), and adopt appends its events at the end, below the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run %s again",
		file, o.First.Line, o.First.ID, o.First.Line, o.Last.ID, o.Last.Line, front.Adopt.Word())
}
