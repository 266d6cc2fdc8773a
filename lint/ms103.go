package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS103",
		Name:  "timestamp",
		Title: "event timestamps are real dates and times",
		Doc: "The timestamp is `YYYY-MM-DD HH:MM`, checked against the calendar and the clock " +
			"(no `2025-02-30`, no `24:61`). Replay orders the context window by it, so an " +
			"unreadable time drops the event from \"recent\". Write the time the event happened.",
		Bad:      "### evt-004 | 2025-02-30 25:00 | agent | fix",
		Good:     "### evt-004 | 2025-02-28 15:00 | agent | fix",
		Content:  true,
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindTimestamp},
	})
}
