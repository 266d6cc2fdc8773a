package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
)

func init() {
	register(&Rule{
		ID:    "MS129",
		Name:  "closes-target",
		Title: "closes names an earlier event",
		Doc: "The detail `closes: evt-NNN` closes an open loop (a blocker, escalation or " +
			"commitment) written before it. A loop cannot be closed before it is opened, so " +
			"naming the event itself, a later event, no event or text that is not an ID closes " +
			"nothing and the loop stays in Open Loops. Name the earlier event.",
		Bad:      "### evt-006 | ... | milestone\n- closes: evt-009",
		Good:     "### evt-010 | ... | milestone\n- closes: evt-009",
		Content:  true,
		Severity: diag.Error,
		Visit: func(p *Pass) Visitor {
			return visitTargets(p, materialize.Closes, closesAt, func(at diag.Range, event, id string, k targetKind) {
				switch k {
				case targetNotID:
					p.Reportf(at, event, "%s closes %q, which is not an event ID: write evt-NNN", event, id)
				case targetSelf:
					p.Reportf(at, event, "%s closes itself: name the earlier loop it closes", event)
				case targetLater:
					p.Reportf(at, event, "%s closes %s, which comes later in the log: a loop is closed after it is opened", event, id)
				case targetMissing:
					p.Reportf(at, event, "%s closes %s, which does not exist: name the loop it closes", event, id)
				}
			})
		},
	})
}
