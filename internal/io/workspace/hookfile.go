package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
)

// The functions here work on absolute paths outside any memory root:
// git's hooks folder, which git names (gitx) and memsys's hook command
// edits. They keep workspace the only package that writes files.

// Exists reports whether something (a file, a link, even a broken one)
// is at the absolute path p.
func Exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// IsDir reports whether p is a folder (following symlinks).
func IsDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// IsDirNoFollow reports whether p itself is a folder.
func IsDirNoFollow(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// IsExecutable reports whether the file at p is executable by its owner.
func IsExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().Perm()&0o100 != 0
}

// ReadSmall returns the bytes of the regular file at p (not a link) of
// at most max bytes; ok is false for anything else or on an error.
func ReadSmall(p string, max int64) (data []byte, ok bool) {
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		return nil, false
	}
	data, err = os.ReadFile(p)
	return data, err == nil
}

// TempError says which step of WriteTempExecutable failed: "mkdir" (the
// folder), "create" (the file in it) or "write" (its bytes, mode or
// sync).
type TempError struct {
	Step string
	Err  error
}

func (e *TempError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *TempError) Unwrap() error { return e.Err }

// WriteTempExecutable writes data to a new executable temporary file in
// dir (created if needed), synced, and returns its path, for a rename
// over the real name.
func WriteTempExecutable(dir string, data []byte) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", &TempError{"mkdir", err}
	}
	f, err := os.CreateTemp(dir, tmpPrefix+"pre-commit-*")
	if err != nil {
		return "", &TempError{"create", err}
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(fs.FileMode(0o755))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", &TempError{"write", err}
	}
	return tmp, nil
}

// Rename renames from to to and syncs to's folder, so the rename
// survives a crash.
func Rename(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	SyncDir(filepath.Dir(to))
	return nil
}

// Remove removes the file at p and syncs its folder.
func Remove(p string) error {
	if err := os.Remove(p); err != nil {
		return err
	}
	SyncDir(filepath.Dir(p))
	return nil
}

// Discard removes a temporary file after a failure; its own failure
// changes nothing for the caller.
func Discard(p string) { os.Remove(p) }

// SyncDir makes a rename in dir durable; failure only loses durability,
// so it is ignored.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// ReadOutside reads a file outside any memory root that the environment
// names (a CI event payload): no root, no size limit beyond the file's.
func ReadOutside(p string) ([]byte, error) { return os.ReadFile(p) }
