package memory

import (
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// LoopView is one open loop as `memsys loops` and `memsys report`
// print it: ages and due dates are measured at the horizon event.
type LoopView struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Summary  string `json:"summary"`
	Owner    string `json:"owner"`
	Due      string `json:"due"`
	PastDue  bool   `json:"past_due"`
	AgeDays  *int   `json:"age_days"` // null when a date is missing
	Priority string `json:"priority"`
	File     string `json:"file"`
	Line     int    `json:"line"`
}

// String is the one-line text form:
// "evt-007 | commitment | 5 days | owner bob | due 2026-03-09 (past due) | summary"
// ("1 day" for one).
func (l LoopView) String() string {
	parts := []string{l.ID, l.Type}
	if l.AgeDays != nil {
		parts = append(parts, words.Plural(*l.AgeDays, "day"))
	}
	if l.Owner != "" {
		parts = append(parts, "owner "+l.Owner)
	}
	if l.Due != "" {
		due := "due " + l.Due
		if l.PastDue {
			due += " (past due)"
		}
		parts = append(parts, due)
	}
	parts = append(parts, l.Priority, l.Summary)
	return strings.Join(parts, " | ")
}

// LoopsResult is what `memsys loops` reports.
type LoopsResult struct {
	Horizon string     `json:"horizon"`
	At      string     `json:"at"` // the horizon event's time, which ages count to
	Loops   []LoopView `json:"loops"`
}

// Loops replays root's history and returns the loops still open at its
// end, oldest first. No configuration changes which loops are open, so
// none is read: loops works beside a broken .memsys.json.
func Loops(root string) (LoopsResult, error) {
	_, x, err := Replay(root, materialize.DefaultOptions(), "")
	if err != nil {
		return LoopsResult{}, err
	}
	g := x.Graph()
	return LoopsResult{Horizon: g.Horizon, At: g.Updated, Loops: loopViews(g)}, nil
}

func loopViews(g *materialize.Graph) []LoopView {
	out := []LoopView{}
	h := g.HorizonTime()
	for _, l := range g.OpenLoops() {
		v := LoopView{ID: l.ID, Type: l.Type, Summary: l.Summary, Owner: l.Owner, Due: l.Due, PastDue: l.PastDue(h),
			Priority: l.Priority.String(), File: l.Range.File, Line: l.Range.Line}
		if d, ok := l.AgeDays(h); ok {
			v.AgeDays = &d
		}
		out = append(out, v)
	}
	return out
}

// Snapshot returns the snapshot of entity after the whole history, or
// after the event atID ("" for all of it). It streams the history
// through a materialize.SnapshotBuilder rather than loading it: the
// events are not kept and the parser reuses their memory, which at 1k
// events is most of what the command costs (issue 15). Like
// LoadHistory it refuses a history cut short by an over-long line.
func Snapshot(root, entity, atID string) (*materialize.Snapshot, error) {
	if err := materialize.CheckEntityName(entity); err != nil {
		return nil, err
	}
	atID, err := ResolveAt(root, atID)
	if err != nil {
		return nil, err
	}
	at, atOK := -1, true
	if atID != "" {
		at, atOK = parse.ArgNum(atID) // as regen, show, log and graph read --at
	}
	// Which events later ones supersede is predicted from the bytes
	// (Memory.Supersessions); if the events disagree, or --at cuts the
	// history before an event that changed the replay, it streams
	// again expecting the Supersedes fields it saw.
	var expect []parse.Supersession
	predicted := true
	for {
		var b *materialize.SnapshotBuilder
		var took doneCount
		done, last := !atOK, ""
		var places atPlaces
		mem, err := workspace.StreamWith(root, func(m *workspace.Memory) {
			if predicted {
				expect = m.Supersessions()
			}
			b = materialize.NewSnapshotBuilder(entity, expect)
		}, func(e *parse.Event) {
			took.n++
			if at >= 0 && e.Num == at {
				places.see(e.Range)
			}
			if done {
				return
			}
			b.Add(e)
			last = e.ID
			if done = at >= 0 && e.Num == at; done {
				b.Cut()
			}
		}, parse.Reuse(&took))
		if err != nil {
			return nil, err
		}
		if err := readWhole(mem); err != nil {
			return nil, err
		}
		if !atOK {
			return nil, ErrNotEventID(inAt.Name(), atID)
		}
		if at >= 0 && !done {
			return nil, ErrNoSuchEvent(inAt.Name(), atID)
		}
		if err := places.twice(atID); err != nil {
			return nil, err
		}
		if !b.Exact() && predicted {
			expect, predicted = b.Seen(), false
			continue
		}
		s, ok := b.Snapshot()
		if !ok {
			cut := ""
			if atID != "" {
				cut = last
			}
			return nil, materialize.UnknownEntity(b.Graph(), entity, cut)
		}
		return s, nil
	}
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// SnapshotMarkdown renders a snapshot as a short markdown page; a
// section with nothing in it reads "- (none)".
func SnapshotMarkdown(s *materialize.Snapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", s.Name)
	fmt.Fprintf(&b, "- **Type**: %s\n- **Status**: %s\n- **Created**: %s\n- **Last event**: %s\n- **Event horizon**: %s\n", s.Type, s.Status, s.Created, s.LastEvent, s.Horizon)
	// An empty section says "- (none)", as History does, rather than a
	// table header with no rows, which reads as a rendering fault.
	b.WriteString("\n## Attributes\n\n")
	if len(s.Attrs) == 0 {
		b.WriteString("- (none)\n")
	} else {
		b.WriteString("| Key | Value | Set by |\n|-----|-------|--------|\n")
	}
	for _, a := range s.Attrs {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(a.Key), cell(a.Value), a.Event)
	}
	b.WriteString("\n## Edges\n\n")
	if len(s.Edges) == 0 {
		b.WriteString("- (none)\n")
	} else {
		b.WriteString("| From | To | Relation | Created | Attributes |\n|------|----|----------|---------|------------|\n")
	}
	for _, e := range s.Edges {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", cell(e.From), cell(e.To), e.Relation, e.Created, cell(e.AttrText()))
	}
	b.WriteString("\n## History\n\n")
	if len(s.History) == 0 {
		b.WriteString("- (none)\n")
	}
	for _, h := range s.History {
		fmt.Fprintf(&b, "- %s | %s | %s | %s | %s\n", h.ID, h.Time, h.Agent, h.Type, oneLine(h.Summary))
	}
	return b.String()
}

// cell makes text safe inside a markdown table cell.
func cell(s string) string { return cellEscaper.Replace(s) }

// oneLine puts s on one line.
func oneLine(s string) string { return lineJoiner.Replace(s) }

// The replacers are built once, on their first use, not per string:
// building one allocates its lookup tables.
var (
	cellEscaper = strings.NewReplacer("|", "&#124;", "\n", " ", "\r", " ")
	lineJoiner  = strings.NewReplacer("\n", " ", "\r", " ")
)
