//go:build unix

package bench

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// BenchmarkNewRules measures issue 12's lint rules (MS123-MS130, and
// turning content findings on superseded events into notes) against
// regen, in the same run: each iteration runs regen, lint with those
// rules off, and lint with them on, over a full-tier memory whose
// derived files are current and whose log uses the new fields
// (loggen.GenerateSemantic). The metric new-rules-x-regen is
// (median lint on − median lint off) / median regen. The replay's own
// new work is BenchmarkSemanticsCost in materialize. MEMSYS_BENCH_EVENTS
// sets the size (default 100,000).
func BenchmarkNewRules(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("MEMSYS_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	src := loggen.GenerateSemantic(n, 1)
	readFile, exists := currentMemory(src)
	cfg := config.Default()
	off := config.Default()
	for i := 123; i <= 130; i++ {
		off.Rules = append(off.Rules, config.RuleSetting{Rule: "MS" + strconv.Itoa(i), Severity: diag.Off})
	}
	linter := func(c config.Config) func() {
		l, err := lint.New(c)
		if err != nil {
			b.Fatal(err)
		}
		return func() {
			s := l.Start(lint.Input{LogFile: "CHANGELOG.md", ReadFile: readFile, Exists: exists})
			s.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
			sink = s.Finish(parse.Stream("CHANGELOG.md", src, s.Event), nil)
		}
	}
	works := []func(){func() { sink, _ = regen(src) }, linter(off), linter(cfg)}
	times := make([][]float64, len(works))
	b.ResetTimer()
	for it := range b.N {
		// Alternate the order of the two lints, so neither always runs
		// in the garbage the other left.
		order := []int{0, 1, 2}
		if it%2 == 1 {
			order = []int{0, 2, 1}
		}
		for _, i := range order {
			start := time.Now()
			works[i]()
			times[i] = append(times[i], float64(time.Since(start)))
		}
	}
	b.StopTimer()
	m := []float64{median(times[0]), median(times[1]), median(times[2])}
	b.ReportMetric((m[2]-m[1])/m[0], "new-rules-x-regen")
	b.ReportMetric(m[1]/m[0], "lint-off-x-regen")
	b.ReportMetric(m[2]/m[0], "lint-on-x-regen")
}
