package crashtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
