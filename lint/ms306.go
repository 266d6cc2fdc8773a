package lint

import "github.com/memsys/memsys/internal/base/diag"

// MS306 is checked by internal/app/converge when lint runs with --base;
// it is registered here so it is listed, documented and configurable
// like every other rule.
func init() {
	register(&Rule{
		ID:    "MS306",
		Name:  "event-id-collision",
		Title: "new events do not reuse IDs the base added meanwhile",
		Doc: "Two branches that append concurrently give their new events the same IDs. With `--base REV`, when REV has moved on since this branch forked (REV is not an ancestor of the branch), memsys compares the events each side added since the merge base: every event of the branch whose ID REV also added, with other content, is a finding, and the append-only checks (MS301-MS305) compare with the merge base instead of REV. " +
			"Fix it with `memsys renumber --onto REV`, which moves the branch's events after REV's, rewriting refs; or merge REV with the merge driver installed (`memsys merge-driver install`), which does the same. See docs/convergence.md.",
		Bad:      "main added evt-015 (a fix); this branch added its own evt-015 (a decision)",
		Good:     "this branch's decision is evt-016, after main's evt-015 (memsys renumber --onto origin/main)",
		Severity: diag.Error,
	})
}
