package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS114",
		Name:  "heading-level",
		Title: "event headings are level 3",
		Doc: "Events are `###` headings inside `## Event Log`. An `evt-` heading at another " +
			"level is still read as an event, but a `##` one ends the Event Log section for " +
			"markdown tools and a `####` one looks like part of the event before it. Write it " +
			"with three `#`.",
		Bad:      "## evt-015 | 2025-01-03 10:00 | agent | test",
		Good:     "### evt-015 | 2025-01-03 10:00 | agent | test",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindLevel},
	})
}
