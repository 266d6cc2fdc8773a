//go:build windows

package workspace

import (
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// noFollow is 0: Windows has no open flag that refuses a symlink, so
// openLockFile's Lstat is the only check.
const noFollow = 0

// lockOffset is where the one locked byte lies: far past any data.
// Windows locks are mandatory: a lock on the journal's own bytes would
// make File.Append's write through a second handle fail with a lock
// violation, while a byte no one reads or writes serves as a mutex.
const lockOffset = 1 << 62

// lockFile takes the exclusive lock on f, waiting for it (LockFileEx
// without LOCKFILE_FAIL_IMMEDIATELY blocks).
func lockFile(f *os.File) error {
	ov := lockOverlapped()
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, ov)
}

// unlockFile releases lockFile's lock.
func unlockFile(f *os.File) {
	windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, lockOverlapped())
}

func lockOverlapped() *windows.Overlapped {
	return &windows.Overlapped{Offset: lockOffset & 0xFFFFFFFF, OffsetHigh: lockOffset >> 32}
}

// hardLinked reports whether the file f has more than one name, which
// Windows tells only from a handle. A file system that does not say
// counts as one name.
func hardLinked(f *os.File, _ fs.FileInfo) bool {
	var d windows.ByHandleFileInformation
	return windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &d) == nil && d.NumberOfLinks > 1
}

// statusControlC is STATUS_CONTROL_C_EXIT (0xC000013A), the status a
// console program ended by Ctrl-C exits with when it installs no
// handler, as the int os.Exit passes on to ExitProcess as a uint32.
const statusControlC = 0xC000013A - 1<<32

// dieOf ends the process as the default handling of sig would have:
// Windows cannot send a process its own console event, so it exits
// with the status a Ctrl-C gives.
func dieOf(os.Signal) {
	os.Exit(statusControlC)
}
