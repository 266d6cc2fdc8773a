package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS120",
		Name:  "line-too-long",
		Title: "no line is too long to read",
		Doc: "A line longer than memsys reads (1 MiB) stops the parse of the file there, so " +
			"every event after it is unseen. Such a line is almost always a pasted blob; move it " +
			"to a file and refer to its path. Until then graph.md and context.md are not compared " +
			"with a replay of part of the history, and a missing Event Log section is not reported.",
		Bad:      "- output: <2 MB of log on one line>",
		Good:     "- output: logs/run-17.txt",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindLineLength},
	})
}
