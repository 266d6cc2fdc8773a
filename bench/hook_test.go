//go:build unix

package bench

import (
	"os/exec"
	"strconv"
	"testing"
)

// hookSteps are the lints a commit runs on a long log, each timed in
// every iteration of BenchmarkHook after one event was appended and
// staged: the pre-commit hook's lint --staged and CI's lint --base
// HEAD, through the cache and with --no-cache, beside a cold plain
// lint of the same files.
var hookSteps = []struct {
	name string
	args []string
}{
	{"lint-cold", []string{"--no-cache", "lint"}},
	{"staged", []string{"lint", "--staged"}},
	{"staged-cold", []string{"--no-cache", "lint", "--staged"}},
	{"base", []string{"lint", "--base", "HEAD"}},
	{"base-cold", []string{"--no-cache", "lint", "--base", "HEAD"}},
}

// BenchmarkHook measures lint --staged and lint --base HEAD on a
// 100k-event log with one event appended and staged since the last
// commit, as ratios of median CPU times (user + system, git's
// processes included) to a cold plain lint in the same iteration. Each
// iteration appends and stages an event (untimed), times the steps in
// order, and commits (untimed), so the next one's HEAD is the log the
// last hook saw: a hook's cache entries serve the next commit's.
// The first iteration starts with only the checkpoint regen left.
func BenchmarkHook(b *testing.B) {
	buildMemsys(b)
	dir := costRepo(b, 100000)
	run := func(args ...string) ([]byte, *exec.Cmd, error) {
		cmd := exec.Command(args[0], args[1:]...)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
			err = nil // findings
		}
		return out, cmd, err
	}
	cpus := map[string][]float64{}
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		for _, args := range [][]string{
			{memsysBin, "-C", dir, "append", "--type", "test", "--scope", "bench", "--summary", "hook iteration " + strconv.Itoa(i),
				"--agent", "bench", "--detail", "target=bench", "--detail", "result=pass", "--time", "2099-01-01 00:00"},
			{"git", "-C", dir, "add", "-A"},
		} {
			if out, _, err := run(args...); err != nil {
				b.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
		b.StartTimer()
		outs := map[string]string{}
		for _, s := range hookSteps {
			out, cmd, err := run(append([]string{memsysBin, "-C", dir}, s.args...)...)
			if err != nil {
				b.Fatalf("%s: %v\n%s", s.name, err, out)
			}
			outs[s.name] = string(out)
			ps := cmd.ProcessState
			cpus[s.name] = append(cpus[s.name], float64(ps.UserTime()+ps.SystemTime()))
		}
		// The cache decides the cost, never the findings.
		if outs["staged"] != outs["staged-cold"] || outs["base"] != outs["base-cold"] {
			b.Fatalf("iteration %d: a cached lint with revisions printed other findings than --no-cache", i)
		}
		b.StopTimer()
		if out, _, err := run("git", "-C", dir, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "hook "+strconv.Itoa(i)); err != nil {
			b.Fatalf("commit: %v\n%s", err, out)
		}
		b.StartTimer()
	}
	b.StopTimer()
	m := map[string]float64{}
	for _, s := range hookSteps {
		m[s.name] = median(cpus[s.name])
		b.ReportMetric(m[s.name]/1e6, s.name+"-cpu-ms")
	}
	for _, name := range []string{"staged", "staged-cold", "base", "base-cold"} {
		b.ReportMetric(m[name]/m["lint-cold"], name+"-x-lint")
	}
	b.ReportMetric(m["staged"]/m["staged-cold"], "staged-x-uncached")
	b.ReportMetric(m["base"]/m["base-cold"], "base-x-uncached")
}
