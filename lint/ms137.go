package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS137",
		Name:  "due-date",
		Title: "due dates of open loops are YYYY-MM-DD",
		Doc: "The detail `due` of a blocker, escalation or commitment is the date by which " +
			"the loop should close: context.md, `memsys loops` and the report flag it " +
			"`(past due)` once the last event's date passes it. Only a YYYY-MM-DD date is " +
			"compared; any other value (`tomorrow`, `2026-3-9`) is shown as written and never " +
			"falls past due. Write the date with four, two and two digits.",
		Bad:      "### evt-007 | ... | commitment\n- due: next friday",
		Good:     "### evt-007 | ... | commitment\n- due: 2026-03-13",
		Content:  true,
		Severity: diag.Warning,
		Visit: func(p *Pass) Visitor {
			return Visitor{State: stateless, Event: func(e *parse.Event) {
				switch e.Type {
				case "blocker", "escalation", "commitment":
				default:
					return
				}
				for _, d := range e.Details {
					if d.Norm() == "due" && !materialize.ValidDue(d.Value) {
						p.Reportf(lineRange(e.Range.File, d.Line), e.ID, "%s has due %q, which is no date: write YYYY-MM-DD, or it never falls past due", e.ID, d.Value)
					}
				}
			}}
		},
	})
}
