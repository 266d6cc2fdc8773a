package memory

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// History returns root's events (archive first, then log), cut after
// the event at when it is not "".
func History(root, at string) ([]parse.Event, error) {
	all, n, err := historyAt(root, at)
	return all[:n], err
}

// historyAt returns all of root's events and how many of them are up to
// and including the event at (all of them when at is "").
func historyAt(root, at string) ([]parse.Event, int, error) {
	mem, err := LoadHistory(root)
	if err != nil {
		return nil, 0, err
	}
	evs := mem.Events
	if at == "" {
		return evs, len(evs), nil
	}
	i, err := Find(evs, at, inAt.Name())
	if err != nil {
		return nil, 0, err
	}
	var places atPlaces
	for _, e := range evs {
		if e.Num == evs[i].Num {
			places.see(e.Range)
		}
	}
	if err := places.twice(at); err != nil {
		return nil, 0, err
	}
	return evs, i + 1, nil
}

// cutAt names the event a history was cut at by --at (at), as the
// ID of its last event, or "" when at is "" (the whole history).
func cutAt(evs []parse.Event, at string) string {
	if at == "" || len(evs) == 0 {
		return ""
	}
	return evs[len(evs)-1].ID
}

// findUpTo is Find over all[:n], the history as of --at: an event that
// exists only after the cut is named as such, not as missing.
func findUpTo(all []parse.Event, n int, id string, what front.Word) (int, error) {
	i, err := Find(all[:n], id, what)
	if err != nil && n < len(all) {
		if _, later := Find(all[n:], id, what); later == nil {
			return 0, errAfterCut(what, id, all[n-1].ID)
		}
	}
	return i, err
}

// errAfterCut is the error for event id (named what) that exists only
// after the event at, where --at cut the history.
func errAfterCut(what front.Word, id, at string) error {
	return front.Errorf("%s %q comes after %s %s: name an event up to %s, or drop %s", what, words.Clip(id), inAt.Name(), at, at, inAt.Ref())
}

// Find returns the index of event id in evs (matched by number, so
// evt-7 and a bare 7 find evt-007), or an error naming what (the flag
// or argument).
func Find(evs []parse.Event, id string, what front.Word) (int, error) {
	num, ok := parse.ArgNum(id)
	if !ok {
		return 0, ErrNotEventID(what, id)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Num == num {
			return i, nil
		}
	}
	return 0, ErrNoSuchEvent(what, id)
}

// ShowResult is what memsys show reports (its JSON form).
type ShowResult struct {
	EventLine
	Details    []DetailJSON `json:"details"`
	Refs       []string     `json:"refs"`
	Tags       []string     `json:"tags"`
	Supersedes []string     `json:"supersedes"`
	// SupersededBy names the event that supersedes this one ("" when
	// none): the event stays in the log but leaves every derived view.
	SupersededBy string `json:"superseded_by"`
	// Duplicates are the other events with this ID (a log lint faults,
	// MS107): show picks the last one, and says where the others are.
	Duplicates []EventLine `json:"duplicates,omitempty"`
	Text       string      `json:"text"`
	// Changes is what the event did to the graph, as the replay up to
	// --at applied it: for a superseded event, nothing but the note
	// that replay skipped it.
	Changes ChangeJSON `json:"changes"`
	// ReferencedBy are the later events that name this one in their
	// Refs, Supersedes or a closes detail (materialize.Names), as
	// memsys log --refs-to lists them.
	ReferencedBy []EventLine `json:"referenced_by"`
	// Loop is "open" or "closed" for a blocker, escalation or
	// commitment that no later event supersedes, "" for any other
	// event; ClosedBy is the first later event that closed it (a
	// closes detail naming it, or a fix or milestone whose Refs do), as
	// replay closes loops. memsys loops lists the open ones; show said
	// nothing of either.
	Loop     string     `json:"loop,omitempty"`
	ClosedBy *EventLine `json:"closed_by,omitempty"`
}

// DetailJSON is one detail bullet with its nested bullets.
type DetailJSON struct {
	Key      string       `json:"key"`
	Value    string       `json:"value"`
	Children []DetailJSON `json:"children,omitempty"`
}

// ChangeJSON is what one event changed in the graph.
type ChangeJSON struct {
	NodesAdded   []string `json:"nodes_added"`
	NodesUpdated []string `json:"nodes_updated"`
	EdgesAdded   []string `json:"edges_added"`
	EdgesUpdated []string `json:"edges_updated"`
	Notes        []string `json:"notes"`
}

// Show returns event id of root's history (as of event at, when not
// ""), what it changed in the graph, and the events that refer to it.
// It streams the history (parse.Reuse) rather than loading it, and
// replays it only up to the first event numbered as id: it keeps those
// events (the last one up to the cut is the answer, the others are its
// duplicates), the later events that refer to them and the history's
// Supersedes fields, not the events, which at 100k events were most of
// what the command cost. When the answer is a later duplicate, or a
// Supersedes field the prediction missed or one after the event
// changed the replay before it, it streams again, replaying up to the
// answer with exactly the fields before it (TestShowSame). Like
// LoadHistory it refuses a history cut short by an over-long line.
func Show(root, at, id string) (*ShowResult, error) {
	at, err := ResolveAt(root, at)
	if err != nil {
		return nil, err
	}
	mem, err := workspace.Read(root)
	if err != nil {
		return nil, err
	}
	s := newShowStream(at, id, mem.Supersessions())
	if err := mem.Stream(s.add, parse.Reuse(&s.took)); err != nil {
		return nil, err
	}
	if err := readWhole(mem); err != nil {
		return nil, err
	}
	c, err := s.answer()
	if err != nil {
		return nil, err
	}
	r := c.r
	if !c.exact {
		b := materialize.NewChangeBuilder(s.seen[:c.through])
		var took doneCount
		if err := mem.Stream(func(e *parse.Event) {
			if took.n <= c.pos {
				ch, _ := b.Add(e, took.n == c.pos)
				if took.n == c.pos {
					r.Changes = changeJSON(ch)
				}
			}
			took.n++
		}, parse.Reuse(&took)); err != nil {
			return nil, err
		}
	}
	r.SupersededBy, _ = materialize.SupersededAt(s.seen[:s.cutEdges], c.before, r.ID)
	if ch, skipped := materialize.SkippedAt(s.seen[:s.cutEdges], c.before, r.ID); skipped {
		// What the replay of the history applied: the changes the
		// event made before its correction are in no derived file.
		r.Changes = changeJSON(ch)
	}
	for _, x := range s.refs {
		if x.pos > c.pos && x.pos <= s.cut {
			r.ReferencedBy = append(r.ReferencedBy, x.line)
		}
	}
	for _, x := range s.dups {
		if x.pos != c.pos && x.pos <= s.cut {
			r.Duplicates = append(r.Duplicates, x.line)
		}
	}
	if materialize.IsLoop(strings.ToLower(r.Type)) && r.SupersededBy == "" {
		r.Loop = "open"
		for _, x := range s.closers {
			if x.pos <= c.pos || x.pos > s.cut {
				continue
			}
			if _, skipped := materialize.SupersededAt(s.seen[:s.cutEdges], x.before, x.line.ID); !skipped {
				r.Loop, r.ClosedBy = "closed", &x.line // replay skips a superseded closer
				break
			}
		}
	}
	return r, nil
}

// closes reports whether e closes the loop of event number num, as
// replay closes loops: a closes detail naming it, or a fix or
// milestone whose Refs name it.
func closes(e *parse.Event, num int) bool {
	if (e.Type == "fix" || e.Type == "milestone") && refersTo(*e, num) {
		return true
	}
	for _, id := range materialize.Closes(e) {
		if n, ok := parse.EventNum(id); ok && n == num {
			return true
		}
	}
	return false
}

// showStream is what Show keeps of the history as it streams by.
type showStream struct {
	at, id       string
	atNum, idNum int
	atOK, idOK   bool
	took         doneCount // events handed over; their positions
	// idRef is an ID numbered idNum, which later events name it by
	// (materialize.Names matches by number).
	idRef string
	// b replays the history up to the first event numbered as id, then
	// is nil.
	b    *materialize.ChangeBuilder
	seen []parse.Supersession // the Supersedes fields so far
	// last is the last event numbered as id so far; chosen is last
	// as it was at the last event numbered as at (the answer when no
	// later one comes).
	last, chosen *showCandidate
	// cut is the position of the last event numbered as at (-1: none
	// yet), cutID its ID, cutEdges the number of Supersedes fields up
	// to it.
	cut, cutEdges int
	cutID         string
	atPlaces      atPlaces     // the events numbered as at
	dups, refs    []placedLine // events numbered as id; later events referring to it
	closers       []closer     // later events that close it (closes)
}

// closer is an event that closes the loop Show's id opened, and the
// number of Supersedes fields before it (SupersededAt's before).
type closer struct {
	placedLine
	before int
}

// showCandidate is an event numbered as Show's id: its answer, but for
// what later events decide, and where it stands.
type showCandidate struct {
	r   *ShowResult
	pos int
	// exact says whether r.Changes is ReplayChange's up to the event
	// (false: not replayed, or not exactly); before and through are the
	// numbers of Supersedes fields before it and up to it (itself
	// included).
	exact           bool
	before, through int
}

// placedLine is an event's line and its position in the history.
type placedLine struct {
	pos  int
	line EventLine
}

func newShowStream(at, id string, expect []parse.Supersession) *showStream {
	s := &showStream{at: at, id: id, cut: -1}
	s.atNum, s.atOK = -1, true
	if at != "" {
		s.atNum, s.atOK = parse.ArgNum(at)
	}
	s.idNum, s.idOK = parse.ArgNum(id)
	if s.idOK {
		s.idRef = parse.FormatID(s.idNum, 3)
	}
	s.b = materialize.NewChangeBuilder(fieldsBefore(expect, s.idNum))
	// A malformed argument matches no event (a malformed ID has Num 0).
	if !s.atOK {
		s.atNum = -1
	}
	if !s.idOK {
		s.idNum = -1
	}
	if !s.atOK || !s.idOK {
		s.b = nil // the answer is an error: nothing to replay
	}
	return s
}

// fieldsBefore returns the predicted Supersedes fields (expect) of the
// events up to the first one numbered num, judged by their IDs: those
// up to the first field of an event numbered above num, or of the
// event numbered num itself. The replay to that event then skips no
// event for a field after it, which would make it replay again (an
// event between a superseded one and its correction). In a log out of
// number order the guess is wrong, and the replay's checks say so
// (ChangeBuilder.Add).
func fieldsBefore(expect []parse.Supersession, num int) []parse.Supersession {
	for k, f := range expect {
		n, ok := parse.EventNum(f.ID)
		switch {
		case !ok || n > num:
			return expect[:k]
		case n == num:
			return expect[:k+1]
		}
	}
	return expect
}

// add takes the history's next event.
func (s *showStream) add(e *parse.Event) {
	pos := s.took.n
	s.took.n++
	before := len(s.seen)
	if sp, ok := parse.SupersessionOf(e); ok {
		s.seen = append(s.seen, sp)
	}
	if e.Num == s.idNum {
		c := &showCandidate{pos: pos, before: before, through: len(s.seen)}
		var ch materialize.Change
		if s.b != nil {
			ch, c.exact = s.b.Add(e, true)
			s.b = nil // the answer is seldom a later duplicate: Show replays again then
		}
		c.r = &ShowResult{
			EventLine:    LineOf(*e),
			Details:      details(e.Details),
			Refs:         nonNil(e.Refs),
			Tags:         nonNil(slices.Clone(e.Tags)), // the stream reuses Tags' memory
			Supersedes:   nonNil(e.Supersedes),
			Text:         e.Text,
			Changes:      changeJSON(ch),
			ReferencedBy: []EventLine{},
		}
		s.last = c
		s.dups = append(s.dups, placedLine{pos, c.r.EventLine})
	} else if s.b != nil {
		s.b.Add(e, false)
	}
	if s.last != nil && materialize.Names(e, s.idRef) {
		s.refs = append(s.refs, placedLine{pos, LineOf(*e)})
	}
	if s.last != nil && closes(e, s.idNum) {
		s.closers = append(s.closers, closer{placedLine{pos, LineOf(*e)}, before})
	}
	if e.Num == s.atNum {
		s.cut, s.cutID, s.cutEdges, s.chosen = pos, e.ID, len(s.seen), s.last
		s.atPlaces.see(e.Range)
	}
}

// answer returns the event Show reports once the whole history went by,
// or the error historyAt and findUpTo gave for the same history.
func (s *showStream) answer() (*showCandidate, error) {
	if !s.atOK {
		return nil, ErrNotEventID(inAt.Name(), s.at)
	}
	if s.at == "" {
		s.cut, s.cutEdges, s.chosen = s.took.n-1, len(s.seen), s.last
	} else if s.cut < 0 {
		return nil, ErrNoSuchEvent(inAt.Name(), s.at)
	} else if err := s.atPlaces.twice(s.at); err != nil {
		return nil, err
	}
	if !s.idOK {
		return nil, ErrNotEventID(eventArg, s.id)
	}
	if s.chosen == nil {
		if s.last != nil { // only after the cut
			return nil, errAfterCut(eventArg, s.id, s.cutID)
		}
		return nil, ErrNoSuchEvent(eventArg, s.id)
	}
	return s.chosen, nil
}

// WriteText prints the result as memsys show does without --format,
// and as memsys_show's text content, worded for front f: an agent that
// reads only the text learns, as the command line's reader does, that
// the event is superseded or whether its loop is open, which the event's
// text alone (what memsys_show gave) never says.
func (r *ShowResult) WriteText(w io.Writer, f front.Front) {
	fmt.Fprintf(w, "%s:%d\n", r.File, r.Line)
	for _, d := range r.Duplicates {
		front.Fprintf(w, f, "note: %s is also the ID of the event at %s:%d (an ID used twice: %s reports it)\n", r.ID, d.File, d.Line, front.Lint.Word())
	}
	if r.SupersededBy != "" {
		fmt.Fprintf(w, "superseded by %s: left out of graph.md and context.md\n", r.SupersededBy)
	}
	switch {
	case r.ClosedBy != nil:
		fmt.Fprintf(w, "loop closed by %s\n", r.ClosedBy)
	case r.Loop == "open":
		fmt.Fprintf(w, "loop open: no later event closes it (an event with the detail \"closes: %s\" does)\n", r.ID)
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, strings.TrimRight(r.Text, "\n")+"\n")
	fmt.Fprintln(w, "\nGraph changes:")
	n := 0
	for _, g := range []struct {
		label string
		items []string
	}{
		{"node added", r.Changes.NodesAdded}, {"node updated", r.Changes.NodesUpdated},
		{"edge added", r.Changes.EdgesAdded}, {"edge updated", r.Changes.EdgesUpdated},
		{"note", r.Changes.Notes},
	} {
		for _, it := range g.items {
			fmt.Fprintf(w, "- %s: %s\n", g.label, it)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintln(w, "- none")
	}
	fmt.Fprintln(w, "\nReferenced by:")
	for _, x := range r.ReferencedBy {
		fmt.Fprintf(w, "- %s\n", x)
	}
	if len(r.ReferencedBy) == 0 {
		fmt.Fprintln(w, "- none")
	}
}

func details(ds []parse.Detail) []DetailJSON {
	out := make([]DetailJSON, 0, len(ds))
	for _, d := range ds {
		var kids []DetailJSON
		if len(d.Children) > 0 {
			kids = details(d.Children)
		}
		out = append(out, DetailJSON{Key: d.Key, Value: d.Value, Children: kids})
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// changeJSON is what an event changed in the graph, every list
// non-nil for JSON.
func changeJSON(c materialize.Change) ChangeJSON {
	return ChangeJSON{
		NodesAdded: nonNil(c.NodesAdded), NodesUpdated: nonNil(c.NodesUpdated),
		EdgesAdded: nonNil(c.EdgesAdded), EdgesUpdated: nonNil(c.EdgesUpdated),
		Notes: nonNil(c.Notes),
	}
}

// refersTo reports whether one of e's refs names event number num.
func refersTo(e parse.Event, num int) bool {
	for _, r := range e.Refs {
		if n, ok := parse.EventNum(r); ok && n == num {
			return true
		}
	}
	return false
}

// LogFilter selects events for memsys log; filters combine with AND and
// an empty field selects everything.
type LogFilter struct {
	Entity string   // graph node whose full history is wanted
	Types  []string // event types, any case
	Agent  string
	Since  string // YYYY-MM-DD or "YYYY-MM-DD HH:MM", inclusive
	Until  string // the same; a date includes the whole day
	RefsTo string // an event ID the Refs, Supersedes or a closes detail must name (materialize.Names)
	At     string // read the history as of this event
	// Open keeps only the loops still open (blockers, escalations,
	// commitments no later event closed); Superseded only the events a
	// later event supersedes.
	Open, Superseded bool
	// Limit keeps only the last Limit events that pass the filters
	// (still oldest first); 0 keeps them all.
	Limit int
}

// ErrLimit is the error for a limit below one, named what (the flag or
// field); omitted says what leaving it out gives, which differs between
// the CLI (every event) and memsys_log (a default cap), so the advice
// is true where it is read.
func ErrLimit(what string, n int, omitted string) error {
	return fmt.Errorf("%s %d: must be at least 1 (leave it out for %s)", what, n, omitted)
}

// Check reports, before any file is read, a filter given with no value
// (see Blank), a --since or --until that is not a date, or a limit
// below one. given is as for Blank.
func (f LogFilter) Check(given func(front.Input) bool) error {
	if f.Limit < 0 {
		return ErrLimit(inLimit.Flag, f.Limit, "every event")
	}
	if err := f.Blank(given); err != nil {
		return err
	}
	_, _, err := f.bounds()
	return err
}

// Blank refuses a filter that was given but holds nothing but blanks:
// to LogFilter an empty value is no filter, so memsys log --agent ""
// (an unset variable in a script) and memsys_log with "agent": "" listed
// the whole history as if every event had matched, and a blank agent
// matched none. An entity gets recall's sentence
// (materialize.CheckEntityName), a type list the same refusal when no
// name in it is more than blanks. given reports whether the caller gave
// an input at all, a flag set or a key sent, even empty; with nil only
// the non-empty values count as given (what Log can tell from f alone).
// The command line and memsys_log both call it, so they refuse alike.
func (f LogFilter) Blank(given func(front.Input) bool) error {
	was := func(in front.Input, v string) bool { return v != "" || given != nil && given(in) }
	if was(inEntity, f.Entity) {
		if err := materialize.CheckEntityName(f.Entity); err != nil {
			return err
		}
	}
	if (len(f.Types) > 0 || given != nil && given(inType)) && len(typeNames(f.Types)) == 0 {
		return errEmpty(inType)
	}
	for _, in := range []struct {
		in front.Input
		v  string
	}{{inAgent, f.Agent}, {inSince, f.Since}, {inUntil, f.Until}, {inRefsTo, f.RefsTo}, {inAt, f.At}} {
		if was(in.in, in.v) && strings.TrimSpace(in.v) == "" {
			return errEmpty(in.in)
		}
	}
	return nil
}

// CheckAtGiven refuses --at given a blank value (an unset variable in
// a script), which every command would otherwise read as
// not given and answer from the whole history, as log's filters are
// refused (LogFilter.Blank). Call it only when the flag was given.
func CheckAtGiven(v string) error { return blankGiven(inAt, v) }

// CheckStatusGiven is CheckAtGiven for graph's --status.
func CheckStatusGiven(v string) error { return blankGiven(inStatus, v) }

func blankGiven(in front.Input, v string) error {
	if strings.TrimSpace(v) == "" {
		return errEmpty(in)
	}
	return nil
}

// errEmpty is Blank's error for in: "--agent is empty (an unset
// variable?)" on the command line, "agent is empty" over MCP.
func errEmpty(in front.Input) error {
	return front.Errorf("%s is empty%s: give it a value, or leave the %s out", in.Name(),
		front.Word{CLI: " (an unset variable?)"}, front.Word{CLI: "flag", MCP: "parameter", JSON: "key"})
}

// bounds returns the time keys of Since and Until (inclusive).
func (f LogFilter) bounds() (since, until int64, err error) {
	since, until = 0, 1<<62
	if f.Since != "" {
		if since, err = bound(inSince, f.Since, false); err != nil {
			return 0, 0, err
		}
	}
	if f.Until != "" {
		if until, err = bound(inUntil, f.Until, true); err != nil {
			return 0, 0, err
		}
	}
	return since, until, nil
}

// Log returns the events of root's history that pass f, oldest first,
// and how many passed before f.Limit cut them (more than it returned
// means older ones were left out).
func Log(root string, f LogFilter) ([]EventLine, int, error) {
	if f.Limit < 0 {
		return nil, 0, ErrLimit(inLimit.Flag, f.Limit, "every event")
	}
	if err := f.Blank(nil); err != nil {
		return nil, 0, err
	}
	since, until, err := f.bounds()
	if err != nil {
		return nil, 0, err
	}
	if f.At, err = ResolveAt(root, f.At); err != nil {
		return nil, 0, err
	}
	all, n, err := historyAt(root, f.At)
	if err != nil {
		return nil, 0, err
	}
	evs := all[:n]
	refsTo := ""
	if f.RefsTo != "" {
		i, err := findUpTo(all, n, f.RefsTo, inRefsTo.Name())
		if err != nil {
			return nil, 0, err
		}
		refsTo = evs[i].ID
	}
	types := typeNames(f.Types)
	for _, t := range types {
		// A misspelt type would list nothing, as if no such event had
		// happened. A type outside the seed's that the history holds
		// (lint reports it, MS105) is still a filter.
		if !slices.Contains(parse.EventTypes, t) && !slices.ContainsFunc(all, func(e parse.Event) bool { return e.Type == t }) {
			return nil, 0, front.Errorf("%s %q: unknown event type: use one of %s", inType.Name(), words.Clip(t), strings.Join(parse.EventTypes, ", "))
		}
	}
	head := headerFilter{types: types, agent: f.Agent, since: since, until: until}
	var open map[int]bool
	if f.Open {
		open = openAt(evs)
	}
	var superseded map[int]string
	if f.Superseded {
		superseded = materialize.SupersededBy(evs)
	}
	var touched map[int]bool
	if f.Entity != "" {
		if touched, err = touchedBy(evs, f.Entity, cutAt(evs, f.At)); err != nil {
			return nil, 0, err
		}
	}
	out := make([]EventLine, 0, len(evs)) // no filter keeps them all
	for i, e := range evs {
		switch {
		case touched != nil && !touched[i],
			!head.match(&e),
			refsTo != "" && !materialize.Names(&e, refsTo),
			open != nil && !open[i],
			superseded != nil && superseded[i] == "":
			continue
		}
		out = append(out, LineOf(e))
	}
	matched := len(out)
	if f.Limit > 0 && len(out) > f.Limit {
		out = out[len(out)-f.Limit:]
	}
	return out, matched, nil
}

// typeNames returns the --type values as Log compares them: trimmed,
// lower case, empty ones dropped ("decision," names one type); nil
// when none is left, which selects every type.
func typeNames(ts []string) []string {
	var out []string
	for _, t := range ts {
		if t = strings.ToLower(strings.TrimSpace(t)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// headerFilter is the part of a LogFilter that an event's header
// decides alone (its type, agent and time), the part LogLines can
// apply to the end of the log without the history.
type headerFilter struct {
	types        []string // nil: any
	agent        string   // "": any
	since, until int64    // time keys, inclusive
}

func (h headerFilter) match(e *parse.Event) bool {
	return (h.types == nil || slices.Contains(h.types, e.Type)) &&
		(h.agent == "" || strings.EqualFold(h.agent, e.Agent)) &&
		e.Time.Key() >= h.since && e.Time.Key() <= h.until
}

// openAt returns the positions in evs of the loops open after them.
func openAt(evs []parse.Event) map[int]bool {
	g := materialize.ReplayGraph(evs)
	type place struct {
		file string
		line int
	}
	loops := map[place]bool{}
	for _, l := range g.OpenLoops() {
		loops[place{l.Range.File, l.Range.Line}] = true
	}
	out := map[int]bool{}
	for i := range evs {
		if loops[place{evs[i].Range.File, evs[i].Range.Line}] {
			out[i] = true
		}
	}
	return out
}

// bound parses a --since/--until value into a Time key; end widens a
// date-only bound to the end of its day.
func bound(in front.Input, v string, end bool) (int64, error) {
	k, ok := timeKey(v, end)
	if !ok {
		return 0, front.Errorf("%s %q is not a date: write YYYY-MM-DD or \"YYYY-MM-DD HH:MM\"", in.Name(), words.Clip(v))
	}
	return k, nil
}

// timeKey reads a date or time given as an argument (YYYY-MM-DD,
// "YYYY-MM-DD HH:MM" or YYYY-MM-DDTHH:MM) into a Time key; end widens a
// date alone to the end of its day. --since, --until and a dated --at
// read it alike.
func timeKey(v string, end bool) (int64, bool) {
	t, msg := parse.ParseTime(argTime(v))
	if msg != "" {
		return 0, false
	}
	if t.DateOnly && end {
		t.Hour, t.Minute = 23, 59
	}
	return t.Key(), true
}

// touchedBy returns the indexes of the events that added or updated
// node name or an edge from or to it, per Replay's change records; at
// is the event the history was cut at, for the error ("" for none).
func touchedBy(evs []parse.Event, name, at string) (map[int]bool, error) {
	g, changes := materialize.Replay(evs)
	n := g.Node(name)
	if n == nil {
		return nil, materialize.UnknownEntity(g, name, at)
	}
	touched := map[int]bool{}
	for i := range evs {
		c := changes[i] // Replay gives one Change per event, in order
		hit := slices.Contains(c.NodesAdded, n.Name) || slices.Contains(c.NodesUpdated, n.Name)
		for _, e := range append(c.EdgesAdded, c.EdgesUpdated...) {
			from, to := edgeEnds(e)
			hit = hit || from == n.Name || to == n.Name
		}
		if hit {
			touched[i] = true
		}
	}
	return touched, nil
}

// edgeEnds splits materialize's "from -relation-> to" edge label.
func edgeEnds(s string) (from, to string) {
	loc := edgeArrowRE().FindStringIndex(s)
	if loc == nil {
		return "", ""
	}
	return s[:loc[0]], s[loc[1]:]
}

// edgeArrowRE matches the " -relation-> " arrow; relations are
// lower-case snake words, so a dash inside a node name does not match.
var edgeArrowRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` -[a-z_]+-> `) })
