package lint

import (
	"fmt"
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
			p.Reportf(headerRange(e), e.ID, "%s has no **Scope**: add \"**Scope**: area affected\"%s", e.ID, cutShort(e))
		}
		if strings.TrimSpace(e.Summary) == "" {
			p.Reportf(headerRange(e), e.ID, "%s has no **Summary**: add \"**Summary**: one-line description\"%s", e.ID, cutShort(e))
		}
	}}
}

// cutShort says, for an event the file ends in mid-line (its text has
// no final line feed), what such an end most likely is, in the words
// append refuses it with: an append cut short by a crash or a power
// loss. Without it the finding read as a field left out by hand.
func cutShort(e *parse.Event) string {
	if e.Text == "" || strings.HasSuffix(e.Text, "\n") {
		return ""
	}
	return fmt.Sprintf(", or delete the event (line %d to the end of the file): the file ends mid-line in it, as an append cut short by a crash or power loss leaves it", e.Range.Line)
}
