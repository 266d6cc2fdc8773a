package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
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
		Content:  true,
		Severity: diag.Error,
		Visit:    visitRefTarget,
	})
}

// visitRefTarget checks each ref when its event passes. A ref to an
// event not seen yet is held until the end: only then is it known
// whether that event comes later or does not exist.
func visitRefTarget(p *Pass) Visitor {
	type pending struct {
		at      diag.Range
		id, ref string
		n       int
	}
	var st struct{ later []pending }
	return Visitor{
		State: &st,
		Event: func(e *parse.Event) {
			for _, ref := range e.Refs {
				n, ok := parse.EventNum(ref)
				switch f, seen := p.shared.first.get(n); {
				case !ok:
					p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to %q, which is not an event ID: write evt-NNN or none", e.ID, ref)
				case n == e.Num:
					p.Reportf(fieldRange(e, "refs", "ref", "references"), e.ID, "%s refers to itself: remove %s from its refs", e.ID, ref)
				case seen && int(f.pos) < p.shared.pos:
				default:
					st.later = append(st.later, pending{fieldRange(e, "refs", "ref", "references"), e.ID, ref, n})
				}
			}
		},
		End: func() {
			for _, r := range st.later {
				if _, exists := p.shared.first.get(r.n); exists {
					p.Reportf(r.at, r.id, "%s refers to %s, which comes later in the log: refs point to earlier events", r.id, r.ref)
				} else {
					p.Reportf(r.at, r.id, "%s refers to %s, which does not exist: fix the ID or write none", r.id, r.ref)
				}
			}
		},
	}
}
