package workspace

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestLockNeverWritesThrough: the lock file holds the append journal,
// which every writer truncates once it takes the lock. A lock file that
// is a symlink, even to a file inside the root, or a named pipe is
// refused with one line, and the file a link names is left as it was.
// Before the fix, a committed .memsys.lock -> CHANGELOG.md made the
// first regen truncate the log to nothing.
func TestLockNeverWritesThrough(t *testing.T) {
	for _, target := range []string{LogName, GraphPath, "nowhere.md"} {
		t.Run("symlink to "+target, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, LogName), log1)
			write(t, filepath.Join(root, GraphPath), "graph\n")
			if err := os.Symlink(target, filepath.Join(root, LockName)); err != nil {
				t.Fatal(err)
			}
			unlock, _, err := LockRecover(root)
			if err == nil {
				unlock()
				t.Fatal("LockRecover through a symlink: no error")
			}
			if want := LockName + ": is a symlink: memsys writes its append journal there and would write through the link; remove it (memsys creates it)"; err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			if got, _ := os.ReadFile(filepath.Join(root, LogName)); string(got) != log1 {
				t.Errorf("log changed through the lock's link: %q", got)
			}
			if got, _ := os.ReadFile(filepath.Join(root, GraphPath)); string(got) != "graph\n" {
				t.Errorf("graph.md changed through the lock's link: %q", got)
			}
			if _, err := os.Lstat(filepath.Join(root, "nowhere.md")); err == nil {
				t.Errorf("the lock's link target was created")
			}
		})
	}
	t.Run("named pipe", func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, LogName), log1)
		if err := syscall.Mkfifo(filepath.Join(root, LockName), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		err := withDeadline(t, func() error {
			unlock, err := Lock(root)
			if err == nil {
				unlock()
			}
			return err
		})
		if err == nil || err.Error() != LockName+": not a regular file (a named pipe): remove it (memsys creates it)" {
			t.Errorf("Lock on a named pipe: %v", err)
		}
	})
}

// withDeadline runs f and fails the test when it has not returned
// within ten seconds: a read of a named pipe waits for a writer
// forever, and a hang must fail the test, not stall the suite. The
// deadline is generous: the calls it guards take microseconds.
func withDeadline(t *testing.T, f func() error) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		t.Fatal("still running after 10 s: memsys waits on a named pipe")
		return nil
	}
}
