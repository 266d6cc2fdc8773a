package memory

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// BenchmarkAppendVsParse compares what append does to a 100k-event log
// (a headers-only parse, render, splice) with a full parse, the floor
// of what lint costs. The issue asks for append ≤ 0.1× a full lint;
// compare the two ns/op figures of one run. The atomic write (one
// sequential copy plus fsync) is not included: it is I/O, not CPU.
func BenchmarkAppendVsParse(b *testing.B) {
	src := genLog(100000, "\n---\n\n")
	d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-05-01 10:00"}
	b.Run("append", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			l := parse.Parse("CHANGELOG.md", src, parse.HeadersOnly())
			dd := d
			if err := Normalize(&dd, KnownIn(l)); err != nil {
				b.Fatal(err)
			}
			id, err := NextID(l)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := AppendEvent("CHANGELOG.md", src, l, Render(id, dd, "\n")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fullparse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			parse.Parse("CHANGELOG.md", src)
		}
	})
}

// BenchmarkLogTail compares memsys log -n 10 on a 100k-event log (31
// MB; LogLines, which reads the end of the log and scans the rest) with
// the whole-history answer (Log: parse everything, filter, keep the
// last 10), in one run: the ratio is of CPU-bound wall time per call,
// and the MB figures are bytes allocated per call.
func BenchmarkLogTail(b *testing.B) {
	benchLogTail(b, func(dir string, f LogFilter) ([]EventLine, int, error) {
		out, err := LogLines(dir, f)
		return out, -1, err
	})
}

// BenchmarkLogCounted is BenchmarkLogTail for memsys_log with limit 10
// (LogCounted: the end of the log, and the count of matches from the
// heading lines above it) against Log, whose count it must equal.
func BenchmarkLogCounted(b *testing.B) {
	benchLogTail(b, LogCounted)
}

// benchLogTail times tail (a matched of -1: not counted) against Log
// with Limit 10 on a 100k-event log, in one run.
func benchLogTail(b *testing.B, tail func(string, LogFilter) ([]EventLine, int, error)) {
	dir := b.TempDir()
	writeMemory(b, dir, loggen.Generate(100000, 1), nil)
	f := LogFilter{Limit: 10}
	var fast, whole time.Duration
	var fastAlloc, wholeAlloc uint64
	var m runtime.MemStats
	for b.Loop() {
		runtime.ReadMemStats(&m)
		a0, t0 := m.TotalAlloc, time.Now()
		out, matched, err := tail(dir, f)
		t1 := time.Now()
		runtime.ReadMemStats(&m)
		a1 := m.TotalAlloc
		want, wantMatched, err2 := Log(dir, f)
		t2 := time.Now()
		runtime.ReadMemStats(&m)
		if err != nil || err2 != nil || len(out) != 10 || out[9] != want[9] || matched != -1 && matched != wantMatched {
			b.Fatalf("tail %v, %d, %v; Log %d, %v", out, matched, err, wantMatched, err2)
		}
		fast, whole = fast+t1.Sub(t0), whole+t2.Sub(t1)
		fastAlloc, wholeAlloc = fastAlloc+a1-a0, wholeAlloc+m.TotalAlloc-a1
	}
	n := float64(b.N)
	b.ReportMetric(float64(fast.Microseconds())/1000/n, "tail-ms/op")
	b.ReportMetric(float64(whole.Microseconds())/1000/n, "whole-ms/op")
	b.ReportMetric(float64(fast)/float64(whole), "tail/whole")
	b.ReportMetric(float64(fastAlloc)/n/(1<<20), "tail-MB/op")
	b.ReportMetric(float64(wholeAlloc)/n/(1<<20), "whole-MB/op")
}

// BenchmarkReport times memsys report on a 1k-event memory of the full
// tier, regenerated, cold (--no-cache: a full parse and one lint
// Session that replays) and through the caches (the lint result, the
// replay resumed from the history cache, a headers-only parse), the
// two alternating in one loop so that load on the host hits both
// alike: cached/cold is issue 15's saving in process.
func BenchmarkReport(b *testing.B) {
	dir := b.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	writeMemory(b, dir, loggen.Generate(1000, 1), nil)
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Agents\n\n## Memory System Protocol\n\n**Tier**: full\n"), 0o644)
	if _, err := regenCfg(dir, true); err != nil {
		b.Fatal(err)
	}
	report := func(cached bool) (*Report, time.Duration) {
		defer useCache(cached)()
		t0 := time.Now()
		r, err := BuildReport(dir)
		if err != nil {
			b.Fatal(err)
		}
		return r, time.Since(t0)
	}
	report(true) // writes the caches
	var cold, cached time.Duration
	for b.Loop() {
		rc, dc := report(false)
		rw, dw := report(true)
		if rc.Markdown() != rw.Markdown() {
			b.Fatal("the cached report differs from the cold one")
		}
		cold, cached = cold+dc, cached+dw
	}
	n := float64(b.N)
	b.ReportMetric(float64(cold.Microseconds())/1000/n, "cold-ms/op")
	b.ReportMetric(float64(cached.Microseconds())/1000/n, "cached-ms/op")
	b.ReportMetric(float64(cached)/float64(cold), "cached/cold")
}
