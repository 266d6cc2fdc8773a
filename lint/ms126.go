package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS126",
		Name:  "superseded-twice",
		Title: "no event is superseded by two live events",
		Doc: "Two corrections of the same event, neither superseding the other, leave two " +
			"versions of the truth: typically two agents corrected the same fact on two " +
			"branches. Supersede the first correction with the second (name both the original " +
			"and the first correction in the second's Supersedes), or merge them into one new " +
			"event that supersedes both. A correction that a later event supersedes no longer " +
			"counts.",
		Bad:      "### evt-007 | ... | decision\n**Supersedes**: evt-003\n### evt-009 | ... | decision\n**Supersedes**: evt-003",
		Good:     "### evt-009 | ... | decision\n**Supersedes**: evt-003, evt-007",
		Severity: diag.Error,
		Run:      runSupersededTwice,
	})
}

func runSupersededTwice(p *Pass) {
	live := liveEdges(p.shared)
	first := map[int]supEdge{} // superseded event number → its first live superseder
	for i, e := range p.shared.sups {
		if !live[i] {
			continue
		}
		for _, t := range e.sp.Targets {
			n := evtNum(t)
			if n == 0 || n == evtNum(e.sp.ID) {
				continue
			}
			if f, ok := first[n]; ok && f.sp.ID != e.sp.ID {
				p.Report(diag.Diagnostic{Range: e.at, Event: e.sp.ID,
					Message: e.sp.ID + " supersedes " + t + ", which " + f.sp.ID + " (" + where(f.at, e.at.File) + ") already supersedes: add " + f.sp.ID + " to " + e.sp.ID + "'s Supersedes, or supersede only " + f.sp.ID,
					Related: []diag.Range{f.at}})
				continue
			}
			first[n] = e
		}
	}
}
