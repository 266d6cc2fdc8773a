package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS122",
		Name:  "unclosed-block",
		Title: "no unclosed code block hides later events",
		Doc: "A code fence (```) or an HTML comment (`<!--`) that is never closed runs to the " +
			"end of the file, and every event heading after it becomes code: replay silently " +
			"loses those events. memsys reports the opening line when the unclosed block " +
			"swallows at least one `evt-` heading. Close the block.",
		Bad:      "**Details**:\n```\nnpm test\n\n### evt-008 | ... | test",
		Good:     "**Details**:\n```\nnpm test\n```\n\n### evt-008 | ... | test",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindUnclosed},
	})
}
