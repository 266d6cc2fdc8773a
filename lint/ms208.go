package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:    "MS208",
		Name:  "stale-baseline",
		Title: "every baseline entry still matches a finding",
		Doc: "`" + BaselineFile + "` (written by `memsys lint --write-baseline`) lists " +
			"findings accepted when memsys was adopted on an existing log; lint then reports " +
			"only new ones. An entry that matches no finding any more was fixed: run " +
			"`memsys lint --write-baseline` again so the file shrinks and the fixed problem " +
			"cannot come back unnoticed.",
		Bad:      "an entry for MS111 on evt-003 after evt-003's timestamp was corrected",
		Good:     "memsys lint --write-baseline, committing the smaller file",
		Severity: diag.Warning,
	})
}
