package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS110",
		Name:  "time-order",
		Title: "timestamps never go backwards",
		Doc: "Each event happens no earlier than the one before it. A timestamp earlier than " +
			"its predecessor's usually means a wrong clock or a typo in the date, and it puts " +
			"the event in the wrong place in context.md's window. A date-only timestamp is " +
			"compared by its date alone. Check the clock of the agent that wrote it. After a merge of " +
			"branches that appended at the same time, one branch's events follow the other's and may " +
			"be earlier: that is expected (docs/convergence.md), and the warning can be left.",
		Bad:      "### evt-012 | 2025-03-02 10:00 | ...\n### evt-013 | 2025-03-01 09:00 | ...",
		Good:     "### evt-012 | 2025-03-02 10:00 | ...\n### evt-013 | 2025-03-02 11:00 | ...",
		Severity: diag.Warning,
		Visit:    visitTimeOrder,
	})
}

func visitTimeOrder(p *Pass) Visitor {
	// prev is the latest event so far: its ID, time and heading, copied
	// because the event itself is not kept.
	type latest struct {
		id   string
		time parse.Time
		at   diag.Range
	}
	var st struct {
		prev latest
		have bool
	}
	return Visitor{State: &st, Event: func(e *parse.Event) {
		if e.Time.IsZero() {
			return
		}
		if st.have && earlier(e.Time, st.prev.time) {
			p.Report(diag.Diagnostic{
				Range: headerRange(e), Event: e.ID,
				Message: e.ID + " at " + e.Time.String() + " is earlier than " + st.prev.id + " at " +
					st.prev.time.String() + ": check the clock or the date, unless a merge put it after another branch's events",
				Related: []diag.Range{st.prev.at},
			})
		}
		if !st.have || !earlier(e.Time, st.prev.time) {
			st.prev, st.have = latest{e.ID, e.Time, headerRange(e)}, true
		}
	}}
}

// earlier reports whether a is before b; a date-only stamp has no time
// of day, so it is compared by date alone.
func earlier(a, b parse.Time) bool {
	if a.DateOnly || b.DateOnly {
		return a.Key()/10000 < b.Key()/10000
	}
	return a.Key() < b.Key()
}
