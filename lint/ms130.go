package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS130",
		Name:  "priority-value",
		Title: "priorities are P0, P1, P2 or P3",
		Doc: "The detail `priority` ranks an event for context.md: P0 is binding and never " +
			"leaves Active Constraints, P1 (the default) stays, P2 and P3 leave context.md after " +
			"`context.decayP2Days` and `context.decayP3Days` (90 and 30 days at the last event). " +
			"The words critical, high, medium (or normal) and low are read as P0 to P3. Any " +
			"other value counts as P1, which is probably not what was meant: write one of them.",
		Bad:      "### evt-003 | ... | decision\n- priority: urgent",
		Good:     "### evt-003 | ... | decision\n- priority: P0",
		Content:  true,
		Severity: diag.Error,
		Visit: func(p *Pass) Visitor {
			return Visitor{State: stateless, Event: func(e *parse.Event) {
				for _, d := range e.Details {
					if d.Norm() != "priority" {
						continue
					}
					if _, ok := materialize.ParsePriority(d.Value); !ok {
						p.Reportf(lineRange(e.Range.File, d.Line), e.ID, "%s has priority %q: write P0, P1, P2 or P3 (P1 when unsure)", e.ID, d.Value)
					}
				}
			}}
		},
	})
}
