package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:       "MS304",
		Name:     "event-inserted",
		Title:    "new events come after the last committed one",
		Doc:      "A new event may only be appended after the last event of the base revision; inserting one earlier rewrites history that others already read. Move it to the end of the log (memsys append does this).",
		Bad:      "### evt-001 ...\n### evt-004 (new)\n### evt-002 ...",
		Good:     "### evt-001 ...\n### evt-002 ...\n### evt-004 (new)",
		Severity: diag.Error,
		Git:      true,
		Run:      historyRule,
	})
}
