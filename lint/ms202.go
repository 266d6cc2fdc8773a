package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS202",
		Name:  "graph-stale",
		Title: "graph.md event horizon matches the last event",
		Doc: "The seed's Staleness Check: `.memory/graph.md` records the last event it " +
			"materialized (its event horizon). When that is not the last event of the log, " +
			"agents boot from an outdated graph. graph.md is required for the Full tier and " +
			"checked whenever it exists. Run `memsys regen`; a graph.md that holds what no replay draws " +
			"and memsys did not write (kept by hand, or sealed and edited since: a row, a node's " +
			"or an edge's attribute, a type or status) is named with what it holds and " +
			"`memsys adopt` instead, or `memsys regen --force` to drop it: the verdict " +
			"`memsys regen`, `lint --fix` and `memsys status` reach too. No event can carry an " +
			"edge's attribute, so for one adopt cannot record the message says so instead: " +
			"record what it says as a node attribute or in an event note, then `memsys regen " +
			"--force` (or `memsys adopt` for the rest, which then drops it).",
		Bad:      "<!-- Event horizon: evt-040 --> while the log ends at evt-042",
		Good:     "<!-- Event horizon: evt-042 --> while the log ends at evt-042",
		Severity: diag.Error,
		Fix:      true,
		Run:      func(p *Pass) { checkStale(p, parse.GraphFile, parse.Tier(p.Tier()).HasGraph()) },
	})
}
