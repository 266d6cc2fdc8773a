package lint

import (
	"github.com/memsys/memsys/parse"

	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS108",
		Name:  "id-gap",
		Title: "event IDs have no gaps",
		Doc: "The seed asks for sequential IDs: each event is the previous number plus one, " +
			"across the archive and the log. A gap means an event was deleted, or an archive " +
			"lost events, and append-only history cannot show which. Restore the missing " +
			"event, or renumber the new one if it has not been shared yet. Numbering may start " +
			"above 1 when older events were archived elsewhere.",
		Bad:      "### evt-009 | ...\n### evt-011 | ...",
		Good:     "### evt-009 | ...\n### evt-010 | ...",
		Severity: diag.Error,
		Visit:    visitIDGap,
	})
}

func visitIDGap(p *Pass) Visitor {
	var st struct{ maxNum int }
	return Visitor{State: &st, Event: func(e *parse.Event) {
		if e.Num == 0 {
			return
		}
		if st.maxNum > 0 && e.Num > st.maxNum+1 {
			missing := parse.FormatID(st.maxNum+1, 3)
			if e.Num > st.maxNum+2 {
				missing += " to " + parse.FormatID(e.Num-1, 3) + " are"
			} else {
				missing += " is"
			}
			p.Reportf(headerRange(e), e.ID, "%s follows %s: %s missing; restore them or renumber %s", e.ID, parse.FormatID(st.maxNum, 3), missing, e.ID)
		}
		st.maxNum = max(st.maxNum, e.Num)
	}}
}
