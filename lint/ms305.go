package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:       "MS305",
		Name:     "event-renumbered",
		Title:    "event IDs are kept and continue the sequence",
		Doc:      "A committed event keeps its ID, and new events continue the base revision's numbering from its highest ID. A renumbered event breaks every ref to it. Restore the old ID, or give the new event the next free number (memsys append does this). When the head merged another branch since REV and the merge driver renumbered REV's events after that branch's, the new numbers up to that merge are expected; a renumbering after the merge is reported against the merge's log (docs/git.md, \"Across a merge\").",
		Bad:      "### evt-003 renamed to evt-007; a new event evt-009 after evt-004",
		Good:     "### evt-003 kept; the new event is evt-005",
		Severity: diag.Error,
		Git:      true,
		Run:      historyRule,
	})
}
