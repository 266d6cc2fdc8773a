package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS109",
		Name:  "id-order",
		Title: "event IDs increase in file order",
		Doc: "Events are appended, so IDs rise from the top of the archive to the end of " +
			"the log. An ID lower than one before it means events were reordered or inserted " +
			"in the middle, which breaks append-only history and the meaning of \"earlier\" " +
			"for refs. Move the event back to its place, or renumber it if it is new.",
		Bad:      "### evt-012 | ...\n### evt-010 | ...",
		Good:     "### evt-010 | ...\n### evt-012 | ...",
		Severity: diag.Error,
		Visit:    visitIDOrder,
	})
}

func visitIDOrder(p *Pass) Visitor {
	var st struct {
		maxNum int
		maxID  string
		maxAt  diag.Range
	}
	return Visitor{State: &st, Event: func(e *parse.Event) {
		if e.Num == 0 {
			return
		}
		if e.Num < st.maxNum {
			p.Report(diag.Diagnostic{
				Range: headerRange(e), Event: e.ID,
				Message: e.ID + " comes after " + st.maxID + ": IDs must increase in file order",
				Related: []diag.Range{st.maxAt},
			})
		}
		if e.Num > st.maxNum {
			st.maxNum, st.maxID, st.maxAt = e.Num, e.ID, headerRange(e)
		}
	}}
}
