package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS117",
		Name:  "archive-due",
		Title: "the log holds no more events than the archive threshold",
		Doc: "The seed's Archival Protocol archives older events when CHANGELOG.md has more " +
			"than 50 events (`archive.threshold` in .memsys.json), keeping the last 20 and every " +
			"event an active graph node refers to. A long log costs every agent that boots from it. " +
			"Run `memsys archive`. Archive takes the events at the top of the log as the oldest, " +
			"so it refuses a log whose IDs do not rise in file order (MS109): the finding then says " +
			"to put them in order first.",
		Bad:      "CHANGELOG.md with 51 events and no archive",
		Good:     "CHANGELOG.md with 21 events; changelog-archive.md with the older 30",
		Severity: diag.Warning,
		Counts:   true,
		Visit:    visitArchiveDue,
	})
}

// visitArchiveDue follows the order of the log's events (parse.Order,
// as archive and status follow it) and, at the end, reports a log
// longer than the threshold. Archive refuses a log out of order, so
// the advice is then to put the events in order first, as archive's
// refusal says, rather than to run a command that will not run.
func visitArchiveDue(p *Pass) Visitor {
	var order parse.Order
	return Visitor{State: &order, Event: func(e *parse.Event) {
		if e.InLog && e.Range.File == p.LogFile() {
			order.Add(e)
		}
	}, End: func() {
		if p.Log == nil || !p.Log.HasEventLog {
			// Without the section (MS101) archive moves nothing and
			// status counts no event in the log: "run memsys archive"
			// would be advice archive answers with "nothing to archive".
			return
		}
		n, limit := p.shared.logEvents, p.Config.ArchiveThreshold
		if limit <= 0 || n <= limit {
			return
		}
		line := p.Log.EventLogLine
		if line == 0 {
			line = 1
		}
		r := lineRange(p.Log.File, line)
		switch {
		case order.Ascending():
			p.Reportf(r, "", "%s has %s, more than %d: run %s", p.Log.File, words.Plural(n, "event"), limit, front.Archive.Word())
		case order.Descending:
			p.Reportf(r, "", "%s has %s, more than %d: put the events in ascending ID order, oldest first (MS109), then run %s", p.Log.File, words.Plural(n, "event"), limit, front.Archive.Word())
		default:
			p.Reportf(r, "", "%s has %s, more than %d: move %s back to its place in ascending ID order (MS109), then run %s", p.Log.File, words.Plural(n, "event"), limit, order.Break.ID, front.Archive.Word())
		}
	}}
}
