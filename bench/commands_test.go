//go:build unix

package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
)

// envPeakExec makes the peak child run a command instead of an op: the
// child is a fresh process with a small footprint, so the Maxrss of its
// own child is the command's peak and not the benchmark's (see hwm).
const envPeakExec = "MEMSYS_BENCH_PEAK_EXEC"

// A command is one memsys invocation measured as a whole process,
// start-up included: what a hook or an agent pays.
type command struct {
	name string
	args func(dir string, i int) []string // i numbers iterations, for append
	ok   func(code int) bool
}

func exit01(code int) bool { return code == 0 || code == 1 }
func exit0(code int) bool  { return code == 0 }

// commands lists the measured invocations; git-status is the yardstick
// of issue 6 (at 1k events every command ≤ 3× git status). append runs
// last because it grows the log.
var commands = []command{
	{"git-status", func(dir string, _ int) []string { return []string{"git", "-C", dir, "status"} }, exit0},
	{"regen", func(dir string, _ int) []string { return []string{memsysBin, "-C", dir, "regen"} }, exit0},
	{"regen-check", func(dir string, _ int) []string { return []string{memsysBin, "-C", dir, "regen", "--check"} }, exit0},
	{"lint", func(dir string, _ int) []string { return []string{memsysBin, "-C", dir, "lint"} }, exit01},
	{"lint-base", func(dir string, _ int) []string {
		return []string{memsysBin, "-C", dir, "lint", "--base", "HEAD"}
	}, exit01},
	{"status", func(dir string, _ int) []string { return []string{memsysBin, "-C", dir, "status"} }, exit0},
	{"append", func(dir string, i int) []string {
		return []string{memsysBin, "-C", dir, "append", "--type", "test", "--scope", "bench",
			"--summary", "benchmark iteration " + strconv.Itoa(i), "--agent", "bench",
			"--detail", "target=bench", "--detail", "result=pass", "--time", "2099-01-01 00:00"}
	}, exit0},
}

var (
	memsysBin string
	floorBin  string // folder of the start-up floors (testdata/floor)
	buildOnce sync.Once
	buildErr  error
	reposMu   sync.Mutex
	repos     = map[int]string{}
)

// buildMemsys builds memsys once per test process exactly as the
// README's install does (go install .../cmd/...: memsys and memsys-mcp
// into one folder, default flags), so start-up is measured on the
// binary users run.
func buildMemsys(tb testing.TB) {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "memsys-bench-bin-")
		if err != nil {
			buildErr = err
			return
		}
		memsysBin = filepath.Join(dir, "memsys")
		cmd := exec.Command("go", "install", "github.com/memsys/memsys/cmd/...")
		cmd.Env = append(os.Environ(), "GOBIN="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		// The start-up floors BenchmarkCost times at 1k events.
		for _, f := range []string{"hello", "deps"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "floor-"+f), "./testdata/floor/"+f).CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build floor %s: %v\n%s", f, err, out)
				return
			}
		}
		floorBin = dir
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
}

// repoOf returns a git repository whose CHANGELOG.md holds the n-event
// log, regenerated and committed, so lint finds it clean and status is
// a steady state.
func repoOf(tb testing.TB, n int) string {
	reposMu.Lock()
	defer reposMu.Unlock()
	if d, ok := repos[n]; ok {
		return d
	}
	src, _ := logOf(tb, n)
	d, err := os.MkdirTemp("", "memsys-bench-repo-")
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "CHANGELOG.md"), src, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(d, ".memory"), 0o755); err != nil {
		tb.Fatal(err)
	}
	git := func(args ...string) {
		g := &gitx.Git{Dir: d}
		if out, err := g.Run(context.Background(), append([]string{"-c", "user.name=bench", "-c", "user.email=bench@example.com"}, args...)...); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	exec.Command(memsysBin, "-C", d, "regen").Run() // best effort: regen may not exist yet
	git("add", "-A")
	git("commit", "-q", "-m", "bench log")
	repos[n] = d
	return d
}

// BenchmarkCommands runs each memsys command as a process on a
// repository holding the generated log. ns/event and x-goldmark are as
// in BenchmarkOps; x-git-status compares with `git status` on the same
// repository in the same run.
func BenchmarkCommands(b *testing.B) {
	buildMemsys(b)
	for _, n := range sizes() {
		b.Run("events="+strconv.Itoa(n), func(b *testing.B) {
			for _, c := range commands {
				b.Run(c.name, func(b *testing.B) { benchCommand(b, c, n) })
			}
		})
	}
}

func benchCommand(b *testing.B, c command, n int) {
	dir := repoOf(b, n)
	k := key{"cmd:" + c.name, n}
	// One untimed run first: the timed ones then find the page cache
	// and the history cache warm.
	if code, out := runCmd(c.args(dir, 0)); !c.ok(code) {
		b.Fatalf("%s exited %d: %s", c.name, code, out)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code, out := runCmd(c.args(dir, i+1)); !c.ok(code) {
			b.Fatalf("%s exited %d: %s", c.name, code, out)
		}
	}
	b.StopTimer()
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	resMu.Lock()
	nsPerOp[k] = ns
	gs, haveGS := nsPerOp[key{"cmd:git-status", n}]
	resMu.Unlock()
	b.ReportMetric(ns/float64(n), "ns/event")
	b.ReportMetric(ns/baseline(b, n), "x-goldmark")
	if haveGS && c.name != "git-status" {
		b.ReportMetric(ns/gs, "x-git-status")
	}
	if os.Getenv("MEMSYS_BENCH_NOPEAK") == "" {
		mb := peakCmd(b, k, c.args(dir, b.N+1))
		b.ReportMetric(mb, "peak-MB")
		b.ReportMetric(mb/peak(b, "goldmark", n), "peak-x-goldmark")
	}
}

func runCmd(args []string) (int, []byte) {
	cmd := exec.Command(args[0], args[1:]...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out
		}
		return -1, append(out, err.Error()...)
	}
	return 0, out
}

func peakCmd(b *testing.B, k key, args []string) float64 {
	resMu.Lock()
	mb, ok := peaks[k]
	resMu.Unlock()
	if ok {
		return mb
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envPeakExec+"="+strings.Join(args, "\x1f"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("peak child %v: %v: %s", args, err, stderr.String())
	}
	var kb int64
	if _, err := fmt.Sscanf(string(out), "peak-kB %d", &kb); err != nil {
		b.Fatalf("peak child %v: output %q: %v", args, out, err)
	}
	mb = float64(kb) / 1024
	resMu.Lock()
	peaks[k] = mb
	resMu.Unlock()
	return mb
}

// peakExec runs args and prints the command's peak RSS. This process
// is small, so the high-water mark Linux carries across exec is ours,
// a few MB, and Maxrss is the command's own peak whenever that is
// larger.
func peakExec(joined string) int {
	args := strings.Split(joined, "\x1f")
	cmd := exec.Command(args[0], args[1:]...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			fmt.Fprintf(os.Stderr, "%v: %s\n", err, out)
			return 2
		}
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "no rusage on this platform")
		return 2
	}
	fmt.Printf("peak-kB %d\n", ru.Maxrss) // Linux reports KiB
	return 0
}
