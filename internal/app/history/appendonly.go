package history

import (
	"fmt"
	"regexp"
	"sort"
	"sync"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/parse"
)

// Rule IDs. They are registered in lint (lint/ms30x.go) so --list-rules,
// the README and SARIF know them; the checks live here.
const (
	Edited     = "MS301" // a committed event's text changed
	Deleted    = "MS302" // a committed event is gone from log and archive
	Reordered  = "MS303" // committed events are in another order
	Inserted   = "MS304" // a new event before the last committed one
	Renumbered = "MS305" // a committed event got another ID, or a new ID does not continue the sequence
)

// Side is one version of the memory's log: the archive (nil if none)
// and CHANGELOG.md (nil if none).
type Side struct {
	Archive, Log *parse.Log
}

// events returns the side's events in history order: archive, then log.
func (s Side) events() []parse.Event {
	var out []parse.Event
	for _, l := range []*parse.Log{s.Archive, s.Log} {
		if l != nil {
			out = append(out, l.Events...)
		}
	}
	return out
}

// Compare reports every way head breaks append-only with respect to
// base. commit names the base in messages (e.g. "main (1a2b3c4)").
// Moving events from the log to the archive unchanged is not a change:
// events are matched by number across both files. Text is compared with
// line endings normalised and without the blank lines or "---" that
// follow an event (parse.Event.Text).
func Compare(base, head Side, commit string) diag.Diagnostics {
	ds := diag.Diagnostics{}
	be, he := base.events(), head.events()
	if len(be) == 0 {
		return ds
	}
	// Index head events by number (first occurrence; duplicates are
	// lint's MS107) and remember their order.
	at := make(map[int]int, len(he))
	for i, e := range he {
		if _, dup := at[e.Num]; !dup {
			at[e.Num] = i
		}
	}
	baseNums := make(map[int]bool, len(be))
	maxBase := 0
	for _, e := range be {
		baseNums[e.Num] = true
		maxBase = max(maxBase, e.Num)
	}
	// where names the head position of a base event that is gone: the
	// next base event still present, else the end of the head log.
	// Computed in one backward pass, so a log cut in half costs O(n).
	fallback := diag.Range{File: "CHANGELOG.md"}
	switch {
	case len(he) > 0:
		fallback = he[len(he)-1].Range
	case head.Log != nil:
		fallback = diag.Range{File: head.Log.File, Line: 1, Col: 1}
	}
	nextPresent := make([]diag.Range, len(be))
	for k, r := len(be)-1, fallback; k >= 0; k-- {
		nextPresent[k] = r
		if i, ok := at[be[k].Num]; ok {
			r = he[i].Range
		}
	}
	where := func(k int) diag.Range { return nextPresent[k] }
	// Head events with a number the base never had, by their text
	// without the ID: a base event that vanished but whose text is here
	// was renumbered. Built once, so lookups cost O(1), not O(head).
	var newByText map[string]int
	renumberedTo := map[int]bool{}
	renumbered := func(b parse.Event) int {
		if newByText == nil {
			newByText = map[string]int{}
			for j, h := range he {
				if !baseNums[h.Num] {
					if _, dup := newByText[stripID(h.Text)]; !dup {
						newByText[stripID(h.Text)] = j
					}
				}
			}
		}
		if j, ok := newByText[stripID(b.Text)]; ok {
			return j
		}
		return -1
	}
	// kept pairs each base event still present (by ID) with its head
	// index; lastPos is the head index of the last of them.
	type keptEvent struct{ k, i int }
	var kept []keptEvent
	lastPos := -1
	for k, b := range be {
		i, ok := at[b.Num]
		if !ok {
			if j := renumbered(b); j >= 0 {
				renumberedTo[j] = true
				ds = append(ds, diag.Diagnostic{Rule: Renumbered, Severity: diag.Error, Range: he[j].Range, Event: he[j].ID,
					Message: fmt.Sprintf("%s was %s at %s: committed events keep their ID; restore %s", he[j].ID, b.ID, commit, b.ID),
					Detail:  udiff.Unified(b.ID+" at "+commit, he[j].ID+" now", []byte(b.Text), []byte(he[j].Text))})
				continue
			}
			ds = append(ds, diag.Diagnostic{Rule: Deleted, Severity: diag.Error, Range: where(k), Event: b.ID,
				Message: fmt.Sprintf("%s, committed at %s, is gone from the log and the archive: restore it (git show %s)", b.ID, commit, shortRev(commit)),
				Detail:  udiff.Unified(b.ID+" at "+commit, b.ID+" now", []byte(b.Text), nil)})
			continue
		}
		h := he[i]
		if h.Text != b.Text {
			ds = append(ds, diag.Diagnostic{Rule: Edited, Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("%s was changed after it was committed at %s: events are immutable; restore it and record the correction as a new event", h.ID, commit),
				Detail:  udiff.Unified(b.ID+" at "+commit, h.ID+" now", []byte(b.Text), []byte(h.Text))})
		}
		kept = append(kept, keptEvent{k, i})
		lastPos = max(lastPos, i)
	}
	// The events that stayed in order are the longest run whose head
	// positions increase; only the others moved. One event moved to the
	// end is one finding, not one for every event it jumped over.
	pos := make([]int, len(kept))
	for n, e := range kept {
		pos[n] = e.i
	}
	inOrder := longestIncreasing(pos)
	for n, e := range kept {
		if inOrder[n] {
			continue
		}
		h := he[e.i]
		after := "came first"
		if n > 0 {
			after = "followed " + be[kept[n-1].k].ID
		}
		ds = append(ds, diag.Diagnostic{Rule: Reordered, Severity: diag.Error, Range: h.Range, Event: h.ID,
			Message: fmt.Sprintf("%s has moved: at %s it %s; committed events keep their order", h.ID, commit, after)})
	}
	// New events: after the last committed one, continuing its numbers.
	next := maxBase + 1
	for i, h := range he {
		if baseNums[h.Num] || renumberedTo[i] {
			continue
		}
		switch {
		case i < lastPos:
			ds = append(ds, diag.Diagnostic{Rule: Inserted, Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("new event %s is inserted before %s, committed at %s: append new events at the end of the log", h.ID, he[lastPos].ID, commit)})
		case h.Num != next:
			ds = append(ds, diag.Diagnostic{Rule: Renumbered, Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("new event %s does not continue the sequence of %s (the next ID is %s): renumber it", h.ID, commit, parse.FormatID(next, 3))})
			next = max(next, h.Num+1)
		default:
			next++
		}
	}
	ds.Sort()
	return ds
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
