package parse

// Order follows the IDs of a log's events (its Event Log section) in
// file order. Archive takes the events at the top of the log as the
// oldest; that holds only when the IDs rise from top to bottom (lint's
// MS109). A log kept newest first (as many hand-kept changelogs are),
// or with one event out of place, would have archive move newer events
// and keep older ones, so archive refuses it, status says why, and
// lint's MS117 advises the order before the archive. All three learn
// it here, one comparison per event, so that they agree; the fields
// are exported so that a checkpoint (the history and lint caches) can
// carry an Order over the events it does not read again.
//
// Events whose ID has no number (Num 0, reported by parse) are skipped,
// as MS109 skips them. An ID equal to the highest so far is a duplicate
// (MS107: an interrupted archive or a hand edit, which archive
// handles), not a break.
type Order struct {
	N int // events seen
	// First and Last are the first and the last event seen; Max the
	// highest ID so far.
	First, Last, Max OrderMark
	// Descending is true while every event's ID is below the one before
	// it: the log is kept newest first.
	Descending bool
	// Break is the first event whose ID is lower than one before it (its
	// ID empty when there is none), and BreakAfter the highest before
	// it.
	Break, BreakAfter OrderMark
}

// OrderMark is one event's place: its ID, number and heading line.
type OrderMark struct {
	ID   string
	Num  int
	Line int
}

// Add records e, the next event of the log's Event Log in file order.
func (o *Order) Add(e *Event) {
	if e.Num == 0 {
		return
	}
	m := OrderMark{ID: e.ID, Num: e.Num, Line: e.Range.Line}
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

// Ascending reports whether the IDs seen rise in file order: archive
// takes the events at the top as the oldest only then.
func (o *Order) Ascending() bool { return o.Break.ID == "" }

// OrderOf is the order of the events of l's Event Log.
func OrderOf(l *Log) Order {
	var o Order
	if l == nil {
		return o
	}
	for i := range l.Events {
		if l.Events[i].InLog {
			o.Add(&l.Events[i])
		}
	}
	return o
}
