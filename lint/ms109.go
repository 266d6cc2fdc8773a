package lint

import (
	"github.com/memsys/memsys/internal/diag"
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
		Run:      runIDOrder,
	})
}

func runIDOrder(p *Pass) {
	maxNum, maxAt := 0, -1
	for i := range p.Events {
		e := &p.Events[i]
		if e.Num == 0 {
			continue
		}
		if e.Num < maxNum {
			o := &p.Events[maxAt]
			p.Report(diag.Diagnostic{
				Range: headerRange(e), Event: e.ID,
				Message: e.ID + " comes after " + o.ID + ": IDs must increase in file order",
				Related: []diag.Range{headerRange(o)},
			})
		}
		if e.Num > maxNum {
			maxNum, maxAt = e.Num, i
		}
	}
}
