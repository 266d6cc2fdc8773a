package memory

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// ResolveAt returns the event ID a point-in-time read (--at, memsys_*'s
// "at") cuts the history at. An event ID (or its bare number, as
// parse.ArgNum reads it) and "" come back unchanged, without reading
// anything: that is the path every command took before --at took
// dates. A bare number that is also a date, YYYYMMDD, is refused
// (bareDate). A date (YYYY-MM-DD, the end of that day, as --until reads it)
// or a time ("YYYY-MM-DD HH:MM" or YYYY-MM-DDTHH:MM) is the memory as
// it stood at that instant: the history (archive, then log) up to the
// first event dated after it, named by the ID of the event just before
// that one. Events are appended in time order, so that is what the log
// held then; where times are out of order (lint warns), the cut at the
// first later-dated event is still what had been appended by then, and
// an event dated earlier that comes after it is left out. When the
// event before the cut shares its ID with another (MS107), the ID would
// cut at the other one on some paths (historyAt takes the last, the
// replay the first): that is an error, not a wrong answer. Finding the
// cut reads the headings only (parse.HeadersOnly). Show, Log, Graph,
// Snapshot and Regenerate call it, so the commands and the MCP tools
// read a date alike.
func ResolveAt(root, at string) (string, error) {
	if at == "" {
		return "", nil
	}
	if n, ok := parse.ArgNum(at); ok {
		if date, ok := bareDate(at); ok {
			return "", front.Errorf("%s %q reads as a date or as an event number: write %s for the end of that day, or %s for the event", inAt.Name(), at, date, parse.FormatID(n, len(at)))
		}
		return at, nil
	}
	key, ok := timeKey(at, true)
	if !ok {
		return "", errNotAt(at)
	}
	var c atCut
	mem, err := workspace.Stream(root, func(e *parse.Event) { c.add(e, key) }, parse.HeadersOnly())
	if err != nil {
		return "", err
	}
	if err := readWhole(mem); err != nil {
		return "", err
	}
	return c.id(at)
}

// bareDate is at, a bare number, as the date YYYY-MM-DD when its eight
// digits are one (20260301 is 2026-03-01). Such a number was read as an
// event number (evt-20260301), which no log reaches, where whoever
// typed it meant the date: ResolveAt refuses it, since a log of twenty
// million events may have that ID, and the two forms say which is
// meant. Shorter numbers (7, 007, as the kit's scripts write them) are
// no date and stay event numbers.
func bareDate(at string) (string, bool) {
	if len(at) != 8 {
		return "", false
	}
	date := at[:4] + "-" + at[4:6] + "-" + at[6:]
	_, ok := timeKey(date, true)
	return date, ok
}

// atCut finds where a date given to --at cuts the history as it streams
// by: the last event before the first one dated after the instant.
type atCut struct {
	last      string // the ID of the last event before the cut ("": none)
	lastNum   int
	lastPlace atPlace
	first     parse.Time // the first event's time
	firstID   string
	any, cut  bool // an event went by; the cut was found
	// firstOf and secondOf are where the first and the second event
	// of each number are: an ID used twice (MS107) cannot name the cut,
	// since the ID path cuts at one of its events, not at the one the
	// date found.
	firstOf, secondOf map[int]atPlace
}

// atPlace is where an event's heading is.
type atPlace struct {
	file string
	line int
}

// add takes the history's next event; key is the instant's Time key.
// An event whose time is unreadable (Key 0, lint reports it) is dated
// after no instant: it does not cut the history.
func (c *atCut) add(e *parse.Event, key int64) {
	if !c.any {
		c.any, c.first, c.firstID = true, e.Time, e.ID
		c.firstOf, c.secondOf = map[int]atPlace{}, map[int]atPlace{}
	}
	p := atPlace{e.Range.File, e.Range.Line}
	if _, ok := c.firstOf[e.Num]; !ok {
		c.firstOf[e.Num] = p
	} else if _, ok := c.secondOf[e.Num]; !ok {
		c.secondOf[e.Num] = p
	}
	if c.cut {
		return
	}
	if e.Time.Key() > key {
		c.cut = true
		return
	}
	c.last, c.lastNum, c.lastPlace = e.ID, e.Num, p
}

// id returns the event the cut names, or the error for an instant
// before the history (at is the value given).
func (c *atCut) id(at string) (string, error) {
	switch {
	case !c.any:
		return "", front.Errorf("%s %q: %s and the archive hold no event: nothing to read as of a date", inAt.Name(), words.Clip(at), workspace.LogName)
	case c.last == "":
		return "", front.Errorf("%s %q: no event is dated at or before it (the first, %s, is dated %s): give a date from %s on, or an event ID", inAt.Name(), words.Clip(at), c.firstID, c.first, c.first)
	}
	other, ok := c.firstOf[c.lastNum]
	if other == c.lastPlace {
		other, ok = c.secondOf[c.lastNum]
	}
	if ok {
		return "", front.Errorf("%s %q: the last event by then, %s at %s:%d, shares its ID with the event at %s:%d, so the ID cannot name the cut: give each its own ID (%s reports it, MS107)",
			inAt.Name(), words.Clip(at), c.last, c.lastPlace.file, c.lastPlace.line, other.file, other.line, front.Lint.Word())
	}
	return c.last, nil
}

// atPlaces gathers where the events numbered as --at's ID are: two of
// them (MS107) leave the cut ambiguous, and the commands, which read
// the history in different ways, would each pick one (errAtTwice).
type atPlaces struct {
	first, second *diag.Range
}

// see notes an event numbered as --at's ID.
func (p *atPlaces) see(r diag.Range) {
	switch {
	case p.first == nil:
		p.first = &r
	case p.second == nil:
		p.second = &r
	}
}

// twice is errAtTwice when two events were seen, else nil.
func (p *atPlaces) twice(at string) error {
	if p.second == nil {
		return nil
	}
	return errAtTwice(at, *p.first, *p.second)
}

// errAtTwice refuses an --at ID that two events share (MS107), as
// ResolveAt refuses a date whose cut falls on one of them: which one
// the history is cut at would be a guess, where show and log took the
// last and the replay the first.
func errAtTwice(at string, a, b diag.Range) error {
	return front.Errorf("%s %q: the events at %s:%d and %s:%d share that ID, so it cannot name the cut: give each its own ID (%s reports it, MS107), or cut at another event",
		inAt.Name(), words.Clip(at), a.File, a.Line, b.File, b.Line, front.Lint.Word())
}

// errNotAt is the error for an --at value that is neither an event ID
// nor a date; a value written as an ID gets ErrNotEventID's reason.
func errNotAt(at string) error {
	why := ""
	if h := parse.NotIDHint(at); h != "write evt-NNN" {
		why = " (" + h + ")"
	}
	return front.Errorf("%s %q is neither an event ID%s nor a date: write evt-NNN, YYYY-MM-DD or \"YYYY-MM-DD HH:MM\"", inAt.Name(), words.Clip(at), why)
}
