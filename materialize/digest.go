package materialize

import (
	"slices"
	"strings"

	"github.com/memsys/memsys/parse"
)

// brief is what context.md can show of one event.
type brief struct {
	pos int   // position in the history, from 0
	key int64 // timeKey of time
	// min is time.Minutes(), 0 for a zero time: the window tests
	// compare it for every event against every candidate, and the
	// calendar arithmetic behind it is not free.
	min     int64
	id, typ string
	summary string
	time    parse.Time
	prio    Priority
}

func briefOf(ev *parse.Event, pos int, legacy bool) brief {
	p := DefaultPriority
	if !legacy {
		p = PriorityOf(ev)
	}
	b := brief{pos: pos, key: timeKey(ev.Time), id: ev.ID, typ: ev.Type, summary: ev.Summary, time: ev.Time, prio: p}
	if !ev.Time.IsZero() {
		b.min = ev.Time.Minutes()
	}
	return b
}

// created is what context.md needs of an event that created a node:
// its summary, priority and date. The digest holds one for every event
// that created a node (tens of thousands on a long log, decoded from
// the history cache on every resumed run), so it keeps the date as a
// day number, not the whole parse.Time.
type created struct {
	summary string
	prio    Priority
	dated   bool  // the event has a timestamp
	day     int64 // dayNum of it
}

func createdOf(ev *parse.Event) created {
	c := created{summary: ev.Summary, prio: PriorityOf(ev)}
	if !ev.Time.IsZero() {
		c.dated, c.day = true, dayNum(ev.Time)
	}
	return c
}

// decayed is Options.decayed for the event c records, of priority p.
func (c created) decayed(o Options, p Priority, h parse.Time) bool {
	return c.dated && !h.IsZero() && o.decayedAfter(p, int(dayNum(h)-c.day))
}

// after reports whether a sorts before b in Recent Changes: later in
// the log first. The seed asks for "newest first"; a log is written in
// the order things happened, and a date-only stamp (00:00 of its day)
// or a late entry with an earlier clock must not jump above the event
// appended after it, so position decides and timestamps decide only
// which events are in the window.
func (a *brief) after(b *brief) bool { return a.pos > b.pos }

func timeKey(t parse.Time) int64 {
	if t.IsZero() {
		return -1
	}
	return t.Key()
}

// A digest watches the events go past and keeps only what context.md
// needs of them, so the events themselves need not be kept: the
// newest milestone and decision, the candidates for Recent Changes,
// the timestamps that decide how many events the window holds, and
// the summaries of the events that created nodes. Its size depends on
// the window and the graph, not on the length of the log.
type digest struct {
	opt    Options
	legacy bool // see Replayer.legacy
	n      int  // events seen

	milestone, decision brief // the last of each; pos -1 if none

	newest int64 // newest timestamp in minutes, -1 while none
	// mins holds timestamps (minutes) that may still fall in the
	// window; the window's start only moves forward, so older ones are
	// dropped now and then.
	mins    []int64
	pruneAt int
	// top holds the timed events that may still be shown: those not
	// yet out of the window and not yet covered by sectionCaps[SecRecent]
	// later events whose timestamps are as new or newer (such events
	// are in the window whenever this one is, and sort before it).
	// cover counts those later events, slot for slot. In a log written
	// in time order every event covers all before it, so top stays at
	// the cap.
	top   []brief
	cover []int
	// last is a ring of the last WindowEvents events, which the window
	// always includes.
	last []brief

	// created maps an event key (see eventKey) to the summary of the
	// last event with that key, for the events that created a node:
	// Active Constraints quotes the event behind each decision. The
	// keys of well-formed IDs are numbers, so no string is built per
	// event.
	created    map[int]created
	createdStr map[string]created
}

func newDigest(opt Options) *digest {
	opt = opt.withDefaults()
	return &digest{
		opt: opt, newest: -1, pruneAt: 1024,
		milestone: brief{pos: -1}, decision: brief{pos: -1},
		created: map[int]created{}, createdStr: map[string]created{},
	}
}

// observe records the event at the next position.
func (d *digest) observe(ev *parse.Event) {
	pos := d.n
	d.n++
	b := briefOf(ev, pos, d.legacy)
	switch ev.Type {
	case "milestone":
		d.milestone = b
	case "decision":
		d.decision = b
	}
	if len(d.last) < d.opt.WindowEvents {
		d.last = append(d.last, b)
	} else {
		d.last[pos%d.opt.WindowEvents] = b
	}
	if !ev.Time.IsZero() {
		d.timed(&b)
	}
	if n, ok := parse.EventNum(ev.ID); ok {
		if _, want := d.created[n]; want {
			d.created[n] = createdOf(ev)
		}
	} else if len(d.createdStr) > 0 {
		k := parse.EventKey(ev.ID)
		if _, want := d.createdStr[k]; want {
			d.createdStr[k] = createdOf(ev)
		}
	}
}

func (d *digest) timed(b *brief) {
	m := b.min
	if m > d.newest {
		d.newest = m
	}
	d.mins = append(d.mins, m)
	if len(d.mins) >= d.pruneAt {
		from := d.from()
		d.mins = slices.DeleteFunc(d.mins, func(x int64) bool { return x < from })
		d.pruneAt = max(1024, 2*len(d.mins))
	}
	// A slot out of the window or covered stays so (the window's start
	// only moves forward, cover only grows), so such slots are left in
	// place and skipped, and top is compacted in place once six have
	// gathered (so it stays within the capacity it had): shifting every
	// candidate down each time the oldest dropped out copied the whole
	// of top, 25 slots with three strings each, for every event.
	from := d.from()
	live := 0
	for i := range d.top {
		if d.cover[i] >= recentCap || d.top[i].min < from {
			continue
		}
		if d.top[i].min <= m {
			d.cover[i]++
		}
		if d.cover[i] < recentCap {
			live++
		}
	}
	if dead := len(d.top) - live; dead >= 6 {
		d.top, d.cover = d.compact(len(d.top), d.top[:0], d.cover[:0])
	}
	d.top, d.cover = append(d.top, *b), append(d.cover, 0)
}

// recentCap is sectionCaps[SecRecent], looked up once.
var recentCap = sectionCaps[SecRecent]

// compact appends the live slots among top[:n] to top and cover (which
// may alias d.top[:0] and d.cover[:0]: a slot is read before it is
// written), in order, and slots from n on whatever their state: the
// last event's slot is kept until the next timed event tests it.
func (d *digest) compact(n int, top []brief, cover []int) ([]brief, []int) {
	from := d.from()
	for i := range d.top {
		if d.dead(i, n, from) {
			continue
		}
		top, cover = append(top, d.top[i]), append(cover, d.cover[i])
	}
	return top, cover
}

// dead reports whether slot i is out of the window starting at from or
// covered; slots from n on count as live.
func (d *digest) dead(i, n int, from int64) bool {
	return i < n && (d.cover[i] >= recentCap || d.top[i].min < from)
}

// saved returns a copy of d whose top holds only the live slots, as
// the checkpoint has always held them, without changing d (a render
// may be reading it).
func (d *digest) saved() *digest {
	c := *d
	c.top, c.cover = d.compact(len(d.top)-1, make([]brief, 0, len(d.top)), make([]int, 0, len(d.top)))
	return &c
}

// from is the first minute of the time window, -1 with no timestamps.
func (d *digest) from() int64 {
	if d.newest < 0 {
		return -1
	}
	return d.newest - int64(d.opt.WindowHours)*60
}

// want asks for the summary of the event with id, which created a
// node: this event and any later one with the same key.
func (d *digest) want(ev *parse.Event) {
	if n, ok := parse.EventNum(ev.ID); ok {
		d.created[n] = createdOf(ev)
	} else {
		d.createdStr[parse.EventKey(ev.ID)] = createdOf(ev)
	}
}

// createdBy returns what was recorded of the event id.
func (d *digest) createdBy(id string) (created, bool) {
	if n, ok := parse.EventNum(strings.TrimSpace(id)); ok {
		s, ok := d.created[n]
		return s, ok
	}
	s, ok := d.createdStr[parse.EventKey(id)]
	return s, ok
}

// decayed reports whether an event of priority p written at t has left
// context.md at the horizon time h: P2 and P3 events older than their
// age (in whole days, horizon date minus event date). P0 and P1 never
// decay, nor does an event without a date or a history without one.
func (o Options) decayed(p Priority, t, h parse.Time) bool {
	days, ok := daysBetween(t, h)
	return ok && o.decayedAfter(p, days)
}

// decayedAfter reports whether an event of priority p has decayed at
// an age of days whole days.
func (o Options) decayedAfter(p Priority, days int) bool {
	switch p {
	case P2:
		return days > o.DecayP2Days
	case P3:
		return days > o.DecayP3Days
	}
	return false
}

// inWindow reports whether the event b belongs to Recent Changes.
func (d *digest) inWindow(b *brief) bool {
	if b.pos >= d.n-d.opt.WindowEvents {
		return true
	}
	return d.timedIn(b)
}

func (d *digest) timedIn(b *brief) bool {
	return d.newest >= 0 && !b.time.IsZero() && b.min >= d.from()
}

// recent returns the events of Recent Changes that fit in limit, in
// order, and how many more the window holds.
func (d *digest) recent(limit int, h parse.Time) (shown []brief, more int) {
	from := d.from()
	total := 0
	if d.newest >= 0 {
		for _, m := range d.mins {
			if m >= from {
				total++
			}
		}
	}
	cand := make([]brief, 0, len(d.top)+len(d.last))
	from0 := d.from()
	for i := range d.top {
		if d.dead(i, len(d.top)-1, from0) {
			continue
		}
		cand = append(cand, d.top[i])
	}
	for i := range d.last {
		b := &d.last[i]
		if !d.timedIn(b) && !d.opt.decayed(b.prio, b.time, h) {
			total++ // in the window only as one of the last events
		}
		cand = append(cand, *b)
	}
	// An event in the time window is at most WindowHours older than
	// the newest, so only the last events can have decayed.
	cand = slices.DeleteFunc(cand, func(b brief) bool { return !d.inWindow(&b) || d.opt.decayed(b.prio, b.time, h) })
	slices.SortFunc(cand, func(x, y brief) int {
		if x.after(&y) {
			return -1
		}
		return 1
	})
	cand = slices.CompactFunc(cand, func(x, y brief) bool { return x.pos == y.pos })
	if len(cand) > limit {
		cand = cand[:limit]
	}
	return cand, total - len(cand)
}
