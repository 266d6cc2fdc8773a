package lint

import (
	"github.com/memsys/memsys/internal/diag"
)

func init() {
	register(&Rule{
		ID:    "MS104",
		Name:  "ref-target",
		Title: "refs point to existing, earlier events",
		Doc: "`**Refs**` link cause to effect, so each must name an event that exists " +
			"(in the log or the archive) and comes before the referring event. A ref to " +
			"itself or to a later event cannot be a cause; a ref to a missing event is usually " +
			"a typo. Fix the ID, or write `none`.",
		Bad:      "### evt-005 | ... | fix\n**Refs**: evt-009",
		Good:     "### evt-005 | ... | fix\n**Refs**: evt-003",
		Severity: diag.Error,
		Run:      runRefTarget,
	})
}

func runRefTarget(p *Pass) {
	first := p.firstIndex()
	for i := range p.Events {
		e := &p.Events[i]
		for _, ref := range e.Refs {
			n := refNum(ref)
			at, exists := first[n]
			switch {
			case n == 0:
				p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to %q, which is not an event ID: write evt-NNN or none", e.ID, ref)
			case n == e.Num:
				p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to itself: remove %s from its refs", e.ID, ref)
			case exists && at < i:
			case exists:
				p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to %s, which comes later in the log: refs point to earlier events", e.ID, ref)
			default:
				p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to %s, which does not exist: fix the ID or write none", e.ID, ref)
			}
		}
	}
}
