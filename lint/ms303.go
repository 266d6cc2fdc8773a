package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:       "MS303",
		Name:     "event-reordered",
		Title:    "committed events keep their order",
		Doc:      "Events are a history: their order at the base revision must be kept, across the archive and the log. Restore the original order.",
		Bad:      "### evt-003 ...\n### evt-002 ...",
		Good:     "### evt-002 ...\n### evt-003 ...",
		Severity: diag.Error,
		Git:      true,
		Run:      historyRule,
	})
}
