package memory

import (
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// logOrder follows the IDs of the log's events (its Event Log section)
// in file order, for archive and status. Archive takes the events at
// the top of the log as the oldest; that holds only when the IDs rise
// from top to bottom (lint's MS109). A log kept newest first (as many
// hand-kept changelogs are), or with one event out of place, would have
// archive move newer events and keep older ones, so archive refuses it
// (orderErr) and status, which must agree without replaying the log,
// learns the same from the headings it streams past, one comparison
// per event. The history cache's checkpoint carries it over the prefix
// a status does not read again (replayCheckpoint.LogOrder).
//
// Events whose ID has no number (Num 0, reported by parse) are skipped,
// as MS109 skips them. An ID equal to the highest so far is a duplicate
// (MS107: an interrupted archive or a hand edit, which readArchival
// handles), not a break.
type logOrder struct {
	N int // events seen
	// First and Last are the first and the last event seen; Max the
	// highest ID so far.
	First, Last, Max orderMark
	// Descending is true while every event's ID is below the one before
	// it: the log is kept newest first.
	Descending bool
	// Break is the first event whose ID is lower than one before it (its
	// ID empty when there is none), and BreakAfter the highest before
	// it.
	Break, BreakAfter orderMark
}

// orderMark is one event's place: its ID, number and heading line.
type orderMark struct {
	ID   string
	Num  int
	Line int
}

// add records e, the next event of the log's Event Log in file order.
func (o *logOrder) add(e *parse.Event) {
	if e.Num == 0 {
		return
	}
	m := orderMark{ID: e.ID, Num: e.Num, Line: e.Range.Line}
	switch {
	case o.N == 0:
		o.First, o.Max, o.Descending = m, m, true
	case m.Num >= o.Last.Num:
		o.Descending = false
	}
	if m.Num < o.Max.Num && o.Break.ID == "" {
		o.Break, o.BreakAfter = m, o.Max
	}
	if m.Num > o.Max.Num {
		o.Max = m
	}
	o.Last = m
	o.N++
}

// orderOf is the order of the events of l's Event Log.
func orderOf(l *parse.Log) logOrder {
	var o logOrder
	if l == nil {
		return o
	}
	for i := range l.Events {
		if l.Events[i].InLog {
			o.add(&l.Events[i])
		}
	}
	return o
}

// err is nil when the IDs of file's log rise in file order, else the
// one line archive refuses with (file:line, what is wrong, what to do).
// A log kept newest first is named as such, with its first and last
// events; otherwise the first event out of place and the higher one
// before it, as MS109 reports it.
func (o logOrder) err(file string) error {
	if o.Break.ID == "" {
		return nil
	}
	if o.Descending {
		return front.Errorf("%s:%d: the log is newest first (%s at line %d comes before %s at line %d), and archive takes the events at its top as the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run %s again",
			file, o.First.Line, o.First.ID, o.First.Line, o.Last.ID, o.Last.Line, front.Archive.Word())
	}
	return front.Errorf("%s:%d: %s comes after %s (line %d), and archive takes the events at the top of the log as the oldest: move %s back to its place in ascending ID order (lint: MS109), then run %s again",
		file, o.Break.Line, o.Break.ID, o.BreakAfter.ID, o.BreakAfter.Line, o.Break.ID, front.Archive.Word())
}
