package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS102",
		Name:  "event-header",
		Title: "event headings follow the evt-NNN | time | agent | type form",
		Doc: "Every event heading is `### evt-NNN | YYYY-MM-DD HH:MM | agent | type`: " +
			"four parts split by `|`, an ID of `evt-` and digits, and a non-empty agent and type. " +
			"A heading with an unreadable ID is not an event at all, so its refs and position are lost. " +
			"Rewrite the heading in the canonical form.",
		Bad:      "### evt-01a | 2025-01-01 10:00 | agent",
		Good:     "### evt-010 | 2025-01-01 10:00 | agent | create",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindHeader, parse.KindID},
	})
}
