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
// or the new one, never a mix. The file keeps its permissions (0666
// less the umask when new, as open(2) would create it). Symlinks
// leading outside root are refused, and a symlink inside
// root is replaced by the file rather than written through.
func WriteFile(root, rel string, data []byte) error {
	p, err := Resolve(root, rel)
	if err != nil {
		return err
	}
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if e := folderIsFile(root, rel); errors.Is(err, syscall.ENOTDIR) && e != nil {
			return fmt.Errorf("%s: cannot create its folder: %w", rel, e)
		}
		return writeError(rel, "cannot create its folder", err)
	}
	mode := newFileMode
	if fi, err := os.Lstat(p); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s: is a directory: move it away", rel)
		}
		if fi.Mode().IsRegular() {
			mode = fi.Mode().Perm()
		}
	}
	cleanTemps(dir, filepath.Base(p))
	f, err := trackedTemp(dir, tmpPrefix+filepath.Base(p)+"-*")
	if err != nil {
		return writeError(rel, "cannot write", err)
	}
	tmp := f.Name()
	defer tempDone(tmp)
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return writeError(rel, "cannot write", err)
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
	if err := rename(tmp, p); err != nil {
		os.Remove(tmp)
		return writeError(rel, "cannot replace", err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // the rename is durable once the folder is
		d.Close()
	}
	return nil
}

// createTemp, rename and openLock are os.CreateTemp, os.Rename and
// os.OpenFile; the tests replace them to fail as they do for a user
// without write permission, which root (who runs CI) never is.
var (
	createTemp = os.CreateTemp
	rename     = os.Rename
	openLock   = os.OpenFile
)

// writeError is the one wording of a write memsys could not do: the
// file rel, the step that failed, the system's reason and what to do
// (writeAdvice). WriteFile, the lock and the append journal report
// through it, so a permission problem reads the same whichever step
// met it.
func writeError(rel, step string, err error) error {
	if u := errors.Unwrap(err); u != nil {
		err = u // the *PathError's absolute path says less than rel
	}
	return fmt.Errorf("%s: %s: %w: %s", rel, step, err, writeAdvice(rel, err))
}

// writeAdvice is what to do about err, a failed write of rel. Creating
// the temporary file and renaming it over rel need write permission on
// the folder, opening the lock file on the file too: the advice names
// both.
func writeAdvice(rel string, err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return fmt.Sprintf("check the permissions of %s and of its folder", rel)
	case errors.Is(err, syscall.EROFS):
		return "the file system is read-only: run memsys where it can write"
	case errors.Is(err, syscall.ENOSPC), errors.Is(err, syscall.EDQUOT):
		return "free some disk space and run the command again"
	}
	return fmt.Sprintf("check %s and its folder, then run the command again", rel)
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
	f, err := openLockFile(root)
	if err != nil {
		return nil, "", err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, "", writeError(LockName, "cannot lock", err)
	}
	unlock = func() {
		unlockFile(f)
		f.Close()
	}
	if recovered, err = recoverAppend(root, f); err != nil {
		unlock()
		return nil, "", err
	}
	return unlock, recovered, nil
}

// openLockFile opens the lock file of root, creating it. The lock file
// is memsys's own: it holds the append journal, which every writer
// truncates once it takes the lock. So, unlike the memory files, it is
// never reached through a symlink, even one inside the root: a
// committed .memsys.lock -> CHANGELOG.md would have the first regen
// truncate the log to nothing. Anything but a regular file (a FIFO, a
// socket) is refused too: the journal cannot live there. lock and
// File.Append both open it here.
func openLockFile(root string) (*os.File, error) {
	symlink := fmt.Errorf("%s: is a symlink: memsys writes its append journal there and would write through the link; remove it (memsys creates it)", LockName)
	if fi, err := os.Lstat(filepath.Join(root, LockName)); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, symlink // before Resolve, whose advice for a link differs
	}
	p, err := Resolve(root, LockName)
	if err != nil {
		return nil, err
	}
	// noFollow: a link made since the check still fails the open.
	// 0666 less the umask, as any new file: every writer opens the
	// lock to write, so under a shared repository's umask 002 the
	// group's members must be able to.
	f, err := openLock(p, os.O_RDWR|os.O_CREATE|noFollow, 0o666)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, symlink
	case errors.Is(err, syscall.EISDIR):
		return nil, fmt.Errorf("%s: cannot open lock file: %v: move it away (memsys creates it)", LockName, errors.Unwrap(err))
	case err != nil:
		return nil, writeError(LockName, "cannot open lock file", err)
	}
	fi, err := f.Stat()
	switch {
	case err != nil:
	case !fi.Mode().IsRegular():
		err = fmt.Errorf("%s: not a regular file (%s): remove it (memsys creates it)", LockName, kind(fi.Mode()))
	case hardLinked(f, fi):
		// A second name for the same file (ln CHANGELOG.md .memsys.lock)
		// is a link noFollow cannot see: truncating the journal would
		// empty the file under its other name.
		err = fmt.Errorf("%s: has other names (a hard link): memsys writes its append journal there and would change them too; remove it (memsys creates it)", LockName)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Equal reports whether the file rel inside root holds exactly data, so
// writers can skip a write that would change nothing.
func Equal(root, rel string, data []byte) bool {
	b, err := ReadFile(root, rel)
	return err == nil && bytes.Equal(b, data)
}
