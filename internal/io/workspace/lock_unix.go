//go:build unix

package workspace

import (
	"errors"
	"io/fs"
	"os"
	"os/signal"
	"syscall"
)

// noFollow makes the lock file's open fail on a symlink made since
// openLockFile's Lstat.
const noFollow = syscall.O_NOFOLLOW

// lockFile takes the exclusive advisory lock on f, waiting for it.
// flock locks the open file description, so a second descriptor of the
// same file (File.Append's journal) still reads and writes it.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// unlockFile releases lockFile's lock. Closing f would too; unlocking
// first frees waiters before the close.
func unlockFile(f *os.File) {
	syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}

// hardLinked reports whether the file f (whose Stat is fi) has more
// than one name. A file system that does not say counts as one name.
func hardLinked(_ *os.File, fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}

// dieOf ends the process of sig with the default action, so the exit
// status is what it would have been without the handler (a shell sees
// 130 or 143).
func dieOf(sig os.Signal) {
	signal.Reset(sig)
	syscall.Kill(os.Getpid(), sig.(syscall.Signal))
	select {} // the default action ends the process
}
