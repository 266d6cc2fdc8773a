package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS134",
		Name:  "conflict-marker",
		Title: "no merge conflict markers left in the log",
		Doc: "A merge of two branches that both appended events stops on the log when " +
			"memsys's merge driver is not installed, and git writes both sides between " +
			"`<<<<<<<`, `=======` and `>>>>>>>` lines. Left in place (or committed), they " +
			"make the fields between them text: an event loses its summary or refs, or two " +
			"events share an ID. memsys reports each `<<<<<<<` line, except in a fenced code block or an HTML comment, where an event quotes a conflict (how a merge was resolved, say). Finish the merge: " +
			"`memsys renumber --onto REV` resolves the log (REV is the branch merged in, or " +
			"the one merged into), or keep one side by hand and delete the markers; " +
			"`memsys merge-driver install` avoids the conflict next time.",
		Bad:      "**Scope**: auth\n<<<<<<< HEAD\n**Summary**: ours\n=======\n**Summary**: theirs\n>>>>>>> feature",
		Good:     "**Scope**: auth\n**Summary**: ours",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindConflict},
	})
}
