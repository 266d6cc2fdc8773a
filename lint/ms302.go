package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:       "MS302",
		Name:     "event-deleted",
		Title:    "committed events are never deleted",
		Doc:      "Every event present at the base revision must still be in CHANGELOG.md or its archive. Archiving moves events; nothing removes them. The diagnostic names the commit to restore the event from.",
		Bad:      "(evt-007 removed from CHANGELOG.md)",
		Good:     "(evt-007 moved unchanged to changelog-archive.md by memsys archive)",
		Severity: diag.Error,
		Git:      true,
		Run:      historyRule,
	})
}
