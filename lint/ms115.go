package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS115",
		Name:  "outside-event-log",
		Title: "events are inside the event log section",
		Doc: "An `### evt-` heading before `## Event Log` is not part of the log: replay " +
			"skips it, so the event is lost although it looks written. Move it under the " +
			"`## Event Log` heading, at the end. (A `##` heading followed by more events is " +
			"read as text of the event it cuts and reported once by MS133; headings inside " +
			"code blocks, HTML blocks and comments are text and never count.)",
		Bad:      "## Notes\n\n### evt-016 | 2025-01-03 11:00 | agent | fix",
		Good:     "## Event Log\n\n### evt-016 | 2025-01-03 11:00 | agent | fix",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindOutside},
	})
}
