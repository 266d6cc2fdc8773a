package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// A File is a memory file opened for reading at offsets and, for the
// log, appending at its end: what lets append read the last events of
// a 30 MB log instead of all of it, and add one without rewriting it.
type File struct {
	f    *os.File
	rel  string
	size int64
}

// Open opens rel inside root for reading, with ReadFile's checks and
// errors.
func Open(root, rel string) (*File, error) {
	return open(root, rel, os.O_RDONLY)
}

func open(root, rel string, flag int) (*File, error) {
	p, err := checked(root, rel)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, flag, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot open: %v: check its permissions", rel, errors.Unwrap(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %v", rel, errors.Unwrap(err))
	}
	return &File{f: f, rel: rel, size: fi.Size()}, nil
}

// Size is the file's size when it was opened, or after the last Append.
func (f *File) Size() int64 { return f.size }

// ReadAt reads len(p) bytes at off, as io.ReaderAt.
func (f *File) ReadAt(p []byte, off int64) (int, error) { return f.f.ReadAt(p, off) }

// ReadAll reads the file whole, up to its Size: a whole read, as
// ReadFile's (ObserveReads sees it).
func (f *File) ReadAll() ([]byte, error) {
	observeRead(f.f.Name())
	b := make([]byte, f.size)
	if _, err := f.f.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: cannot read: %v", f.rel, err)
	}
	return b, nil
}

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }

// OpenLog opens the log rel inside root for an append. The caller
// holds Lock, which has already undone an interrupted append (see
// Append).
func OpenLog(root, rel string) (*File, error) {
	return open(root, rel, os.O_RDWR|os.O_APPEND)
}

// journalMagic starts the append journal. The journal lives in the
// lock file, which only a lock holder writes and every writer already
// opens; it is empty except while an append is writing.
const journalMagic = "memsys append journal v1\n"

// journalAnchor is how many bytes before the append point the journal
// keeps, so that recovery can tell the log it describes from a log
// rewritten since (by archive, or by hand) that happens to end alike.
const journalAnchor = 256

// Append adds data at the end of the file with one write(2) on a file
// opened O_APPEND and an fsync: a reader or a crash sees the old file
// or the old file plus data. One case is left: Linux may cut a write
// short at a page boundary when the process is killed during it, and a
// power loss may keep part of an unsynced write. So before the write,
// Append records in the journal (the lock file) the size before, the
// last 256 bytes before it and the bytes it is about to write, and
// clears the journal after the fsync. The next append, under the same
// lock, finds a non-empty journal and, if the file then holds those
// last bytes at the old end followed by a prefix of the recorded ones,
// truncates it back to the old size (LockRecover).
// The journal itself is not fsynced: after a power loss it may be gone
// too, and then lint reports the cut event (a malformed header or
// missing fields on the last event) and its text says what to do.
func (f *File) Append(root string, data []byte) error {
	j, err := openLockFile(root)
	if err != nil {
		return err
	}
	defer j.Close()
	anchor := make([]byte, min(f.size, journalAnchor))
	if _, err := f.f.ReadAt(anchor, f.size-int64(len(anchor))); err != nil {
		return fmt.Errorf("%s: cannot read: %v", f.rel, err)
	}
	rec := make([]byte, 0, len(journalMagic)+48+len(anchor)+len(data))
	rec = append(rec, journalMagic...)
	for _, n := range []int64{f.size, int64(len(anchor)), int64(len(data))} {
		rec = strconv.AppendInt(rec, n, 10)
		rec = append(rec, '\n')
	}
	rec = append(rec, anchor...)
	rec = append(rec, data...)
	if _, err := j.WriteAt(rec, 0); err != nil {
		return writeError(LockName, "cannot write the append journal", err)
	}
	if err := j.Truncate(int64(len(rec))); err != nil {
		return writeError(LockName, "cannot write the append journal", err)
	}
	n, err := f.f.Write(data)
	if err == nil && n < len(data) {
		err = io.ErrShortWrite
	}
	if err == nil {
		err = f.f.Sync()
	}
	if err != nil {
		// Leave the journal: the next append removes what was written.
		return writeError(f.rel, "cannot append", err)
	}
	f.size += int64(len(data))
	j.Truncate(0)
	return nil
}

// recoverAppend undoes an append that was interrupted mid-write, as
// the journal in the lock file records it, and clears the journal. It
// runs under the lock, before any writer touches the memory.
func recoverAppend(root string, lock *os.File) (string, error) {
	fi, err := lock.Stat()
	if err != nil || fi.Size() == 0 {
		return "", nil // no journal: nothing to do
	}
	rec := make([]byte, fi.Size())
	if _, err := lock.ReadAt(rec, 0); err != nil {
		return "", nil
	}
	defer lock.Truncate(0)
	old, anchor, data, ok := parseJournal(rec)
	if !ok {
		return "", nil // cut while being written: the log was not touched yet
	}
	f, err := open(root, LogName, os.O_RDWR)
	if err != nil {
		return "", nil // no log any more: nothing to undo
	}
	defer f.Close()
	if old > f.size || !f.holdsAt(old-int64(len(anchor)), anchor) {
		return "", nil // the log was rewritten since: not this log's story
	}
	switch cur := f.size; {
	case cur == old, cur == old+int64(len(data)) && f.holdsAt(old, data):
		// Nothing written, or the whole event: the log is whole.
	case cur > old && cur < old+int64(len(data)) && f.holdsAt(old, data[:cur-old]):
		if err := f.f.Truncate(old); err != nil {
			return "", fmt.Errorf("%s: cannot remove the partial event an interrupted append left at byte %d: %v: remove it by hand", f.rel, old, err)
		}
		if err := f.f.Sync(); err != nil {
			return "", fmt.Errorf("%s: %v", f.rel, err)
		}
		return fmt.Sprintf("%s: removed the partial event (%d of %d bytes) an interrupted append left at the end", f.rel, cur-old, len(data)), nil
	default:
		// The log changed since in other ways (an edit): the journal
		// no longer describes it, and the log is left alone.
	}
	return "", nil
}

// holdsAt reports whether the file holds want at offset off.
func (f *File) holdsAt(off int64, want []byte) bool {
	got := make([]byte, len(want))
	n, _ := f.f.ReadAt(got, off)
	return n == len(want) && bytes.Equal(got, want)
}

func parseJournal(rec []byte) (old int64, anchor, data []byte, ok bool) {
	rest, ok := bytes.CutPrefix(rec, []byte(journalMagic))
	if !ok {
		return 0, nil, nil, false
	}
	var nums [3]int64
	for i := range nums {
		line, after, found := bytes.Cut(rest, []byte("\n"))
		if !found {
			return 0, nil, nil, false
		}
		v, err := strconv.ParseInt(string(line), 10, 64)
		if err != nil || v < 0 {
			return 0, nil, nil, false
		}
		nums[i], rest = v, after
	}
	if nums[1] > nums[0] || int64(len(rest)) != nums[1]+nums[2] {
		return 0, nil, nil, false
	}
	return nums[0], rest[:nums[1]], rest[nums[1]:], true
}
