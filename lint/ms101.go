package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS101",
		Name:  "event-log-section",
		Title: "the changelog exists and has an event log section",
		Doc: "The seed's first checklist item: CHANGELOG.md at the memory root with a " +
			"`## Event Log` section that holds the events (`## Events` is accepted). " +
			"Without the section, other changelog headings can be mistaken for events. " +
			"Add the heading above the first event " +
			"(at the end of the file when it holds none, e.g. release notes kept before memsys). " +
			"Where there is no CHANGELOG.md at all lint cannot run (exit 2, as status and regen), " +
			"whatever this rule's severity: turning it off silences the section, never a missing memory. " +
			"A log that a change deletes (`--base`, `--staged`) is linted, and this rule reports it missing.",
		Bad:      "# Changelog\n\n### evt-001 | 2025-01-01 10:00 | agent | create",
		Good:     "# Changelog\n\n## Event Log\n\n### evt-001 | 2025-01-01 10:00 | agent | create",
		Severity: diag.Error,
		Run:      runEventLogSection,
	})
}

func runEventLogSection(p *Pass) {
	switch {
	case p.Log == nil:
		p.Reportf(diag.Range{File: p.LogFile()}, "", "%s is missing: run %s to create it", p.LogFile(), front.Init.Word())
	case !p.Log.HasEventLog && cut(p.Log):
		// The parse stopped at a line too long to read (MS120): the
		// section may well come after it.
	case p.Log.UTF16():
		// Saved as UTF-16, the section is there but unread: MS121 says
		// to re-save the file; adding a heading would make it worse.
	case !p.Log.HasEventLog:
		// Release notes kept before memsys (init keeps them) have no
		// event to put the heading above; append writes at the end.
		p.Reportf(lineRange(p.Log.File, 1), "", "%s has no \"## Event Log\" section: %s", p.Log.File, parse.NoEventLogFix(p.lastEvent() != ""))
	}
}
