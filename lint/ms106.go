package lint

import (
	"strings"

	"github.com/memsys/memsys/parse"

	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS106",
		Name:  "scope-summary",
		Title: "every event has a scope and a summary",
		Doc: "The seed's checklist: every event has `**Scope**` (the area affected) and " +
			"`**Summary**` (one self-contained line). context.md's Recent Changes is built " +
			"from summaries, so an event without one is invisible there. Add the missing field.",
		Bad:      "### evt-007 | 2025-01-02 10:00 | agent | test\n**Summary**: auth tests pass",
		Good:     "### evt-007 | 2025-01-02 10:00 | agent | test\n**Scope**: auth\n**Summary**: auth tests pass",
		Content:  true,
		Severity: diag.Error,
		Visit:    visitScopeSummary,
	})
}

func visitScopeSummary(p *Pass) Visitor {
	return Visitor{State: stateless, Event: func(e *parse.Event) {
		if strings.TrimSpace(e.Scope) == "" {
			p.Reportf(headerRange(e), e.ID, "%s has no **Scope**: add \"**Scope**: area affected\"", e.ID)
		}
		if strings.TrimSpace(e.Summary) == "" {
			p.Reportf(headerRange(e), e.ID, "%s has no **Summary**: add \"**Summary**: one-line description\"", e.ID)
		}
	}}
}
