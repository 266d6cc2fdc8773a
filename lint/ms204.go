package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS204",
		Name:  "graph-drift",
		Title: "graph.md is exactly what regen writes",
		Doc: "graph.md is updated only by materialization from the log (the seed's Graph " +
			"Rules): a hand edit, a merge that mixed two versions, or an older memsys leaves it " +
			"different from a replay of the events even when its horizon is right. The " +
			"diagnostic's detail is the unified diff from the file to what regen writes (line " +
			"endings aside). Run `memsys regen` or `memsys lint --fix`. When the file holds rows no " +
			"replay draws (a graph kept by hand before memsys), the message lists them and " +
			"points to `memsys adopt`, which records them as events; `lint --fix` then keeps " +
			"the file rather than drop them. An edge's attribute no event can carry is " +
			"named with that advice instead, as MS202 words it.",
		Bad:      "| auth | component | active | ... edited by hand to `completed`",
		Good:     "a modify event with `- status: completed`, then `memsys regen`",
		Severity: diag.Error,
		Fix:      true,
		Run:      func(p *Pass) { checkDrift(p, parse.GraphFile) },
	})
}
