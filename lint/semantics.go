package lint

import (
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// supEdge is one event's Supersedes field as the Session saw it.
type supEdge struct {
	sp  parse.Supersession
	pos int        // the event's position in the history
	at  diag.Range // the Supersedes field's line
}

// superseded returns, by event number, the ID of the event that
// supersedes it, by the rule replay follows (materialize.Live): an
// event is superseded when a live later event names it.
func (sh *shared) superseded() map[int]string {
	if sh.supersededBy != nil {
		return sh.supersededBy
	}
	sh.supersededBy = map[int]string{}
	edges := make([]parse.Supersession, len(sh.sups))
	for i, e := range sh.sups {
		edges[i] = e.sp
	}
	live := materialize.Live(edges)
	for i := len(sh.sups) - 1; i >= 0; i-- {
		if !live[i] {
			continue
		}
		for _, t := range sh.sups[i].sp.Targets {
			n := evtNum(t)
			if f, ok := sh.first.get(n); ok && n != evtNum(sh.sups[i].sp.ID) && int(f.pos) < sh.sups[i].pos {
				if _, done := sh.supersededBy[n]; !done {
					sh.supersededBy[n] = sh.sups[i].sp.ID
				}
			}
		}
	}
	return sh.supersededBy
}

// noteSuperseded turns the findings of content rules on superseded
// events into notes: the superseding event is the correction.
func (s *Session) noteSuperseded() {
	if len(s.sh.sups) == 0 {
		return
	}
	NoteSuperseded(s.ds, s.sh.superseded())
}

// NoteSuperseded turns the findings in ds of the rules marked content
// on the events by names (by event number: the ID of the event that
// supersedes each) into notes, as lint does: the superseding event is
// the correction, and the log is never edited. It is the one place
// that decides it, so regen's warnings about the history's parse
// problems leave out what lint calls a note.
func NoteSuperseded(ds diag.Diagnostics, by map[int]string) {
	for i := range ds {
		d := &ds[i]
		r := registry[d.Rule]
		if r == nil || !r.Content || d.Event == "" {
			continue
		}
		if sup, ok := by[evtNum(d.Event)]; ok {
			d.Severity = diag.Note
			d.Message += " (" + d.Event + " is superseded by " + sup + ": nothing to fix)"
		}
	}
}

// targetKind classifies one event ID an event names in a field.
type targetKind int

const (
	targetOK      targetKind = iota
	targetNotID              // not evt-NNN
	targetSelf               // the naming event itself
	targetLater              // an event later in the history
	targetMissing            // no such event
)

// visitTargets calls report for every ID that ids(e) returns which is
// not an earlier event, once its kind is known: a later or missing
// event only at the end of the history.
func visitTargets(p *Pass, ids func(*parse.Event) []string, at func(*parse.Event) diag.Range, report func(at diag.Range, event, id string, k targetKind)) Visitor {
	type pending struct {
		at    diag.Range
		event string
		id    string
		n     int
	}
	var st struct{ later []pending }
	return Visitor{
		State: &st,
		Event: func(e *parse.Event) {
			for _, id := range ids(e) {
				n := evtNum(id)
				switch f, seen := p.shared.first.get(n); {
				case n == 0:
					report(at(e), e.ID, id, targetNotID)
				case n == e.Num:
					report(at(e), e.ID, id, targetSelf)
				case seen && int(f.pos) < p.shared.pos:
				default:
					st.later = append(st.later, pending{at(e), e.ID, id, n})
				}
			}
		},
		End: func() {
			for _, r := range st.later {
				if _, exists := p.shared.first.get(r.n); exists {
					report(r.at, r.event, r.id, targetLater)
				} else {
					report(r.at, r.event, r.id, targetMissing)
				}
			}
		},
	}
}

func supersedes(e *parse.Event) []string { return e.Supersedes }

func supersedesAt(e *parse.Event) diag.Range { return fieldRange(e, "supersedes") }

// detailRange is the line of e's first detail named key, or the
// heading.
func detailRange(e *parse.Event, key string) diag.Range {
	for _, d := range e.Details {
		if d.Norm() == key && d.Line > 0 {
			return lineRange(e.Range.File, d.Line)
		}
	}
	return headerRange(e)
}

func closesAt(e *parse.Event) diag.Range { return detailRange(e, "closes") }

// list joins IDs for a message.
func list(ids []string) string { return strings.Join(ids, " → ") }

// quoteValue quotes a decision's value for a message; "(none)" when
// empty.
func quoteValue(v string) string {
	if v == "" {
		return "(none)"
	}
	return strconv.Quote(v)
}

// evtNum is the number of an event ID, 0 when id is not one.
func evtNum(id string) int {
	if n, ok := parse.EventNum(strings.TrimSpace(id)); ok {
		return n
	}
	return 0
}
