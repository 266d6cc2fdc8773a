package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS124",
		Name:  "supersede-later",
		Title: "supersedes names an earlier event",
		Doc: "A correction comes after what it corrects: replay skips a superseded event from " +
			"the superseding event's position on, so naming the event itself or a later event " +
			"has no effect. To correct a later event, append a new event that supersedes it.",
		Bad:      "### evt-004 | ... | decision\n**Supersedes**: evt-007",
		Good:     "### evt-008 | ... | decision\n**Supersedes**: evt-007",
		Severity: diag.Error,
		Visit: func(p *Pass) Visitor {
			return visitTargets(p, supersedes, supersedesAt, func(at diag.Range, event, id string, k targetKind) {
				switch k {
				case targetSelf:
					p.Reportf(at, event, "%s supersedes itself: name the earlier event it corrects", event)
				case targetLater:
					p.Reportf(at, event, "%s supersedes %s, which comes later in the log: a correction comes after what it corrects", event, id)
				}
			})
		},
	})
}
