package lint

import (
	"strings"

	"github.com/memsys/memsys/parse"

	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS105",
		Name:  "event-type",
		Title: "event types are the seed's types, commitment or archive",
		Doc: "The type decides how replay changes the knowledge graph, so it must be one of " +
			"decision, create, modify, delete, test, fix, dependency, blocker, milestone, " +
			"escalation, handoff, commitment (a promise with `owner` and `due`, open until an " +
			"event closes it), or archive (written by `memsys archive`). An unknown type " +
			"changes nothing in the graph. Pick the closest seed type.",
		Bad:      "### evt-006 | 2025-01-02 09:00 | agent | refactor",
		Good:     "### evt-006 | 2025-01-02 09:00 | agent | modify",
		Content:  true,
		Severity: diag.Error,
		Visit:    visitEventType,
	})
}

func visitEventType(p *Pass) Visitor {
	return Visitor{State: stateless, Event: func(e *parse.Event) {
		if e.Type == "" || parse.IsEventType(e.Type) {
			return // an empty type is MS102's
		}
		p.Reportf(headerRange(e), e.ID, "%s has unknown type %q: use one of %s", e.ID, e.Type, strings.Join(parse.EventTypes, ", "))
	}}
}
