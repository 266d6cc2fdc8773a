package workspace

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// openRegular opens p for reading if it is a regular file of at most
// max bytes, and reports false otherwise. Opening a named pipe for
// reading waits for a writer, forever if none comes, so the open is
// O_NONBLOCK (a regular file ignores the flag) and the type is checked
// on the open file. It is for the files memsys reads on the side, whose
// absence it tolerates (the history cache, a .git file): a file that
// fails is treated as missing.
func openRegular(p string, max int64) (*os.File, fs.FileInfo, bool) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > max {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// readRegular reads p whole when openRegular accepts it.
func readRegular(p string, max int64) ([]byte, bool) {
	f, _, ok := openRegular(p, max)
	if !ok {
		return nil, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max))
	return b, err == nil
}
