package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

func init() {
	register(&Rule{
		ID:    "MS117",
		Name:  "archive-due",
		Title: "the log holds no more events than the archive threshold",
		Doc: "The seed's Archival Protocol archives older events when CHANGELOG.md has more " +
			"than 50 events (`archive.threshold` in .memsys.json), keeping the last 20 and every " +
			"event an active graph node refers to. A long log costs every agent that boots from it. " +
			"Run `memsys archive`.",
		Bad:      "CHANGELOG.md with 51 events and no archive",
		Good:     "CHANGELOG.md with 21 events; changelog-archive.md with the older 30",
		Severity: diag.Warning,
		Counts:   true,
		Run:      runArchiveDue,
	})
}

func runArchiveDue(p *Pass) {
	if p.Log == nil {
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
	p.Reportf(lineRange(p.Log.File, line), "", "%s has %s, more than %d: run %s", p.Log.File, words.Plural(n, "event"), limit, front.Archive.Word())
}
