package ledger

import (
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// check is export's check of one event e, which it writes as a line:
// the outcome of plan(lineOf(e), e) (or, when fromLog is false, of
// plan(lineOf(e), nil), which parses the text again), and whether e was
// checked against the log's parse of it (exportLines keeps its lines for
// problemInside). An event planFast settles costs none of lineOf's
// copies or planLine's rewriting; any other goes through plan.
func (p *planner) check(e *parse.Event, fromLog bool) (checked bool, err error) {
	if fromLog && p.planFast(e) {
		return true, nil
	}
	var from *parse.Event
	if fromLog {
		from = e
	}
	l, err := p.plan(lineOf(e), from)
	if err != nil {
		return false, err
	}
	return fromLog && l.NewID == e.ID && sameText(l.Text, e.Text), nil
}

// planFast is plan(lineOf(e), e) for the event most of a history is: one
// whose line planLine takes as it is (its ID is the next one, so no
// ledger_id detail; its type is memsys's own; its time a minute; no
// field but the five a Record carries; no ID renamed; no reference to
// itself), whose draft Normalize accepts and leaves as it is
// (memory.Settled), and whose text is what Render writes for it. For
// such an event plan's draft, before and after Normalize, is the one
// planFast builds, ReadsBackAs runs on it as in plan, and plan's
// outcome is acceptance with the bookkeeping done here. planFast reports false, having changed nothing, for any
// other event: plan then decides, and words every refusal.
// TestExportFastSame and FuzzExportFast hold the two to the same
// verdict and the same planner state after every event.
func (p *planner) planFast(e *parse.Event) bool {
	if p.imported != nil || e.ID != p.next {
		return false
	}
	if _, dup := p.newOf.byText[e.ID]; dup {
		return false
	}
	// lineOf copies each string through asJSON, which changes only
	// invalid UTF-8; planLine lower-cases and trims the type and maps a
	// seed type to memsys's, replaces a blank agent, and keeps a time
	// finer or coarser than a minute in a detail.
	if e.Type != strings.ToLower(strings.TrimSpace(e.Type)) || mapType(e.Type, nil) != e.Type {
		return false
	}
	// asJSON's rewriting of invalid UTF-8, planLine's refusals of a
	// blank summary or one of several lines, and its replacing of a
	// blank agent are left to Normalize (Settled below), which refuses
	// all of them in the agent, scope, summary, tags and details; a ref
	// must be a known ID.
	// minute(e.Time.ISO()), the line's exact minute, is e.Time.String()
	// when that is "YYYY-MM-DD HH:MM" (ISO writes it with a 'T'); that
	// it is a valid time is left to Settled, which parses it as
	// Normalize does.
	if e.Time.IsZero() || e.Time.DateOnly {
		return false
	}
	t := e.Time.String()
	if len(t) != len("2006-01-02 15:04") || t[10] != ' ' {
		return false
	}
	// Any field but the carried five is a detail or a Supersedes field
	// of the line (lineOf's extra and fieldSupersedes).
	for _, f := range e.Fields {
		if !isCarried(f.Key) {
			return false
		}
	}
	if len(e.Supersedes) > 0 {
		return false
	}
	self := func(id string) bool { return id == e.ID || idNum(id) > 0 && idNum(id) == idNum(e.ID) }
	// planLine's rename: refs kept as written, each once.
	for i, r := range e.Refs {
		if r != strings.TrimSpace(r) || r == "" || self(r) {
			return false
		}
		if id, ok := p.newOf.get(r); ok && id != r || !ok && idNum(r) == 0 {
			return false
		}
		for _, q := range e.Refs[:i] {
			if q == r {
				return false
			}
		}
	}
	// planLine's closes: none names the line itself, none is renamed.
	for _, d := range e.Details {
		if !parse.SameKey(d.Key, "closes") {
			continue
		}
		for _, id := range memory.SplitList([]string{d.Value}) {
			if self(id) {
				return false
			}
			if n, ok := p.newOf.get(id); ok && idNum(n) != idNum(id) {
				return false
			}
		}
	}
	p.details = p.details[:0]
	d := memory.Draft{Type: e.Type, Time: t, Agent: e.Agent, Scope: e.Scope, Summary: e.Summary,
		Details: p.copyDetails(e.Details), Refs: e.Refs, Tags: e.Tags}
	// A settled draft is one Normalize accepts and leaves as it is:
	// plan's draft after Normalize is d.
	if !memory.Settled(&d, p.known) {
		return false
	}
	p.text = memory.AppendRender(p.text[:0], e.ID, d, "\n")
	if !sameText(p.text, e.Text) || memory.ReadsBackAs(e.ID, d, e) != nil {
		return false
	}
	// Accepted: plan's bookkeeping for a line with no Supersedes.
	num := idNum(e.ID)
	p.newOf.set(e.ID, e.ID)
	p.byNum[num] = [2]string{e.ID, d.Type}
	p.next = parse.FormatID(num+1, len(p.first)-len("evt-"))
	return true
}

// copyDetails is jsonDetails(ds) for details that are valid UTF-8
// (asJSON changes nothing), the top level in the planner's reused slice.
func (p *planner) copyDetails(ds []parse.Detail) memory.DraftDetails {
	start := len(p.details)
	for _, d := range ds {
		p.details = append(p.details, memory.DraftDetail{Key: d.Key, Value: d.Value})
	}
	out := p.details[start:len(p.details):len(p.details)]
	for i := range ds {
		if len(ds[i].Children) > 0 {
			out[i].Children = p.copyDetails(ds[i].Children)
		}
	}
	return out
}
