//go:build unix

package crashtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
)

// TestOversizedLog: a log past workspace.MaxFileSize is refused with a
// clear error before it is read. The file is sparse, so the test costs
// no disk; a command that read it anyway would show in its peak RSS.
func TestOversizedLog(t *testing.T) {
	dir := newRepo(t, 30)
	p := filepath.Join(dir, "CHANGELOG.md")
	if err := os.Truncate(p, workspace.MaxFileSize+1); err != nil {
		t.Skip("cannot make a sparse file:", err)
	}
	for _, args := range [][]string{
		{"lint"}, {"regen"}, {"regen", "--check"}, {"status"},
		{"append", "--type", "test", "--scope", "s", "--summary", "x", "--detail", "target=s", "--detail", "result=pass"},
		{"archive"},
	} {
		t.Run(strings.Join(args[:1], ""), func(t *testing.T) {
			oversized(t, dir, args)
		})
	}
}

func oversized(t *testing.T, dir string, args []string) {
	t.Helper()
	cmd := exec.Command(memsys(t), append([]string{"-C", dir}, args...)...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != 2 || !strings.Contains(string(out), "CHANGELOG.md") || !strings.Contains(string(out), "limit") {
		t.Errorf("memsys %s on a %d MiB log: exit %d, want 2 and a message naming CHANGELOG.md and the limit:\n%s",
			strings.Join(args, " "), workspace.MaxFileSize>>20, code, out)
	}
	if strings.Contains(string(out), "goroutine ") {
		t.Errorf("memsys %s panicked:\n%s", args[0], out)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 200<<10 {
		t.Errorf("memsys %s peaked at %d MiB refusing an oversized log: it read the file", args[0], ru.Maxrss>>10)
	}
}

// TestOversizedCommittedLog: a log over the limit in a commit that
// lint --base compares with is refused like one on disk: exit 2, one
// line naming the revision, the file and the limit, without reading it
// (before, lint --base read the 512 MiB blob whole: 535 MB peak RSS).
// The file is sparse and compresses to almost nothing in git.
func TestOversizedCommittedLog(t *testing.T) {
	if testing.Short() {
		t.Skip("commits a 512 MiB file (about 4 s of git add)")
	}
	dir := newRepo(t, 30)
	p := filepath.Join(dir, "CHANGELOG.md")
	small := read(t, dir, "CHANGELOG.md")
	if err := os.Truncate(p, workspace.MaxFileSize+1); err != nil {
		t.Skip("cannot make a sparse file:", err)
	}
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x"}}
	for _, args := range [][]string{{"add", "CHANGELOG.md"}, {"commit", "-q", "--no-verify", "-m", "big"}} {
		if out, err := g.Run(context.Background(), args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write(t, dir, "CHANGELOG.md", small)
	cmd := exec.Command(memsys(t), "-C", dir, "lint", "--base", "HEAD")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), ":CHANGELOG.md: 536870913 bytes, over the 512 MiB limit") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("lint --base on a commit with a %d MiB log: %v, want exit 2 and one line naming the file and the limit:\n%s", workspace.MaxFileSize>>20, err, out)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 200<<10 {
		t.Errorf("lint --base peaked at %d MiB refusing an oversized committed log: it read the blob", ru.Maxrss>>10)
	}
	// audit reads every version from the object store itself: the big
	// one, between two small ones, stops it the same way (it read the
	// whole 512 MiB before).
	big, err := g.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "CHANGELOG.md"}, {"commit", "-q", "--no-verify", "-m", "small again"}} {
		if out, err := g.Run(context.Background(), args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	cmd = exec.Command(memsys(t), "-C", dir, "audit")
	out, err = cmd.CombinedOutput()
	want := fmt.Sprintf("memsys: audit: CHANGELOG.md at commit %.12s: 536870913 bytes, over the 512 MiB limit", big)
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.HasPrefix(string(out), want) || strings.Count(string(out), "\n") != 1 {
		t.Errorf("audit of a history with a %d MiB log: %v, want exit 2 and one line starting %q:\n%s", workspace.MaxFileSize>>20, err, want, out)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 200<<10 {
		t.Errorf("audit peaked at %d MiB refusing an oversized committed log: it read the blob", ru.Maxrss>>10)
	}
}
