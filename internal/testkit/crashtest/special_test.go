//go:build unix

package crashtest

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/testkit/loggen"
)

// appendArgs is an append every memory here accepts.
var appendArgs = []string{"append", "--type", "test", "--scope", "s", "--summary", "x", "--detail", "target=s", "--detail", "result=pass"}

// runDeadline runs memsys -C dir args... and fails the test when it has
// not finished within 20 seconds: opening a named pipe for reading waits
// for a writer forever, so a command that does hangs, and the deadline
// turns that into a failure instead of a stalled suite. The commands
// take well under a second on these 30-event memories.
func runDeadline(t *testing.T, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return runIn(t, ctx, []string{"MEMSYS_NO_CACHE=1"}, dir, args...)
}

// TestNamedPipes: a named pipe in place of a file memsys reads or
// writes never makes a command wait. Where the command needs the file
// it exits 2 with one line naming the file, saying what it is and what
// to do; the others run as if it were not there. Before the fix, a
// .memsys.json that was a pipe hung lint, regen, status, archive and
// audit until killed.
func TestNamedPipes(t *testing.T) {
	all := [][]string{
		{"lint"}, {"regen"}, {"regen", "--check"}, {"status"}, appendArgs,
		{"archive"}, {"log"}, {"show", "evt-001"}, {"export"}, {"audit"}, {"lint", "--fix"},
	}
	// needs lists, for each file, the commands that must refuse it.
	needs := map[string][]string{
		"CHANGELOG.md":          {"lint", "regen", "regen --check", "status", "append", "archive", "log", "show evt-001", "export", "lint --fix"},
		"changelog-archive.md":  {"lint", "regen", "regen --check", "status", "append", "archive", "log", "show evt-001", "export", "lint --fix"},
		".memsys.json":          {"lint", "regen", "regen --check", "status", "archive", "audit", "lint --fix"},
		".memsys-baseline.json": {"lint", "lint --fix"},
		".memsys.lock":          {"append", "regen", "archive"},
		".memory/graph.md":      nil, // its messages are the derived-file checks'; here: no hang
		".memory/context.md":    nil,
	}
	for file, refusers := range needs {
		t.Run(strings.ReplaceAll(file, "/", "_"), func(t *testing.T) {
			for _, args := range all {
				dir := newRepo(t, 30)
				p := filepath.Join(dir, filepath.FromSlash(file))
				os.Remove(p)
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skip("mkfifo:", err)
				}
				r := runDeadline(t, dir, args...)
				want := "memsys: " + file + ": not a regular file (a named pipe): "
				name := args[0] // "regen --check" and "lint --fix" by their flag
				if len(args) == 2 {
					name = strings.Join(args, " ")
				}
				refuses := false
				for _, c := range refusers {
					refuses = refuses || c == name
				}
				switch {
				case refuses && (r.code != 2 || !strings.HasPrefix(r.stderr, want) || strings.Count(r.stderr, "\n") != 1):
					t.Errorf("memsys %s with %s a named pipe: want exit 2 and one line %q...; got %s", strings.Join(args, " "), file, want, r)
				case r.code == 2 && refusers != nil && !refuses:
					t.Errorf("memsys %s with %s a named pipe: exit 2, but the command does not need the file:\n%s", strings.Join(args, " "), file, r)
				}
			}
		})
	}
}

// TestSignals interrupts regen and append (with --regen) with SIGINT
// and SIGTERM, alternately, at moments spread over their run time, as
// TestKill does with SIGKILL, and checks right after each signal, before
// any recovery, what SIGKILL cannot promise: no temporary file is left
// (the handler removes them), besides each file being its whole old or
// new version, no event lost, and no parse error (MS1xx) in the log.
// Then regen and lint recover as after a kill. A signal that misses the
// moment a temporary file exists proves less, never fails wrongly; the
// moment is covered directly by workspace.TestSignalRemovesTemps.
func TestSignals(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	base := newRepo(t, killEvents)
	cases := []struct {
		name    string
		prepare func(t *testing.T, dir string)
		args    []string
	}{
		{"regen", func(t *testing.T, dir string) { write(t, dir, "CHANGELOG.md", loggen.Generate(killEvents+500, 1)) }, []string{"regen"}},
		{"append", func(*testing.T, string) {}, []string{"append", "--type", "test", "--scope", "crash", "--summary", "signalled append",
			"--agent", "crashtest", "--detail", "target=crash", "--detail", "result=pass", "--time", "2099-01-01 00:00", "--regen"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start, old, new, took := baseline(t, base, c.prepare, c.args)
			r := rand.New(rand.NewPCG(2, uint64(len(c.name))))
			for i := range kills(t) {
				sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
				// Half the moments land in the last third, where the
				// writes are.
				f := r.Float64()
				if i%4 >= 2 {
					f = 0.6 + 0.5*f
				}
				at := time.Duration(f * 1.1 * float64(took))
				dir := copyTree(t, start)
				signalAt(t, dir, at, sig, c.args)
				got := snapshot(t, dir)
				for _, k := range extra(got, old, new) {
					t.Errorf("%s, %v after %v: left %s", c.name, sig, at, k)
				}
				checkOldOrNew(t, c.name, at, got, old, new)
				checkNoEventLost(t, c.name, at, got, old)
				if l := run(t, dir, "lint"); regexp.MustCompile(`error: .*\[MS1\d\d\]`).MatchString(l.stdout) {
					t.Errorf("%s, %v after %v: a parse error in the log:\n%s", c.name, sig, at, l.stdout)
				}
				recoverAndLint(t, dir, old, new)
			}
		})
	}
}

// signalAt starts memsys and sends sig after d.
func signalAt(t *testing.T, dir string, d time.Duration, sig syscall.Signal, args []string) {
	t.Helper()
	cmd := exec.Command(memsys(t), append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "MEMSYS_AGENT=crashtest")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(d, func() { cmd.Process.Signal(sig) })
	cmd.Wait()
	timer.Stop()
}
