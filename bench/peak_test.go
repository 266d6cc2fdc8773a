//go:build unix

package bench

import (
	"strconv"
	"testing"
)

// coldSteps are the whole-history commands issue 15 holds to 0.15×
// goldmark's peak memory, run cold (--no-cache) as processes: what a
// user's first lint or regen --check of a long log costs.
var coldSteps = []costStep{
	{"lint", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "--no-cache", "lint"} }},
	{"regen-check", func(d string, _ int) []string {
		return []string{memsysBin, "-C", d, "--no-cache", "regen", "--check"}
	}},
}

// fullRepo is a fresh repository of the full tier holding the n-event
// log: AGENTS.md with the protocol section, TODO.md, both derived files
// regenerated, all committed. lint then runs every rule, the drift
// rules' replay and render included, as BenchmarkOps's lint op does.
func fullRepo(b *testing.B, n int) string {
	return benchRepo(b, n, map[string][]byte{
		"AGENTS.md":        []byte("# Agents\n\n## Memory System Protocol\n"),
		"TODO.md":          []byte("# TODO\n"),
		".memory/graph.md": nil, // present, so the tier is full; regen fills it
	})
}

// BenchmarkPeak measures the peak resident memory of cold lint and cold
// regen --check as processes on a full-tier repository, against
// goldmark's peak parsing the same log (BenchmarkOps's goldmark op in
// its own process). BenchmarkOps measures the same work in process;
// this is what the command costs, start-up, file reads and the cache
// it does not use included. The time per op is the command's wall time.
func BenchmarkPeak(b *testing.B) {
	buildMemsys(b)
	for _, n := range sizes() {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			dir := fullRepo(b, n)
			for _, s := range coldSteps {
				b.Run(s.name, func(b *testing.B) {
					args := s.args(dir, 0)
					for b.Loop() {
						if code, out := runCmd(args); !exit01(code) {
							b.Fatalf("%v exited %d: %s", args, code, out)
						}
					}
					mb := peakCmd(b, key{"cold:" + s.name, n}, args)
					b.ReportMetric(mb, "peak-MB")
					b.ReportMetric(mb/peak(b, "goldmark", n), "peak-x-goldmark")
				})
			}
		})
	}
}
