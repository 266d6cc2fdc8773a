package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS133",
		Name:  "heading-cuts-event",
		Title: "no level-2 heading inside an event",
		Doc: "A `## heading` at the start of a line ends the `## Event Log` section, so " +
			"when one is written inside an event every event after it would be outside " +
			"the log. memsys reads such a heading as text of the event it cuts (the events " +
			"after it stay in the log) and reports it once, at the heading. Make it a " +
			"`####` heading or plain text.",
		Bad:      "### evt-008 | ... | modify\n## Event Log rules\n...\n### evt-009 | ...",
		Good:     "### evt-008 | ... | modify\n#### Event Log rules\n...\n### evt-009 | ...",
		Severity: diag.Warning,
		Problems: []parse.Kind{parse.KindCut},
	})
}
