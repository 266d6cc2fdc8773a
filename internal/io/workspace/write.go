package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// tmpPrefix marks memsys's temporary files. A run killed between create
// and rename leaves one behind; WriteFile removes such leftovers of the
// same target, and nothing ever reads them.
const tmpPrefix = ".memsys-tmp-"

// WriteFile replaces rel inside root with data atomically: it writes a
// temporary file in the same folder, fsyncs it, renames it over the
// target and fsyncs the folder, so a reader or a crash sees the old file
// or the new one, never a mix. The file keeps its permissions (0644 when
// new). Symlinks leading outside root are refused, and a symlink inside
// root is replaced by the file rather than written through.
func WriteFile(root, rel string, data []byte) error {
	p, err := Resolve(root, rel)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			for d := filepath.Dir(filepath.FromSlash(rel)); d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
				if fi, err := os.Lstat(filepath.Join(root, d)); err == nil && !fi.IsDir() {
					return fmt.Errorf("%s: cannot create its folder: %s is a file: move it away", rel, filepath.ToSlash(d))
				}
			}
		}
		return fmt.Errorf("%s: cannot create folder: %v", rel, errors.Unwrap(err))
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Lstat(p); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory: move it away", rel)
		}
		if fi.Mode().IsRegular() {
			mode = fi.Mode().Perm()
		}
	}
	cleanTemps(dir, filepath.Base(p))
	f, err := os.CreateTemp(dir, tmpPrefix+filepath.Base(p)+"-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write: %v", rel, errors.Unwrap(err))
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: cannot write: %w", rel, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: cannot replace: %v", rel, errors.Unwrap(err))
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // the rename is durable once the folder is
		d.Close()
	}
	return nil
}

// cleanTemps removes temporary files a killed run left for target.
func cleanTemps(dir, target string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix+target+"-") {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// LockName is the lock file, beside the log. The lock is not taken on
// CHANGELOG.md itself because WriteFile replaces that file by rename,
// and a lock on a replaced inode protects nothing.
const LockName = ".memsys.lock"

// Lock takes the exclusive lock of the memory at root and returns the
// function that releases it. It blocks until the lock is free. Every
// memsys command that writes (append, archive, regen, lint --fix, init)
// holds it, so concurrent agents serialise. It is an advisory flock(2)
// lock: released by the kernel when the process dies, so a killed
// memsys never leaves the memory locked. Once it holds the lock, it
// undoes an append an earlier run left half-written (see File.Append),
// before the caller reads anything.
//
// A folder without a log is not a memory: Lock then fails as reading
// the log would, and creates no lock file there (a failed append in the
// wrong folder must leave nothing behind). Only init, which makes the
// memory, locks such a folder (LockInit).
func Lock(root string) (unlock func(), err error) {
	unlock, _, err = LockRecover(root)
	return unlock, err
}

// LockInit is Lock for init: it takes the lock of a folder that has no
// log yet, creating the lock file.
func LockInit(root string) (unlock func(), err error) {
	unlock, _, err = lock(root, false)
	return unlock, err
}

// LockRecover is Lock that also says, in one line, when it removed the
// partial event of an interrupted append ("" otherwise), for append to
// report.
func LockRecover(root string) (unlock func(), recovered string, err error) {
	return lock(root, true)
}

func lock(root string, needLog bool) (unlock func(), recovered string, err error) {
	if needLog {
		lp, err := Resolve(root, LogName)
		if err != nil {
			return nil, "", err
		}
		if _, err := os.Lstat(lp); errors.Is(err, fs.ErrNotExist) {
			_, err := checked(root, LogName)
			return nil, "", err
		}
	}
	p, err := Resolve(root, LockName)
	if err != nil {
		return nil, "", err
	}
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, "", fmt.Errorf("%s: cannot open lock file: %v: move it away (memsys creates it)", LockName, errors.Unwrap(err))
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, "", fmt.Errorf("%s: cannot lock: %v", LockName, err)
	}
	unlock = func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
	if recovered, err = recoverAppend(root, f); err != nil {
		unlock()
		return nil, "", err
	}
	return unlock, recovered, nil
}

// Equal reports whether the file rel inside root holds exactly data, so
// writers can skip a write that would change nothing.
func Equal(root, rel string, data []byte) bool {
	b, err := ReadFile(root, rel)
	return err == nil && bytes.Equal(b, data)
}
