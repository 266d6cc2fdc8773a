package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS206",
		Name:  "todo-missing",
		Title: "the full tier has a TODO.md task list",
		Doc: "The Full tier tracks tasks in `TODO.md` at the memory root (the seed's Task " +
			"Management). It is required when .memsys.json sets `\"tier\": \"full\"` or " +
			"graph.md exists. Run `memsys init --tier full` to create it from the template.",
		Bad:      "CHANGELOG.md and .memory/graph.md, no TODO.md",
		Good:     "CHANGELOG.md, .memory/graph.md and TODO.md",
		Severity: diag.Error,
		Run:      runTodoMissing,
	})
}

func runTodoMissing(p *Pass) {
	if p.Tier() == "full" && !p.Exists(parse.TodoFile) {
		p.Reportf(diag.Range{File: parse.TodoFile}, "", "%s is missing (full tier): create it with In Progress, Up Next, Completed and Backlog sections", parse.TodoFile)
	}
}
