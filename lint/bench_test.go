package lint

import (
	"fmt"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// BenchmarkLint compares, in one run, lint of a generated log (parse,
// replay and every rule, derived files absent) with parse plus replay
// alone, the work regen does before rendering. The budget is
// lint/parse+replay <= 1.3 on the 100k log; the ratio is reported as a
// metric rather than asserted, since timing assertions flake.
func BenchmarkLint(b *testing.B) {
	l, err := New(config.Default())
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 10000, 100000} {
		src := loggen.Generate(n, 1)
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			var base, full time.Duration
			for b.Loop() {
				t0 := time.Now()
				lg := parse.Parse("CHANGELOG.md", src)
				materialize.Replay(lg.Events)
				t1 := time.Now()
				lg = parse.Parse("CHANGELOG.md", src)
				files := memFS{"AGENTS.md": []byte("## Memory System Protocol\n")}
				l.Check(Input{Log: lg, Events: lg.Events, ReadFile: files.read, Exists: files.exists})
				t2 := time.Now()
				base += t1.Sub(t0)
				full += t2.Sub(t1)
			}
			b.ReportMetric(float64(full)/float64(base), "lint/parse+replay")
		})
	}
}
