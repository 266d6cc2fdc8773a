package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS205",
		Name:  "context-drift",
		Title: "context.md is exactly what regen writes",
		Doc: "context.md is a derived projection (the seed's Regeneration Algorithm): a hand " +
			"edit is lost at the next regen and, until then, tells agents something the log " +
			"does not. The diagnostic's detail is the unified diff from the file to what regen " +
			"writes with the configured window and word budget. Record the information as an " +
			"event, then run `memsys regen` or `memsys lint --fix`.",
		Bad:      "## Active Mission edited by hand in context.md",
		Good:     "a milestone event in CHANGELOG.md, then `memsys regen`",
		Severity: diag.Error,
		Fix:      true,
		Run:      func(p *Pass) { checkDrift(p, parse.ContextFile) },
	})
}
