package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteErrorsSayWhatToDo: a write that fails (creating the
// temporary file, renaming it over the target, opening the lock file)
// is one line naming the file, the step, the system's reason and what
// to do, the same through writeError whichever step failed. The
// system calls are replaced so that the test fails as a user without
// write permission would, also as root, who has every permission.
func TestWriteErrorsSayWhatToDo(t *testing.T) {
	denied := func(op, p string) error { return &fs.PathError{Op: op, Path: p, Err: syscall.EACCES} }
	for _, tc := range []struct {
		name    string
		breakIt func() (restore func())
		run     func(root string) error
		want    string
	}{
		{"temporary file", func() func() {
			old := createTemp
			createTemp = func(dir, pattern string) (*os.File, error) { return nil, denied("open", filepath.Join(dir, pattern)) }
			return func() { createTemp = old }
		}, func(root string) error { return WriteFile(root, ".memory/graph.md", []byte("x\n")) },
			".memory/graph.md: cannot write: permission denied: check the permissions of .memory/graph.md and of its folder"},
		{"rename", func() func() {
			old := rename
			rename = func(from, to string) error {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.EACCES}
			}
			return func() { rename = old }
		}, func(root string) error { return WriteFile(root, ".memory/graph.md", []byte("x\n")) },
			".memory/graph.md: cannot replace: permission denied: check the permissions of .memory/graph.md and of its folder"},
		{"disk full", func() func() {
			old := rename
			rename = func(from, to string) error {
				return &os.LinkError{Op: "rename", Old: from, New: to, Err: syscall.ENOSPC}
			}
			return func() { rename = old }
		}, func(root string) error { return WriteFile(root, "CHANGELOG.md", []byte("x\n")) },
			"CHANGELOG.md: cannot replace: no space left on device: free some disk space and run the command again"},
		{"lock file", func() func() {
			old := openLock
			openLock = func(name string, flag int, perm os.FileMode) (*os.File, error) { return nil, denied("open", name) }
			return func() { openLock = old }
		}, func(root string) error {
			unlock, err := Lock(root)
			if err == nil {
				unlock()
			}
			return err
		}, ".memsys.lock: cannot open lock file: permission denied: check the permissions of .memsys.lock and of its folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, LogName), log1)
			defer tc.breakIt()()
			err := tc.run(root)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v\nwant   %s", err, tc.want)
			}
			if !strings.Contains(tc.want, "no space") && !errors.Is(err, fs.ErrPermission) {
				t.Errorf("errors.Is(err, fs.ErrPermission) is false for %v", err)
			}
			ents, _ := os.ReadDir(filepath.Join(root, ".memory"))
			for _, e := range ents {
				t.Errorf("left behind: .memory/%s", e.Name())
			}
		})
	}
}

// TestWritePermissionReal: the same as a user without write permission
// on the folder, through the real system calls. Root writes anyway, so
// it runs only as another user (TestWriteErrorsSayWhatToDo runs
// everywhere).
func TestWritePermissionReal(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into a folder without write permission")
	}
	root := t.TempDir()
	write(t, filepath.Join(root, LogName), log1)
	write(t, filepath.Join(root, ".memory", "graph.md"), "old\n")
	dir := filepath.Join(root, ".memory")
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := WriteFile(root, ".memory/graph.md", []byte("new\n"))
	if want := ".memory/graph.md: cannot write: permission denied: check the permissions of .memory/graph.md and of its folder"; err == nil || err.Error() != want {
		t.Errorf("WriteFile: %v\nwant %s", err, want)
	}
	if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(root, 0o755)
	_, err = Lock(root)
	if want := ".memsys.lock: cannot open lock file: permission denied: check the permissions of .memsys.lock and of its folder"; err == nil || err.Error() != want {
		t.Errorf("Lock: %v\nwant %s", err, want)
	}
}

// TestFolderIsFile: a .memory that is a file is worded the same for a
// read and a write (folderIsFile), never the system's "not a
// directory" with an absolute path.
func TestFolderIsFile(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, LogName), log1)
	write(t, filepath.Join(root, ".memory"), "not a folder\n")
	_, err := ReadFile(root, ".memory/graph.md")
	if want := ".memory/graph.md: .memory is a file: move it away"; err == nil || err.Error() != want {
		t.Errorf("ReadFile: %v\nwant %s", err, want)
	}
	err = WriteFile(root, ".memory/graph.md", []byte("x\n"))
	if want := ".memory/graph.md: cannot create its folder: .memory is a file: move it away"; err == nil || err.Error() != want {
		t.Errorf("WriteFile: %v\nwant %s", err, want)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".memory")); string(b) != "not a folder\n" {
		t.Error("the file .memory was changed")
	}
}
