package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
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

// runSupersededTwice reports materialize.SupersededTwice, the one
// definition of a second live correction, which append also refuses.
func runSupersededTwice(p *Pass) {
	sups := p.shared.sups
	edges := make([]parse.Supersession, len(sups))
	for i, e := range sups {
		edges[i] = e.sp
	}
	for _, tw := range materialize.SupersededTwice(edges) {
		e, f, t := sups[tw.Edge], sups[tw.First], tw.Target
		p.Report(diag.Diagnostic{Range: e.at, Event: e.sp.ID,
			Message: e.sp.ID + " supersedes " + t + ", which " + f.sp.ID + " (" + where(f.at, e.at.File) + ") already supersedes: add " + f.sp.ID + " to " + e.sp.ID + "'s Supersedes, or supersede only " + f.sp.ID,
			Related: []diag.Range{f.at}})
	}
}
