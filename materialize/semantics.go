package materialize

import (
	"sort"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// Priority of an event: the detail `priority: P0|P1|P2|P3` (seed 000's
// retention classes). P0 is binding and never decays; P1, the default,
// stays; P2 and P3 leave context.md once older than Options.DecayP2Days
// and Options.DecayP3Days.
type Priority int8

// The priorities, and the default of an event without one.
const (
	P0 Priority = iota
	P1
	P2
	P3
	DefaultPriority = P1
)

// String is "P0" to "P3".
func (p Priority) String() string { return "P" + strconv.Itoa(int(p)) }

// ParsePriority reads a priority value: P0 to P3 in any case, or the
// words critical (P0), high (P1), medium or normal (P2) and low (P3)
// that hand-written logs use. ok is false for anything else.
func ParsePriority(v string) (Priority, bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "p0", "critical":
		return P0, true
	case "p1", "high":
		return P1, true
	case "p2", "medium", "normal":
		return P2, true
	case "p3", "low":
		return P3, true
	}
	return DefaultPriority, false
}

// PriorityOf is the priority of e: its priority detail, or the
// default when it has none or an unknown one (lint reports that).
func PriorityOf(e *parse.Event) Priority {
	if v, ok := e.Detail("priority"); ok {
		p, _ := ParsePriority(v)
		return p
	}
	return DefaultPriority
}

// LoopTypes are the event types that open a loop: a blocker, an
// escalation, and a commitment (seed 000's "something promised").
var LoopTypes = []string{"blocker", "escalation", "commitment"}

// IsLoop reports whether events of type typ open a loop.
func IsLoop(typ string) bool { return contains(LoopTypes, typ) }

// LoopTypesText is LoopTypes for a message: "a blocker, escalation or
// commitment".
func LoopTypesText() string {
	return "a " + strings.Join(LoopTypes[:len(LoopTypes)-1], ", ") + " or " + LoopTypes[len(LoopTypes)-1]
}

// TypeNoun names an event of type typ for a message: "a handoff", "an
// archive", or, for a type outside parse.EventTypes, "an event of type
// \"launch\"" (and "an event with no type").
func TypeNoun(typ string) string {
	switch {
	case typ == "":
		return "an event with no type"
	case !contains(parse.EventTypes, typ):
		return "an event of type " + strconv.Quote(typ)
	case strings.ContainsRune("aeiou", rune(typ[0])):
		return "an " + typ
	}
	return "a " + typ
}

// Closes returns the IDs e closes explicitly, from its `closes`
// details (comma-separated, repeatable), without the Refs of a fix or
// milestone.
func Closes(e *parse.Event) []string {
	var out []string
	for _, d := range e.Details {
		if d.Norm() != "closes" {
			continue
		}
		for _, f := range strings.FieldsFunc(d.Value, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			if f = strings.Trim(f, "`*."); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// hasCloses reports whether e has a closes detail, without building
// the list: most events have none.
func hasCloses(e *parse.Event) bool {
	for _, d := range e.Details {
		if d.Norm() == "closes" {
			return true
		}
	}
	return false
}

// Loop is an open loop: an event that waits for a later one to close
// it.
type Loop struct {
	ID, Type, Summary string
	Agent             string
	Owner             string // owner detail, else the agent
	Due               string // due detail as written
	Time              parse.Time
	Priority          Priority
	Range             diag.Range // the heading line
	pos               int
}

// AgeDays is the loop's age in whole days at the horizon time h; ok is
// false when either date is missing.
func (l *Loop) AgeDays(h parse.Time) (int, bool) { return daysBetween(l.Time, h) }

// PastDue reports whether the loop's due date is before the horizon
// date h.
func (l *Loop) PastDue(h parse.Time) bool {
	d, ok := parseDate(l.Due)
	if !ok || h.IsZero() {
		return false
	}
	return dayNum(d) < dayNum(h)
}

func daysBetween(from, to parse.Time) (int, bool) {
	if from.IsZero() || to.IsZero() {
		return 0, false
	}
	return int(dayNum(to) - dayNum(from)), true
}

func dayNum(t parse.Time) int64 { return (t.Minutes() - int64(t.Hour)*60 - int64(t.Minute)) / 1440 }

// ValidDue reports whether s, a blocker's, escalation's or commitment's
// due detail, starts with the YYYY-MM-DD date that PastDue compares;
// any other value is never past due.
func ValidDue(s string) bool {
	_, ok := parseDate(s)
	return ok
}

// parseDate reads the YYYY-MM-DD at the start of s.
func parseDate(s string) (parse.Time, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return parse.Time{}, false
	}
	y, e1 := strconv.Atoi(s[:4])
	m, e2 := strconv.Atoi(s[5:7])
	d, e3 := strconv.Atoi(s[8:10])
	if e1 != nil || e2 != nil || e3 != nil || m < 1 || m > 12 || d < 1 || d > 31 || y < 1 {
		return parse.Time{}, false
	}
	return parse.Time{Year: int16(y), Month: int8(m), Day: int8(d), DateOnly: true}, true
}

// loops tracks the open loops of a replay, oldest first.
type loops struct {
	all   []*Loop         // open loops in order, and closed ones not yet compacted away
	index map[evKey]*Loop // event key → open loop
	shut  map[evKey]bool  // event keys of loops already closed
	n     int
}

func (l *loops) apply(r *replayer) {
	ev := r.ev
	if hasCloses(ev) {
		for _, id := range Closes(ev) {
			l.close(r, id, true)
		}
	}
	if ev.Type == "fix" || ev.Type == "milestone" {
		for _, id := range ev.Refs {
			l.close(r, id, false)
		}
	}
	l.open(r)
}

// close closes the loop id names, if it is open; explicit is true for
// a closes detail, which notes a name that is no open loop (a fix's
// Refs name other events too).
func (l *loops) close(r *replayer, id string, explicit bool) {
	k := keyOf(id)
	if lp := l.index[k]; lp != nil {
		delete(l.index, k)
		lp.pos = -1
		l.shut[k] = true
		if !r.quiet { // see replayer.decision
			r.note("closes loop " + lp.ID)
		}
		// A blocker whose loop is closed is resolved, whatever closed
		// it: Open Loops and Blockers must not disagree about it.
		if lp.Type == "blocker" {
			r.resolve(lp.ID, false)
		}
		return
	}
	switch {
	case !explicit:
	case l.shut[k]:
		r.note("loop " + cleanName(id) + " already closed")
	default:
		r.note("closes " + strconv.Quote(cleanName(id)) + ": not an open loop")
	}
}

// open opens a loop when the event is a blocker, escalation or
// commitment.
func (l *loops) open(r *replayer) {
	ev := r.ev
	if IsLoop(ev.Type) {
		lp := &Loop{
			ID: ev.ID, Type: ev.Type, Summary: ev.Summary, Agent: ev.Agent,
			Owner: r.detail("owner"), Due: r.detail("due"), Time: ev.Time,
			Priority: PriorityOf(ev), Range: diag.Range{File: ev.Range.File, Line: ev.Range.Line, Col: 1, EndLine: ev.Range.Line, Offset: ev.Range.Offset},
			pos: l.n,
		}
		if lp.Owner == "" {
			lp.Owner = cleanName(ev.Agent)
		}
		k := keyOf(ev.ID)
		if old := l.index[k]; old != nil {
			old.pos = -1 // a duplicate ID: the later event is the loop
		}
		delete(l.shut, k)
		l.index[k] = lp
		l.all = append(l.all, lp)
		if ev.Type == "commitment" {
			r.note("commitment: loop open until an event closes it")
		}
	}
	l.n++
	if len(l.all) > 64 && len(l.all) > 2*len(l.index) {
		l.compact()
	}
}

func (l *loops) compact() {
	out := l.all[:0]
	for _, lp := range l.all {
		if lp.pos >= 0 {
			out = append(out, lp)
		}
	}
	clear(l.all[len(out):])
	l.all = out
}

// list returns the open loops, oldest first.
func (l *loops) list() []*Loop {
	l.compact()
	return l.all
}

// Conflict is two live decisions on the same entity and attribute that
// disagree, neither naming the other in its Refs or Supersedes.
type Conflict struct {
	Key     string // "<entity>.<attribute>" as first written
	Earlier DecisionRef
	Later   DecisionRef

	earlierOrder, laterOrder int
}

// DecisionRef is one side of a Conflict.
type DecisionRef struct {
	ID, Value string
	Range     diag.Range // the heading line
}

type decisionHead struct {
	DecisionRef
	canonValue string
	order      int
}

// conflicts tracks, per entity and attribute, the decisions still in
// force: a new decision replaces the ones it Refs or Supersedes, the
// one whose value its `from` names, and the ones that agree with it,
// and stands beside the others.
type conflicts struct {
	heads map[string][]decisionHead
	names map[string]string
	order []string // keys in first-seen order
	n     int
}

func (c *conflicts) decision(r *replayer, key, name, value, from string) {
	ev := r.ev
	h := decisionHead{DecisionRef: DecisionRef{ID: ev.ID, Value: value, Range: diag.Range{File: ev.Range.File, Line: ev.Range.Line, Col: 1, EndLine: ev.Range.Line, Offset: ev.Range.Offset}}, canonValue: Canon(value), order: c.n}
	c.n++
	old, seen := c.heads[key]
	if !seen {
		c.order = append(c.order, key)
		c.names[key] = name
	}
	var kept []decisionHead
	canonFrom := Canon(from)
	for _, o := range old {
		// Replaced knowingly: named in Refs or Supersedes, changed
		// from its value (the seed's `from`), or agreed with.
		if refersTo(ev, o.ID) || o.canonValue == h.canonValue || canonFrom != "" && canonFrom == o.canonValue {
			continue
		}
		kept = append(kept, o)
		if !r.quiet { // see replayer.decision
			r.note("conflicts with " + o.ID + " on " + strconv.Quote(name))
		}
	}
	c.heads[key] = append(kept, h)
}

// Names reports whether ev names the event id in any field replay
// reads as naming an event: its Refs, its Supersedes (supersession)
// or a closes detail (loops), matched by number when both are event
// IDs ("evt-7" and "evt-007"), as replay matches them. memsys log
// --refs-to lists the events it holds for.
// It matches with keyOf, as supersession and loops do, which builds
// no string for an ID: show and log call it on every event.
func Names(ev *parse.Event, id string) bool {
	k := keyOf(id)
	for _, ids := range [2][]string{ev.Refs, ev.Supersedes} {
		for _, r := range ids {
			if keyOf(r) == k {
				return true
			}
		}
	}
	if hasCloses(ev) {
		for _, c := range Closes(ev) {
			if keyOf(c) == k {
				return true
			}
		}
	}
	return false
}

// refersTo reports whether ev's Refs or Supersedes name id: a decision
// that does replaces the one named knowingly (no conflict).
func refersTo(ev *parse.Event, id string) bool {
	k := parse.EventKey(id)
	for _, ref := range ev.Refs {
		if parse.EventKey(ref) == k {
			return true
		}
	}
	for _, s := range ev.Supersedes {
		if parse.EventKey(s) == k {
			return true
		}
	}
	return false
}

// list returns the conflicts: each decision still in force beside a
// later one, paired with the newest, ordered by the later decision,
// then the earlier.
func (c *conflicts) list() []Conflict {
	var out []Conflict
	for _, k := range c.order {
		hs := c.heads[k]
		if len(hs) < 2 {
			continue
		}
		last := hs[len(hs)-1]
		for _, h := range hs[:len(hs)-1] {
			out = append(out, Conflict{Key: c.names[k], Earlier: h.DecisionRef, Later: last.DecisionRef, earlierOrder: h.order, laterOrder: last.order})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].laterOrder != out[j].laterOrder {
			return out[i].laterOrder < out[j].laterOrder
		}
		return out[i].earlierOrder < out[j].earlierOrder
	})
	return out
}
