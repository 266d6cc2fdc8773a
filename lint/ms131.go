package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS131",
		Name:  "unnamed-node",
		Title: "events that change a node name it",
		Doc: "A create, modify, delete, dependency, blocker, test, handoff or milestone event " +
			"changes a graph node, and replay takes the node's name from a detail (`entity`, " +
			"`target`, `task`, `name`, ...) or from a Scope that lists names. Names never come " +
			"from prose: a value with sentence punctuation, unbalanced brackets, more than 6 " +
			"words or 64 characters is not a name (docs/materialize.md, \"Names\"), and a " +
			"Scope is split on commas only when every part is a name. An event with no usable " +
			"name changes no node. Add the detail the message names.",
		Bad:      "### evt-021 | ... | create\n**Scope**: documentation accuracy (see README, docs)",
		Good:     "### evt-021 | ... | create\n**Scope**: documentation accuracy (see README, docs)\n**Details**:\n- entity: docs",
		Severity: diag.Warning,
		Visit: func(p *Pass) Visitor {
			return Visitor{State: stateless, Event: func(e *parse.Event) {
				key, why, ok := materialize.Unnamed(e)
				if ok {
					return
				}
				p.Reportf(fieldRange(e, "details", "scope"), e.ID,
					"%s (%s) names no node: %s: add \"- %s: <name>\" under **Details**", e.ID, e.Type, why, key)
			}}
		},
	})
}
