package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS111",
		Name:  "date-only",
		Title: "timestamps have a time of day",
		Doc: "A date-only timestamp (`2025-01-01`) is accepted and sorts at 00:00, but the " +
			"48-hour context window and time ordering are then off by up to a day. Write " +
			"`YYYY-MM-DD HH:MM`.",
		Bad:      "### evt-003 | 2025-01-01 | agent | test",
		Good:     "### evt-003 | 2025-01-01 14:30 | agent | test",
		Content:  true,
		Severity: diag.Warning,
		Problems: []parse.Kind{parse.KindDateOnly},
	})
}
