//go:build unix

package workspace

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/parse"
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
	t.Run("hard link to "+LogName, func(t *testing.T) {
		root := t.TempDir()
		write(t, filepath.Join(root, LogName), log1)
		if err := os.Link(filepath.Join(root, LogName), filepath.Join(root, LockName)); err != nil {
			t.Skip("link:", err)
		}
		unlock, _, err := LockRecover(root)
		if err == nil {
			unlock()
			t.Fatal("LockRecover through a hard link: no error")
		}
		if want := LockName + ": has other names (a hard link): memsys writes its append journal there and would change them too; remove it (memsys creates it)"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
		if got, _ := os.ReadFile(filepath.Join(root, LogName)); string(got) != log1 {
			t.Errorf("log changed through the lock's hard link: %q", got)
		}
	})
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

// TestLoadConfigNotAFile: every command loads .memsys.json first, so a
// named pipe there hung lint, regen, status, archive and audit, and a
// 512 MiB file was read whole. Both are refused in one line, before a
// byte is read.
func TestLoadConfigNotAFile(t *testing.T) {
	t.Run("named pipe", func(t *testing.T) {
		root := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(root, config.FileName), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		err := withDeadline(t, func() error { _, err := LoadConfig(root); return err })
		if want := ".memsys.json: not a regular file (a named pipe): replace it with a regular file (the configuration is one JSON file)"; err == nil || err.Error() != want {
			t.Errorf("LoadConfig: %v, want %q", err, want)
		}
	})
	t.Run("symlink outside the root", func(t *testing.T) {
		root, outside := t.TempDir(), t.TempDir()
		write(t, filepath.Join(outside, "c.json"), `{"rules": {"MS117": "off"}}`)
		if err := os.Symlink(filepath.Join(outside, "c.json"), filepath.Join(root, config.FileName)); err != nil {
			t.Fatal(err)
		}
		// The memory files' rule (Resolve): a link out of the root is
		// refused, here as for the baseline beside it.
		if _, err := LoadConfig(root); err == nil || !strings.Contains(err.Error(), "outside the memory root") {
			t.Errorf("LoadConfig through a link outside the root: %v", err)
		}
	})
	t.Run("too large", func(t *testing.T) {
		root := t.TempDir()
		p := filepath.Join(root, config.FileName)
		write(t, p, "{}")
		if err := os.Truncate(p, MaxFileSize+1); err != nil {
			t.Skip("cannot make a sparse file:", err)
		}
		read := false
		defer ObserveReads(func(string) { read = true })()
		_, err := LoadConfig(root)
		if want := ".memsys.json: 536870913 bytes, over the 1 MiB limit for the configuration: shorten it"; err == nil || err.Error() != want {
			t.Errorf("LoadConfig: %v, want %q", err, want)
		}
		if read {
			t.Error("LoadConfig read the oversized file")
		}
	})
}

// TestOversizeAdvice: "archive older events" is the way to shrink the
// log and only the log; for any other file over the limit (the archive,
// which archiving grows, the baseline, a derived file) the advice was
// wrong. A derived file is not what memsys writes at that size: it is
// moved away and regen writes it afresh.
func TestOversizeAdvice(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{LogName, ArchiveNames[0], ".memsys-baseline.json", parse.GraphFile, parse.ContextFile} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		write(t, p, "x")
		if err := os.Truncate(p, MaxFileSize+1); err != nil {
			t.Skip("cannot make a sparse file:", err)
		}
	}
	for rel, want := range map[string]string{
		LogName:                 "CHANGELOG.md: 536870913 bytes, over the 512 MiB limit: archive older events (memsys archive)",
		ArchiveNames[0]:         "changelog-archive.md: 536870913 bytes, over the 512 MiB limit: memsys does not read a file this large; shorten it or move it away",
		".memsys-baseline.json": ".memsys-baseline.json: 536870913 bytes, over the 512 MiB limit: memsys does not read a file this large; shorten it or move it away",
		parse.GraphFile:         ".memory/graph.md: 536870913 bytes, over the 512 MiB limit: it is not what memsys writes: move it away and run memsys regen",
		parse.ContextFile:       ".memory/context.md: 536870913 bytes, over the 512 MiB limit: it is not what memsys writes: move it away and run memsys regen",
	} {
		if _, err := ReadFile(root, rel); err == nil || err.Error() != want {
			t.Errorf("ReadFile(%s): %v, want %q", rel, err, want)
		}
	}
}

// TestSignalRemovesTemps: a SIGINT or SIGTERM that arrives while a
// temporary file of an atomic write exists removes it before the
// process dies, and the process still dies of the signal (a shell sees
// 130 or 143). The test runs itself as a child that creates the file
// and signals itself; before the fix the file stayed behind.
func TestSignalRemovesTemps(t *testing.T) {
	if dir := os.Getenv("MEMSYS_TEST_SIGNAL_DIR"); dir != "" {
		f, err := trackedTemp(dir, tmpPrefix+"graph.md-*")
		if err != nil {
			os.Exit(3)
		}
		f.WriteString("half of graph.md")
		sig := syscall.SIGTERM
		if os.Getenv("MEMSYS_TEST_SIGNAL") == "INT" {
			sig = syscall.SIGINT
		}
		syscall.Kill(os.Getpid(), sig)
		time.Sleep(time.Minute) // the signal ends the process first
		os.Exit(4)
	}
	for name, sig := range map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestSignalRemovesTemps$")
			cmd.Env = append(os.Environ(), "MEMSYS_TEST_SIGNAL_DIR="+dir, "MEMSYS_TEST_SIGNAL="+name)
			out, err := cmd.CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("the child did not die of SIG%s within 20 s", name)
			}
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("child: %v, want death by SIG%s\n%s", err, name, out)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("left after SIG%s: %s", name, ents[0].Name())
			}
		})
	}
}

// TestCacheNamedPipe: the history cache is read on the side and its
// absence is tolerated, so a named pipe where an entry is, or where a
// worktree's .git file is, counts as no cache. Before the fix lint
// hung on an entry that was a pipe, and status, lint and regen on a
// .git that was one.
func TestCacheNamedPipe(t *testing.T) {
	t.Run("entry", func(t *testing.T) {
		root := t.TempDir()
		dir := filepath.Join(root, ".git", cacheDirName)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(filepath.Join(dir, "entry"), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		withDeadline(t, func() error {
			if _, ok := CacheGet(root, "entry"); ok {
				t.Error("CacheGet: a named pipe read as an entry")
			}
			if _, ok := CacheView(root, "entry"); ok {
				t.Error("CacheView: a named pipe read as an entry")
			}
			return nil
		})
	})
	t.Run(".git", func(t *testing.T) {
		root := t.TempDir()
		if err := syscall.Mkfifo(filepath.Join(root, ".git"), 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		withDeadline(t, func() error {
			if d := CacheDir(root); strings.HasPrefix(d, root) {
				t.Errorf("CacheDir = %q: a named pipe read as a .git file", d)
			}
			return nil
		})
	})
}
