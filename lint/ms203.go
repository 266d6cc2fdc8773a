package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS203",
		Name:  "context-stale",
		Title: "context.md event horizon matches the last event",
		Doc: "The seed's Staleness Check for `.memory/context.md`: its event horizon must be " +
			"the last event of the log, or the narrative agents read first at boot is out of " +
			"date. context.md is required for the Core and Full tiers and checked whenever it " +
			"exists. Run `memsys regen`; a context.md memsys did not write as it is (kept by hand, " +
			"or sealed and edited since) with Active Constraints no replay writes is named with " +
			"them and `memsys adopt` instead, as `memsys regen` refuses to drop them.",
		Bad:      "<!-- Event horizon: evt-040 --> while the log ends at evt-042",
		Good:     "<!-- Event horizon: evt-042 --> while the log ends at evt-042",
		Severity: diag.Error,
		Fix:      true,
		Run:      func(p *Pass) { checkStale(p, parse.ContextFile, parse.Tier(p.Tier()).HasContext()) },
	})
}
