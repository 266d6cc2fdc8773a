package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS107",
		Name:  "duplicate-id",
		Title: "event IDs are unique across the archive and the log",
		Doc: "An event ID names one event forever: refs, the graph's Last Event column and " +
			"the context horizon all use it. Two events with the same number (`evt-7` and " +
			"`evt-007` are the same) make every one of those ambiguous. This usually comes " +
			"from two branches appending at once; renumber the later event to the next free ID.",
		Bad:      "### evt-008 | ... | fix\n...\n### evt-008 | ... | test",
		Good:     "### evt-008 | ... | fix\n...\n### evt-009 | ... | test",
		Severity: diag.Error,
		Visit:    visitDuplicateID,
	})
}

func visitDuplicateID(p *Pass) Visitor {
	return Visitor{State: stateless, Event: func(e *parse.Event) {
		if e.Num == 0 {
			return
		}
		o, _ := p.shared.first.get(e.Num)
		if int(o.pos) == p.shared.pos {
			return
		}
		p.Report(diag.Diagnostic{
			Range: headerRange(e), Event: e.ID,
			Message: e.ID + " is already used at " + where(p.shared.first.at(o), e.Range.File) + ": renumber this event to the next free ID",
			Related: []diag.Range{p.shared.first.at(o)},
		})
	}}
}
