package converge

import (
	"fmt"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// BenchmarkMerge merges two branches that each appended 5 events to a
// log of n events, beside parsing the three versions (the least any
// record-aware merge must do): x-parse3 is merge time / parse time.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		anc := loggen.Generate(n, 1)
		ours := loggen.Generate(n+5, 1)
		// theirs' 5 events carry other text under ours' new IDs, the
		// second and later referring to the one before
		theirs := append([]byte(nil), anc...)
		for i := 1; i <= 5; i++ {
			theirs = fmt.Appendf(theirs, "\n---\n\n### %s | 2030-01-01 10:00 | bench | create\n\n**Scope**: s\n**Summary**: theirs %d\n\n**Refs**: %s\n",
				loggen.ID(n+i), i, loggen.ID(n+i-1))
		}
		in := Input{Path: "CHANGELOG.md", Ancestor: anc, Ours: ours, Theirs: theirs}
		if r, err := Merge(in); err != nil || len(r.Conflicts) > 0 || len(r.Renumbered) == 0 {
			b.Fatalf("merge: %v %v %d", err, r.Conflicts, len(r.Renumbered))
		}
		// Each iteration parses the three versions and merges them,
		// one after the other, so both see the same machine load and
		// the ratio holds on a busy machine.
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			var parse3, merge time.Duration
			for b.Loop() {
				t0 := time.Now()
				parse.Parse("a", anc, parse.HeadersOnly())
				parse.Parse("o", ours, parse.HeadersOnly())
				parse.Parse("t", theirs, parse.HeadersOnly())
				t1 := time.Now()
				Merge(in)
				parse3, merge = parse3+t1.Sub(t0), merge+time.Since(t1)
			}
			b.ReportMetric(float64(merge.Nanoseconds())/float64(b.N), "merge-ns/op")
			b.ReportMetric(float64(merge)/float64(parse3), "x-parse3")
		})
	}
}
