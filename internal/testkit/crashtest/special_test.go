package crashtest

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
	cmd := exec.CommandContext(ctx, memsys(t), append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "MEMSYS_AGENT=crashtest", "MEMSYS_NO_CACHE=1")
	cmd.WaitDelay = time.Second
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("memsys %s: still running after 20 s (waiting on a named pipe?)", strings.Join(args, " "))
	}
	r := result{stdout: so.String(), stderr: se.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("memsys %v: %v", args, err)
	}
	return r
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
