package lint

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/parse"
)

// side is one version of the memory's log: the archive (nil if none)
// and CHANGELOG.md (nil if none).
type side struct {
	Archive, Log *parse.Log
	// all is events(), joined once by readSide: the comparison asks for
	// it several times, and at 100k events each join copied 35 MB of
	// events (a third of lint --base's time).
	all []parse.Event
}

// events returns the side's events in history order: archive, then log.
// The result is shared: callers must not modify it.
func (s side) events() []parse.Event {
	switch {
	case s.all != nil:
		return s.all
	case s.Archive == nil && s.Log == nil:
		return nil
	case s.Archive == nil:
		return slices.Clip(s.Log.Events)
	case s.Log == nil:
		return slices.Clip(s.Archive.Events)
	}
	return slices.Concat(s.Archive.Events, s.Log.Events)
}

// compare reports every way head breaks append-only with respect to
// base. commit names the base in messages (e.g. "main (1a2b3c4)").
// Moving events from the log to the archive unchanged is not a change:
// events are matched by number across both files. Text is compared with
// line endings normalised and without the blank lines or "---" that
// follow an event (parse.Event.Text).
func compare(base, head side, commit string) diag.Diagnostics {
	return compareEvents(base, head, commit, false)
}

// compareCommitted is compare without the numbering of the events base
// does not hold (an ID that does not continue the sequence, MS305):
// that is lint's concern on the working tree, not a change to history
// (Revisions.OnlyCommitted, the audit). A committed event given a new
// ID is still reported.
func compareCommitted(base, head side, commit string) diag.Diagnostics {
	return compareEvents(base, head, commit, true)
}

func compareEvents(base, head side, commit string, onlyCommitted bool) diag.Diagnostics {
	c := newComparison(base, head, commit)
	c.onlyCommitted = onlyCommitted
	if len(c.be) == 0 {
		return diag.Diagnostics{}
	}
	c.committed()
	c.order()
	c.appended()
	c.ds.Sort()
	return c.ds
}

// comparison is one run of compare: the events of both sides and what
// the passes over them found.
type comparison struct {
	be, he []parse.Event
	commit string
	// match[k] is the head index of base event k, -1 if it is gone:
	// the n-th base event with a number pairs with the n-th head event
	// with that number, so a hand-kept log's duplicate IDs (MS107)
	// compare copy with copy instead of every copy with the first.
	match    []int
	baseNums map[int]bool // numbers the base has
	maxBase  int
	// nextPresent[k] is where base event k is reported if it is gone:
	// the next base event still present, else the end of the head log.
	nextPresent []diag.Range
	// newByText finds head events with a number the base never had by
	// their text without the ID (built on first use).
	newByText    map[string]int
	renumberedTo map[int]bool // head indexes that are renumbered base events
	kept         []keptEvent  // base events still present, in base order
	lastPos      int          // head index of the last kept event
	ds           diag.Diagnostics
	// onlyCommitted leaves out the numbering of new events (compareCommitted).
	onlyCommitted bool
}

// keptEvent pairs a base event still present (by ID) with its head index.
type keptEvent struct{ k, i int }

func newComparison(base, head side, commit string) *comparison {
	c := &comparison{be: base.events(), he: head.events(), commit: commit, renumberedTo: map[int]bool{}, lastPos: -1, ds: diag.Diagnostics{}}
	if len(c.be) == 0 {
		return c
	}
	c.baseNums = make(map[int]bool, len(c.be))
	baseDup := false
	for _, e := range c.be {
		baseDup = baseDup || c.baseNums[e.Num]
		c.baseNums[e.Num] = true
		c.maxBase = max(c.maxBase, e.Num)
	}
	c.match = matchByNumber(c.be, c.he, baseDup)
	// Computed in one backward pass, so a log cut in half costs O(n).
	fallback := diag.Range{File: parse.LogFile}
	switch {
	case len(c.he) > 0:
		fallback = c.he[len(c.he)-1].Range
	case head.Log != nil:
		fallback = diag.Range{File: head.Log.File, Line: 1, Col: 1}
	}
	c.nextPresent = make([]diag.Range, len(c.be))
	for k, r := len(c.be)-1, fallback; k >= 0; k-- {
		c.nextPresent[k] = r
		if i := c.match[k]; i >= 0 {
			r = c.he[i].Range
		}
	}
	return c
}

// matchByNumber pairs each base event with the head event of the same
// number and the same occurrence of that number (duplicates are lint's
// MS107): the n-th base evt-002 with the n-th head evt-002. It returns
// the head index for each base event, -1 where head has no such copy.
// baseDup says base has a duplicate number; without one (every log
// memsys wrote) no occurrence is counted.
func matchByNumber(be, he []parse.Event, baseDup bool) []int {
	first := make(map[int]int, len(he)) // head index of the first event with a number
	var more map[int][]int              // head indexes of the later copies
	for i, e := range he {
		if _, dup := first[e.Num]; !dup {
			first[e.Num] = i
		} else if baseDup {
			if more == nil {
				more = map[int][]int{}
			}
			more[e.Num] = append(more[e.Num], i)
		}
	}
	match := make([]int, len(be))
	var seen map[int]int // copies of a number met so far in base
	if baseDup {
		seen = map[int]int{}
	}
	for k, b := range be {
		i, ok := first[b.Num]
		n := 0
		if baseDup {
			n = seen[b.Num]
			seen[b.Num] = n + 1
		}
		switch {
		case !ok:
			match[k] = -1
		case n == 0:
			match[k] = i
		case n-1 < len(more[b.Num]):
			match[k] = more[b.Num][n-1]
		default:
			match[k] = -1
		}
	}
	return match
}

// renumbered returns the head index of a new-numbered event with b's
// text, or -1: a base event that vanished but whose text is here was
// renumbered. The index is built once, so lookups cost O(1), not O(head).
func (c *comparison) renumbered(b parse.Event) int {
	if c.newByText == nil {
		c.newByText = map[string]int{}
		for j, h := range c.he {
			if !c.baseNums[h.Num] {
				if _, dup := c.newByText[stripID(parse.EndedText(h.Text))]; !dup {
					c.newByText[stripID(parse.EndedText(h.Text))] = j
				}
			}
		}
	}
	if j, ok := c.newByText[stripID(parse.EndedText(b.Text))]; ok {
		return j
	}
	return -1
}

// committed checks each base event: still there unchanged (MS301), not
// gone (MS302), not given another number (MS305).
func (c *comparison) committed() {
	for k, b := range c.be {
		i := c.match[k]
		if i < 0 {
			if j := c.renumbered(b); j >= 0 {
				c.renumberedTo[j] = true
				c.ds = append(c.ds, diag.Diagnostic{Rule: "MS305", Severity: diag.Error, Range: c.he[j].Range, Event: c.he[j].ID,
					Message: fmt.Sprintf("%s was %s at %s: committed events keep their ID; restore %s", c.he[j].ID, b.ID, c.commit, b.ID),
					Detail:  udiff.Unified(b.ID+" at "+c.commit, c.he[j].ID+" now", []byte(b.Text), []byte(c.he[j].Text))})
				continue
			}
			c.ds = append(c.ds, diag.Diagnostic{Rule: "MS302", Severity: diag.Error, Range: c.nextPresent[k], Event: b.ID,
				// The base's file, not the commit: git show SHA alone prints
				// that commit's diff, which need not hold the event. "./"
				// reads the path from where git runs, as lint shows it.
				Message: fmt.Sprintf("%s, committed at %s, is gone from the log and the archive: restore it (git show %s:./%s)", b.ID, c.commit, shortRev(c.commit), b.Range.File),
				Detail:  udiff.Unified(b.ID+" at "+c.commit, b.ID+" now", []byte(b.Text), nil)})
			continue
		}
		h := c.he[i]
		if parse.EndedText(h.Text) != parse.EndedText(b.Text) {
			c.ds = append(c.ds, diag.Diagnostic{Rule: "MS301", Severity: diag.Error, Range: editedLines(h, b.Text), Event: h.ID,
				Message: fmt.Sprintf("%s was changed after it was committed at %s: events are immutable; restore it and record the correction as a new event", h.ID, c.commit),
				Detail:  udiff.Unified(b.ID+" at "+c.commit, h.ID+" now", []byte(b.Text), []byte(h.Text))})
		}
		c.kept = append(c.kept, keptEvent{k, i})
		c.lastPos = max(c.lastPos, i)
	}
}

// editedLines is the part of h's range that differs from was, its text
// when committed: from the first line that differs to the last. A pull
// request shows an annotation inline only on a line its diff holds, and
// the whole event's range put MS301 on the event's last line, which an
// edit higher up leaves outside the diff. A deletion is the line after
// it (the event's last line when it removed the end). Where the event
// mixes CRLF and LF endings, the file offsets of its lines cannot be
// told from the normalised text, and the whole range is kept.
func editedLines(h parse.Event, was string) diag.Range {
	now := strings.SplitAfter(h.Text, "\n")
	old := strings.SplitAfter(was, "\n")
	if now[len(now)-1] == "" {
		now = now[:len(now)-1]
	}
	if old[len(old)-1] == "" {
		old = old[:len(old)-1]
	}
	first := 0
	for first < len(now) && first < len(old) && now[first] == old[first] {
		first++
	}
	same := 0
	for same < len(now)-first && same < len(old)-first && now[len(now)-1-same] == old[len(old)-1-same] {
		same++
	}
	last := max(len(now)-1-same, first)
	first = min(first, len(now)-1)
	last = min(last, len(now)-1)
	r := h.Range
	crs := r.EndOffset - r.Offset - len(h.Text)
	perLine := 0
	switch {
	case first < 0:
		return r
	case crs == strings.Count(h.Text, "\n") && crs > 0:
		perLine = 1 // every line ends in CRLF
	case crs != 0:
		return r
	}
	before := 0
	for _, l := range now[:first] {
		before += len(l)
	}
	span := 0
	for _, l := range now[first : last+1] {
		span += len(l)
	}
	r.Offset += before + first*perLine
	r.Line, r.Col = h.Range.Line+first, 1
	r.EndLine = h.Range.Line + last
	if last < len(now)-1 { // else the event's own end, as parsed
		r.EndOffset = r.Offset + span + (last-first+1)*perLine
		r.EndCol = len(now[last]) // past the line's last byte, as an event's range ends
	}
	return r
}

// order reports the kept events that moved (MS303). The events that
// stayed in order are the longest run whose head positions increase;
// only the others moved. One event moved to the end is one finding, not
// one for every event it jumped over.
func (c *comparison) order() {
	pos := make([]int, len(c.kept))
	for n, e := range c.kept {
		pos[n] = e.i
	}
	inOrder := longestIncreasing(pos)
	for n, e := range c.kept {
		if inOrder[n] {
			continue
		}
		h := c.he[e.i]
		after := "came first"
		if n > 0 {
			after = "followed " + c.be[c.kept[n-1].k].ID
		}
		c.ds = append(c.ds, diag.Diagnostic{Rule: "MS303", Severity: diag.Error, Range: h.Range, Event: h.ID,
			Message: fmt.Sprintf("%s has moved: at %s it %s; committed events keep their order", h.ID, c.commit, after)})
	}
}

// appended checks the new events: after the last committed one (MS304),
// continuing its numbers (MS305).
func (c *comparison) appended() {
	next := c.maxBase + 1
	for i, h := range c.he {
		if c.baseNums[h.Num] || c.renumberedTo[i] {
			continue
		}
		switch {
		case i < c.lastPos:
			c.ds = append(c.ds, diag.Diagnostic{Rule: "MS304", Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("new event %s is inserted before %s, committed at %s: append new events at the end of the log", h.ID, c.he[c.lastPos].ID, c.commit)})
		case h.Num != next && c.onlyCommitted:
			next = max(next, h.Num+1)
		case h.Num != next:
			c.ds = append(c.ds, diag.Diagnostic{Rule: "MS305", Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("new event %s does not continue the sequence of %s (the next ID is %s): renumber it", h.ID, c.commit, parse.FormatID(next, 3))})
			next = max(next, h.Num+1)
		default:
			next++
		}
	}
}

// longestIncreasing marks one longest strictly increasing subsequence
// of a (patience sorting, O(n log n)); ties go to the earliest
// elements, so the result is deterministic.
func longestIncreasing(a []int) []bool {
	tails := []int{} // tails[l]: index in a of the smallest tail of a run of length l+1
	prev := make([]int, len(a))
	for n, v := range a {
		l := sort.Search(len(tails), func(j int) bool { return a[tails[j]] >= v })
		if l > 0 {
			prev[n] = tails[l-1]
		} else {
			prev[n] = -1
		}
		if l == len(tails) {
			tails = append(tails, n)
		} else {
			tails[l] = n
		}
	}
	in := make([]bool, len(a))
	if len(tails) > 0 {
		for n := tails[len(tails)-1]; n >= 0; n = prev[n] {
			in[n] = true
		}
	}
	return in
}

var idInHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^(#+\s*)evt-\d+`) })

// stripID removes the ID from an event's first line, so a renumbered
// event compares equal to its original.
func stripID(text string) string { return idInHeading().ReplaceAllString(text, "$1") }

// blankIDs replaces every event ID token of text with "evt-#".
func blankIDs(text string) string {
	return string(parse.ReplaceIDs([]byte(text), func(int, int) (string, bool) { return "evt-#", true }))
}

func shortRev(commit string) string {
	// commit reads "REV (sha)"; git show wants the sha.
	if i, j := indexByte(commit, '('), indexByte(commit, ')'); i >= 0 && j > i {
		return commit[i+1 : j]
	}
	return commit
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}

// compareMerge checks a merge commit against one of its parents. Two
// branches that each appended events must renumber one side's events
// and interleave them when they merge, so order and IDs are free here;
// what must hold is that no event of the parent lost or changed a byte:
// each one's text, apart from its ID, is somewhere in the merge
// (texts.kept). isMerge is false when merge is not the merge commit
// itself but a later head with merges since parent (lint --base across
// a merge, Merges): the messages then say so. skip, when not nil, leaves
// out the parent's events another comparison judges.
func compareMerge(parent, merge side, commit string, isMerge bool, skip func(parse.Event) bool) diag.Diagnostics {
	ds := diag.Diagnostics{}
	he := merge.events()
	t := newTexts(he)
	byNum := make(map[int]int, len(he))
	for i, e := range he {
		if _, dup := byNum[e.Num]; !dup {
			byNum[e.Num] = i
		}
	}
	for _, b := range parent.events() {
		if t.kept(b) || (skip != nil && skip(b)) {
			continue
		}
		if i, ok := byNum[b.Num]; ok {
			h := he[i]
			msg := fmt.Sprintf("%s as committed at %s is not in this merge, whose %s reads otherwise: keep every committed event's text, renumbering only new ones", b.ID, commit, h.ID)
			if !isMerge {
				msg = fmt.Sprintf("%s as committed at %s is not in the log, whose %s reads otherwise (a merge since then may renumber events, but keeps every committed text): restore it and record the correction as a new event", b.ID, commit, h.ID)
			}
			ds = append(ds, diag.Diagnostic{Rule: "MS301", Severity: diag.Error, Range: editedLines(h, b.Text), Event: h.ID,
				Message: msg,
				Detail:  udiff.Unified(b.ID+" at "+commit, h.ID+" now", []byte(b.Text), []byte(h.Text))})
			continue
		}
		r := diag.Range{File: parse.LogFile}
		if merge.Log != nil {
			r = diag.Range{File: merge.Log.File, Line: 1, Col: 1}
		}
		msg := fmt.Sprintf("%s, committed at %s, was dropped by a merge", b.ID, commit)
		if !isMerge {
			msg = fmt.Sprintf("%s, committed at %s, is gone from the log and the archive: restore it (git show %s:./%s)", b.ID, commit, shortRev(commit), b.Range.File)
		}
		ds = append(ds, diag.Diagnostic{Rule: "MS302", Severity: diag.Error, Range: r, Event: b.ID,
			Message: msg,
			Detail:  udiff.Unified(b.ID+" at "+commit, b.ID+" now", []byte(b.Text), nil)})
	}
	ds.Sort()
	return ds
}

// texts finds, for an event of one version of the log, whether another
// version keeps its text under any number: byte for byte apart from the
// heading's ID, or, for an event a merge renumbered, with every ID in it
// blanked (the merge driver renumbers refs and ID mentions with the
// event, docs/convergence.md) under a number other than its own.
type texts struct {
	events  []parse.Event
	have    map[string]bool
	blanked map[string][]int // built on the first miss
}

func newTexts(events []parse.Event) *texts {
	t := &texts{events: events, have: make(map[string]bool, len(events))}
	for _, e := range events {
		t.have[stripID(parse.EndedText(e.Text))] = true
	}
	return t
}

// kept reports whether b's text is among t's events.
func (t *texts) kept(b parse.Event) bool {
	if t.have[stripID(parse.EndedText(b.Text))] {
		return true
	}
	if t.blanked == nil {
		t.blanked = make(map[string][]int, len(t.events))
		for _, e := range t.events {
			k := blankIDs(parse.EndedText(e.Text))
			t.blanked[k] = append(t.blanked[k], e.Num)
		}
	}
	for _, n := range t.blanked[blankIDs(parse.EndedText(b.Text))] {
		if n != b.Num {
			return true
		}
	}
	return false
}

// PureAppend reports whether next is old with bytes added at the end,
// starting at a heading that ends the last event (after optional blank
// lines and "---"; "#tag" and "#### Notes" would extend it), so no
// committed byte changed and no committed event grew: a walk over
// thousands of commits can then skip parsing either version. A false
// result only means "compare properly".
func PureAppend(old, next []byte) bool {
	if len(old) == 0 || !bytes.HasPrefix(next, old) || old[len(old)-1] != '\n' {
		return len(old) == len(next) && bytes.Equal(old, next)
	}
	rest := next[len(old):]
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i]
			rest = rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0, bytes.Equal(t, []byte("---")):
			continue
		case parse.ClosesEvent(bytes.TrimSuffix(line, []byte{'\r'})):
			return true
		}
		return false
	}
	return true
}

// ClosedEnd reports whether text appended after data, the bytes log
// was parsed from (the log or an archive), starting with a heading,
// leaves its events as they are: no block is left open (a fence or an
// HTML comment would take the appended lines in), no line is too long
// to read on, and the last event ends its line, holds no block that
// could stay open (parse.CutsAt, as the replay cache checks) and is
// followed by nothing but blank lines and separators.
func ClosedEnd(log *parse.Log, data []byte) bool {
	for _, p := range log.Problems {
		if p.Kind == parse.KindUnclosed || p.Kind == parse.KindLineLength {
			return false
		}
	}
	if len(log.Events) == 0 {
		return false
	}
	last := log.Events[len(log.Events)-1]
	if !strings.HasSuffix(last.Text, "\n") || !parse.CutsAt([]byte(last.Text)) || last.Range.EndOffset > len(data) {
		return false
	}
	return onlySeparators(data[last.Range.EndOffset:])
}

// onlySeparators reports whether b holds nothing but blank lines and
// "---" separators.
func onlySeparators(b []byte) bool {
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if t := bytes.TrimSpace(line); len(t) != 0 && !bytes.Equal(t, []byte("---")) {
			return false
		}
	}
	return true
}
