package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS125",
		Name:  "supersede-cycle",
		Title: "no events supersede each other in a cycle",
		Doc: "When evt-A supersedes evt-B and evt-B (directly or through others) supersedes " +
			"evt-A, no event can say which of them holds. Only a Supersedes naming a later event " +
			"makes a cycle (MS124 reports it too); the replay ignores such names, but the log " +
			"contradicts itself. Remove the cycle: append one event that supersedes the ones " +
			"that are wrong.",
		Bad:      "### evt-003 | ... | decision\n**Supersedes**: evt-005\n### evt-005 | ... | decision\n**Supersedes**: evt-003",
		Good:     "### evt-005 | ... | decision\n**Supersedes**: evt-003",
		Severity: diag.Error,
		Run:      runSupersedeCycle,
	})
}

// runSupersedeCycle follows the Supersedes names from each event and
// reports each cycle once, at its first event in the history.
func runSupersedeCycle(p *Pass) {
	sups := p.shared.sups
	next := map[int][]int{} // event number → numbers it supersedes
	where := map[int]supEdge{}
	for _, e := range sups {
		n := evtNum(e.sp.ID)
		if n == 0 {
			continue
		}
		if _, ok := where[n]; !ok {
			where[n] = e
		}
		for _, t := range e.sp.Targets {
			if m := evtNum(t); m != 0 && m != n {
				next[n] = append(next[n], m)
			}
		}
	}
	reported := map[int]bool{}
	for _, e := range sups {
		start := evtNum(e.sp.ID)
		if start == 0 || reported[start] {
			continue
		}
		// Depth-first search for a path back to start.
		var path []string
		seen := map[int]bool{}
		var walk func(n int) bool
		walk = func(n int) bool {
			for _, m := range next[n] {
				if m == start {
					path = append(path, where[n].sp.ID)
					return true
				}
				if seen[m] {
					continue
				}
				seen[m] = true
				if walk(m) {
					path = append(path, where[n].sp.ID)
					return true
				}
			}
			return false
		}
		if !walk(start) {
			continue
		}
		// path holds the cycle backwards, from the event naming start.
		cycle := []string{e.sp.ID}
		for i := len(path) - 2; i >= 0; i-- {
			cycle = append(cycle, path[i])
		}
		cycle = append(cycle, e.sp.ID)
		for _, id := range cycle {
			reported[evtNum(id)] = true
		}
		p.Reportf(e.at, e.sp.ID, "%s is in a supersession cycle (%s): keep one correction and remove the others' Supersedes", e.sp.ID, list(cycle))
	}
}
