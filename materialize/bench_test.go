package materialize

import (
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/base/pipe"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// BenchmarkSemanticsCost measures what issue 12 adds to regen
// (supersession with its prediction from the bytes, open loops,
// priorities and decay, conflicts, the two new sections) as a ratio to
// regen without them, in the same run: every iteration runs both, one
// after the other, on a generated log that uses the new fields
// (loggen.GenerateSemantic), and the metric is the ratio of the median
// times. The "before" side is the same code with Replayer.legacy set,
// which skips exactly the new work. MEMSYS_BENCH_EVENTS sets the size
// (default 100,000).
func BenchmarkSemanticsCost(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("MEMSYS_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	src := loggen.GenerateSemantic(n, 1)
	regen := func(legacy bool) {
		x := NewReplayer(DefaultOptions())
		x.legacy, x.r.legacy, x.d.legacy = legacy, legacy, legacy
		if !legacy {
			x.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
		}
		w := pipe.Start(asyncBatch, func(e *parse.Event) { x.Apply(e) })
		parse.Stream("CHANGELOG.md", src, w.Add)
		w.Wait()
		if !legacy && !x.Exact() {
			b.Fatal("prediction failed on the generated log")
		}
		x.Render()
	}
	var before, after []float64
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		regen(true)
		before = append(before, float64(time.Since(start)))
		start = time.Now()
		regen(false)
		after = append(after, float64(time.Since(start)))
	}
	b.StopTimer()
	b.ReportMetric(med(after)/med(before), "new-x-before")
	b.ReportMetric(med(before)/1e6, "before-ms")
	b.ReportMetric(med(after)/1e6, "new-ms")
}

func med(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkReplay measures the replay goroutine's share of regen alone:
// the events are parsed once, before the timer, and each iteration
// applies them to a new Replayer and renders the sealed files. In
// regen the parser and the replay run side by side, so on an idle
// machine regen's wall time is the larger of the two; this is the
// number to profile when the replay is that one.
func BenchmarkReplay(b *testing.B) {
	n := 100_000
	if v, err := strconv.Atoi(os.Getenv("MEMSYS_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	src := loggen.Generate(n, 1)
	log := parse.Parse("CHANGELOG.md", src)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for range b.N {
		x := NewReplayer(DefaultOptions())
		for i := range log.Events {
			x.Apply(&log.Events[i])
		}
		x.Files()
	}
}

// BenchmarkSourceDigest measures the SourceHasher alone over a
// generated log (MEMSYS_BENCH_EVENTS events, 1,000 by default): every
// regen, lint and status digests each event's text once.
func BenchmarkSourceDigest(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("MEMSYS_BENCH_EVENTS")); err == nil && v > 0 {
		n = v
	}
	src := loggen.Generate(n, 1)
	log := parse.Parse("CHANGELOG.md", src)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		SourceDigest(log.Events, DefaultOptions())
	}
}
