package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS123",
		Name:  "supersede-missing",
		Title: "supersedes names an event that exists",
		Doc: "`**Supersedes**: evt-NNN` corrects an earlier event: that event stays in the log " +
			"but leaves every derived view. A Supersedes naming no event (a typo, or text that is " +
			"not an evt-NNN ID) corrects nothing, so the wrong fact stays in graph.md and " +
			"context.md. Name the event the new one corrects, in the log or the archive.",
		Bad:      "### evt-012 | ... | decision\n**Refs**: none\n**Supersedes**: evt-099",
		Good:     "### evt-012 | ... | decision\n**Refs**: none\n**Supersedes**: evt-009",
		Severity: diag.Error,
		Visit: func(p *Pass) Visitor {
			return visitTargets(p, supersedes, supersedesAt, func(at diag.Range, event, id string, k targetKind) {
				switch k {
				case targetNotID:
					p.Reportf(at, event, "%s supersedes %q, which is not an event ID: write evt-NNN", event, id)
				case targetMissing:
					p.Reportf(at, event, "%s supersedes %s, which does not exist: name the event it corrects", event, id)
				}
			})
		},
	})
}
