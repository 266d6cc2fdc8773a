//go:build unix

package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/io/gitx"
)

// costStep is one process BenchmarkCost times in every iteration.
type costStep struct {
	name string
	args func(dir string, i int) []string
}

// stepEnv is added to the environment of the steps it names.
var stepEnv = map[string][]string{
	"lint-small-pages":              {"GODEBUG=disablethp=1"},
	"lint-after-append-small-pages": {"GODEBUG=disablethp=1"},
}

// samePages names, for each small-pages step, the step it repeats with
// huge pages: their outputs must be the same bytes.
var samePages = map[string]string{
	"lint-small-pages":              "lint",
	"lint-after-append-small-pages": "lint-after-append",
}

// stepBefore runs, untimed, before the steps it names: the two lints
// after an append see the same cache (the first one writes its result
// and may move its checkpoint).
var stepBefore = map[string]func(b *testing.B, dir string){
	"lint-after-append":             func(b *testing.B, dir string) { copyCache(b, dir, true) },
	"lint-after-append-small-pages": func(b *testing.B, dir string) { copyCache(b, dir, false) },
	"lint-first":                    freshClone,
}

// freshClone makes the clone lint-first lints (cloneOf dir) the first
// time, and empties its history cache every time: what a CI job's
// checkout is.
func freshClone(b *testing.B, dir string) {
	c := cloneOf(dir)
	if _, err := os.Stat(c); os.IsNotExist(err) {
		if _, err := (&gitx.Git{Dir: dir}).Run(context.Background(), "clone", "-q", dir, c); err != nil {
			b.Fatalf("git clone: %v", err)
		}
	}
	if err := os.RemoveAll(filepath.Join(c, ".git", "memsys-cache")); err != nil {
		b.Fatal(err)
	}
}

// cloneOf is where lint-first's clone of the repository dir lives:
// inside its git directory, so that the benchmark's temporary folder
// removes it and git status in dir never sees it.
func cloneOf(dir string) string { return filepath.Join(dir, ".git", "bench-clone") }

// copyCache saves the repository's history cache (.git/memsys-cache)
// beside it, or puts the saved copy back.
func copyCache(b *testing.B, dir string, save bool) {
	cache, saved := filepath.Join(dir, ".git", "memsys-cache"), filepath.Join(dir, ".git", "memsys-cache-saved")
	from, to := cache, saved
	if !save {
		from, to = saved, cache
	}
	if err := os.RemoveAll(to); err != nil {
		b.Fatal(err)
	}
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		b.Fatal(err)
	}
}

// costSteps run in this order in every iteration, on one repository:
// the floors (git status, grep), start-up, then memsys cold and warm,
// and an append followed by the warm check it leaves behind. The
// untimed "regen" at the end makes the derived files current again and
// refreshes the history cache's checkpoint, so every iteration starts
// from the same state.
var costSteps = []costStep{
	{"git-status", func(d string, _ int) []string { return []string{"git", "-C", d, "status"} }},
	{"grep", func(d string, _ int) []string {
		return []string{"grep", "-c", "^### evt-", filepath.Join(d, "CHANGELOG.md")}
	}},
	{"version", func(string, int) []string { return []string{memsysBin, "--version"} }},
	{"help", func(string, int) []string { return []string{memsysBin, "--help"} }},
	// lint is cold: --no-cache, since the lint cache would otherwise
	// resume it from the checkpoint (lint-resumed measures that).
	{"lint", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "--no-cache", "lint"} }},
	// lint-small-pages is the cold lint without the huge pages a
	// short-lived command advises for a long history's heap
	// (GODEBUG=disablethp=1 turns the advice off): the ratio of the two
	// is what the advice saves.
	{"lint-small-pages", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "--no-cache", "lint"} }},
	// lint-first is the first lint of a fresh clone of the committed
	// repository (freshClone), as a CI job runs it: the cache is empty,
	// so it lints cold and also writes the result and the checkpoint a
	// later lint resumes from, which --no-cache lint leaves out.
	{"lint-first", func(d string, _ int) []string { return []string{memsysBin, "-C", cloneOf(d), "lint"} }},
	// lint-resumed lints after regen rewrote the derived files: the
	// result cannot answer, the Session resumes from the lint
	// checkpoint (the first iteration writes it) with the events
	// appended since. It leaves the result for lint-warm.
	{"lint-resumed", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "lint"} }},
	// lint-warm lints again with nothing changed: the result cache.
	{"lint-warm", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "lint"} }},
	{"regen-check-cold", func(d string, _ int) []string {
		return []string{memsysBin, "-C", d, "--no-cache", "regen", "--check"}
	}},
	{"regen-check-warm", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "regen", "--check"} }},
	{"status", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "status"} }},
	{"status-cold", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "--no-cache", "status"} }},
	{"append", func(d string, i int) []string {
		return []string{memsysBin, "-C", d, "append", "--type", "test", "--scope", "bench",
			"--summary", "cost iteration " + strconv.Itoa(i), "--agent", "bench",
			"--detail", "target=bench", "--detail", "result=pass", "--time", "2099-01-01 00:00"}
	}},
	// lint-after-append lints the log with the event just appended:
	// resumed from the lint checkpoint. It writes only lint entries, so
	// the regen --check after it still sees the replay cache as the
	// append left it.
	{"lint-after-append", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "lint"} }},
	// lint-after-append-small-pages is lint-after-append again, on the
	// cache as the append left it (stepBefore puts it back), without
	// huge pages: the ratio of the two is what the advice saves there.
	{"lint-after-append-small-pages", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "lint"} }},
	{"regen-check-after-append", func(d string, _ int) []string {
		return []string{memsysBin, "-C", d, "regen", "--check"}
	}},
	{"regen", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "regen"} }},
}

// readSteps are the README's commands that only read the memory. Issue
// 15 holds each to 3× git status at 1k events, so BenchmarkCost runs
// them at 1k only (where start-up dominates), just before "append":
// they change nothing, and all read the log the others read.
var readSteps = []costStep{
	{"show", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "show", "evt-500"} }},
	{"log", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "log"} }},
	{"graph", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "graph"} }},
	{"recall", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "recall", readEntity} }},
	{"loops", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "loops"} }},
	{"report", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "report"} }},
	{"snapshot", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "snapshot", readEntity} }},
	{"export", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "export"} }},
	{"audit", func(d string, _ int) []string { return []string{memsysBin, "-C", d, "audit"} }},
}

// floorSteps are the start-up floors, timed at 1k beside --version: a
// Go program that prints a line, and one that also links (and so
// initialises) goldmark, go-diff and urfave/cli. memsys --version
// cannot start faster than the second.
var floorSteps = []costStep{
	{"go-hello", func(string, int) []string { return []string{filepath.Join(floorBin, "floor-hello")} }},
	{"go-deps", func(string, int) []string { return []string{filepath.Join(floorBin, "floor-deps")} }},
}

// readEntity is an entity of the generated log (loggen, seed 1) that
// recall and snapshot look up.
const readEntity = "upload_handler"

// stepsAt returns the steps BenchmarkCost runs at n events: costSteps,
// with the floors before "version" and readSteps before "append" at 1k.
func stepsAt(n int) []costStep {
	if n != 1000 {
		return costSteps
	}
	v := slices.IndexFunc(costSteps, func(s costStep) bool { return s.name == "version" })
	i := slices.IndexFunc(costSteps, func(s costStep) bool { return s.name == "append" })
	return slices.Concat(costSteps[:v], floorSteps, costSteps[v:i], readSteps, costSteps[i:])
}

// costRepo is a fresh repository holding the n-event log, regenerated
// (which also writes the history cache's checkpoint) and committed.
func costRepo(b *testing.B, n int) string { return benchRepo(b, n, nil) }

// benchRepo is a fresh repository holding the n-event log and the other
// files given (by path from the root), with a .memory folder,
// regenerated and committed.
func benchRepo(b *testing.B, n int, files map[string][]byte) string {
	src, _ := logOf(b, n)
	d := b.TempDir()
	if err := os.MkdirAll(filepath.Join(d, ".memory"), 0o755); err != nil {
		b.Fatal(err)
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(d, name), body, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d, "CHANGELOG.md"), src, 0o644); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{
		{"git", "-C", d, "init", "-q"},
		{memsysBin, "-C", d, "regen"},
		{"git", "-C", d, "add", "-A"},
		{"git", "-C", d, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "bench log"},
	} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	return d
}

// BenchmarkCost measures issue 15's targets as ratios of median CPU
// times (user + system), every process of every step run once per
// iteration in the same order, so a burst of load on the host hits the
// steps of an iteration alike (as BenchmarkPaired does in process). It reports, at each size, each
// step's median against git status and grep -c, and the ratios the
// issue names; at the end (1k and 100k both measured) how flat append
// is.
func BenchmarkCost(b *testing.B) {
	buildMemsys(b)
	med := map[int]map[string]float64{}
	for _, n := range []int{1000, 100000} {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			dir := costRepo(b, n)
			steps := stepsAt(n)
			times, cpus := map[string][]float64{}, map[string][]float64{}
			outs := map[string][]byte{} // each step's output in this iteration
			b.ResetTimer()
			for i := range b.N {
				for _, s := range steps {
					if before := stepBefore[s.name]; before != nil {
						before(b, dir)
					}
					args := s.args(dir, i)
					cmd := exec.Command(args[0], args[1:]...)
					if env := stepEnv[s.name]; env != nil {
						cmd.Env = append(os.Environ(), env...)
					}
					start := time.Now()
					out, err := cmd.CombinedOutput()
					d := float64(time.Since(start))
					if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
						b.Fatalf("%s: %v: %s", s.name, err, out)
					}
					if twin, ok := samePages[s.name]; ok && string(out) != string(outs[twin]) {
						b.Fatalf("%s printed other findings than %s: huge pages changed a result", s.name, twin)
					}
					outs[s.name] = out
					times[s.name] = append(times[s.name], d)
					ps := cmd.ProcessState
					cpus[s.name] = append(cpus[s.name], float64(ps.UserTime()+ps.SystemTime()))
				}
			}
			b.StopTimer()
			// The ratios use CPU time (user + system of the process and
			// its children): on a shared host wall time mostly measures
			// the wait for a core. Wall medians are reported beside.
			m, wall := map[string]float64{}, map[string]float64{}
			for name := range times {
				m[name], wall[name] = median(cpus[name]), median(times[name])
			}
			med[n] = m
			for _, s := range steps {
				b.ReportMetric(m[s.name]/1e6, s.name+"-cpu-ms")
				b.ReportMetric(wall[s.name]/1e6, s.name+"-wall-ms")
			}
			for _, name := range []string{"version", "help", "lint", "lint-first", "lint-warm", "regen-check-cold", "regen-check-warm", "status", "append", "regen"} {
				b.ReportMetric(m[name]/m["git-status"], name+"-x-git-status")
			}
			if n == 1000 {
				for _, s := range slices.Concat(floorSteps, readSteps) {
					b.ReportMetric(m[s.name]/m["git-status"], s.name+"-x-git-status")
				}
			}
			b.ReportMetric(m["append"]/m["lint"], "append-x-lint")
			b.ReportMetric(m["status"]/m["lint"], "status-x-lint")
			b.ReportMetric(m["status-cold"]/m["lint"], "status-cold-x-lint")
			b.ReportMetric(m["regen-check-warm"]/m["grep"], "check-warm-x-grep")
			b.ReportMetric(m["regen-check-after-append"]/m["grep"], "check-appended-x-grep")
			b.ReportMetric(m["lint"]/m["grep"], "lint-x-grep")
			b.ReportMetric(m["lint"]/m["lint-small-pages"], "lint-x-small-pages")
			b.ReportMetric(m["lint-after-append"]/m["lint-after-append-small-pages"], "lint-appended-x-small-pages")
			b.ReportMetric(m["lint-warm"]/m["grep"], "lint-warm-x-grep")
			b.ReportMetric(m["lint-after-append"]/m["grep"], "lint-appended-x-grep")
			b.ReportMetric(m["lint-resumed"]/m["grep"], "lint-resumed-x-grep")
		})
	}
	if a, c := med[1000], med[100000]; a != nil && c != nil {
		b.Logf("append 100k / append 1k: %.2f", c["append"]/a["append"])
		b.ReportMetric(c["append"]/a["append"], "append-100k-x-1k")
	}
}

// BenchmarkAppendSupersedes measures append --supersedes, whose check
// against the history's Supersedes fields (MS126) reads them from the
// history cache's checkpoint and the events after it, against a plain
// append and the same check without the cache (--no-cache: a parse of
// the whole history), at 1k and 100k events in one run: each iteration
// appends an event, corrects it (cached), corrects the correction
// (cold), each a process timed by its CPU time, then runs regen
// untimed, as an agent's append --regen would, so every iteration
// starts from a checkpoint that covers the log. It reports each
// step's median, the ratios to a plain append, and at the end each
// step's 100k / 1k: a flat append --supersedes stays near the plain
// append's.
func BenchmarkAppendSupersedes(b *testing.B) {
	buildMemsys(b)
	steps := []string{"append", "append-supersedes", "append-supersedes-cold"}
	med := map[int]map[string]float64{}
	for _, n := range []int{1000, 100000} {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			dir := costRepo(b, n)
			times, cpus := map[string][]float64{}, map[string][]float64{}
			run := func(name string, args ...string) string {
				cmd := exec.Command(memsysBin, append([]string{"-C", dir}, args...)...)
				start := time.Now()
				out, err := cmd.CombinedOutput()
				d := float64(time.Since(start))
				if err != nil {
					b.Fatalf("%s: %v: %s", name, err, out)
				}
				if name != "" {
					times[name] = append(times[name], d)
					ps := cmd.ProcessState
					cpus[name] = append(cpus[name], float64(ps.UserTime()+ps.SystemTime()))
				}
				return strings.TrimSpace(string(out))
			}
			ev := func(i int, extra ...string) []string {
				return append([]string{"append", "--type", "test", "--scope", "bench",
					"--summary", "supersedes iteration " + strconv.Itoa(i), "--agent", "bench",
					"--detail", "target=bench", "--detail", "result=pass", "--time", "2099-01-01 00:00"}, extra...)
			}
			b.ResetTimer()
			for i := range b.N {
				id := run("append", ev(i)...)
				id = run("append-supersedes", ev(i, "--supersedes", id)...)
				run("append-supersedes-cold", append([]string{"--no-cache"}, ev(i, "--supersedes", id)...)...)
				b.StopTimer()
				run("", "regen")
				b.StartTimer()
			}
			b.StopTimer()
			m := map[string]float64{}
			for _, s := range steps {
				m[s] = median(cpus[s])
				b.ReportMetric(m[s]/1e6, s+"-cpu-ms")
				b.ReportMetric(median(times[s])/1e6, s+"-wall-ms")
			}
			med[n] = m
			b.ReportMetric(m["append-supersedes"]/m["append"], "supersedes-x-append")
			b.ReportMetric(m["append-supersedes-cold"]/m["append"], "supersedes-cold-x-append")
		})
	}
	if a, c := med[1000], med[100000]; a != nil && c != nil {
		for _, s := range steps {
			b.Logf("%s 100k / 1k: %.2f", s, c[s]/a[s])
			b.ReportMetric(c[s]/a[s], s+"-100k-x-1k")
		}
	}
}
