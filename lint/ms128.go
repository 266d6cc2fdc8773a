package lint

import (
	"strconv"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
)

func init() {
	register(&Rule{
		ID:    "MS128",
		Name:  "open-loop-age",
		Title: "open loops are closed within the configured age",
		Doc: "A blocker, escalation or commitment stays open until a later event closes it: a " +
			"`fix` or `milestone` that Refs it, or any event with the detail `closes: evt-NNN`. " +
			"One open longer than `loops.maxAgeDays` (default 30), counted in days from its date " +
			"to the last event's date (never the clock), has probably been forgotten. Close it, " +
			"or supersede it if it no longer applies.",
		Bad:      "### evt-010 | 2026-01-02 09:00 | a | commitment\n- owner: a\n- due: 2026-01-09\n(no event closes evt-010 by 2026-03-01)",
		Good:     "### evt-031 | 2026-01-08 17:00 | a | milestone\n- name: docs shipped\n- closes: evt-010",
		Severity: diag.Warning,
		Counts:   true,
		Run: func(p *Pass) {
			g := p.shared.graph
			if g == nil {
				return
			}
			max := p.Config.LoopsMaxDays
			if max <= 0 {
				max = 30
			}
			old := func(l *materialize.Loop) (int, bool) {
				days, ok := l.AgeDays(g.HorizonTime())
				return days, ok && days > max
			}
			n := 0
			for _, l := range g.OpenLoops() {
				if _, ok := old(l); ok {
					n++
				}
			}
			p.reserve(n)
			for _, l := range g.OpenLoops() {
				days, ok := old(l)
				if !ok {
					continue
				}
				// Concatenated, not formatted: a long log has thousands
				// of open loops, and lint runs this after every append.
				p.Report(diag.Diagnostic{Range: l.Range, Event: l.ID, Message: l.ID + " (" + l.Type + ") has been open " +
					words.Plural(days, "day") + ", over " + strconv.Itoa(max) + ": close it (a fix or milestone that Refs it, or closes: " + l.ID + ") or supersede it"})
			}
		},
	})
}
