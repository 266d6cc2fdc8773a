package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/memsys/memsys/internal/base/config"
)

// maxConfigSize bounds what LoadConfig reads: a configuration is a few
// hundred bytes, and every command loads it first, so a large file
// (or one that never ends) must not cost a command its memory.
const maxConfigSize = 1 << 20

// LoadConfig reads config.FileName at root. A missing file gives
// config.Default() and no error; any other problem is an error of the
// form "file:line: what is wrong: what to do".
func LoadConfig(root string) (config.Config, error) {
	cfg, _, err := ReadConfig(root)
	return cfg, err
}

// ReadConfig is LoadConfig that also returns the bytes it parsed (nil
// when there is no file), for a caller that keys a cache by them: the
// file is read once (issue 15's "each file once"), and the key is of
// the very bytes the configuration came from.
func ReadConfig(root string) (config.Config, []byte, error) {
	path, err := Resolve(root, config.FileName)
	if err != nil {
		return config.Config{}, nil, err
	}
	// O_NONBLOCK: opening a named pipe for reading waits for a writer,
	// forever if none comes; with it the open returns and Stat refuses
	// the pipe. A regular file ignores the flag.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil, nil
	}
	if err != nil {
		return config.Config{}, nil, configReadError(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		return config.Config{}, nil, configReadError(err)
	case fi.IsDir():
		return config.Config{}, nil, configReadError(&fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR})
	case !fi.Mode().IsRegular():
		return config.Config{}, nil, fmt.Errorf("%s: not a regular file (%s): replace it with a regular file (the configuration is one JSON file)", config.FileName, kind(fi.Mode()))
	case fi.Size() > maxConfigSize:
		return config.Config{}, nil, fmt.Errorf("%s: %d bytes, over the %d MiB limit for the configuration: shorten it", config.FileName, fi.Size(), maxConfigSize>>20)
	}
	observeRead(path)
	src, err := io.ReadAll(io.LimitReader(f, maxConfigSize))
	if err != nil {
		return config.Config{}, nil, configReadError(err)
	}
	cfg, err := config.Parse(path, src)
	return cfg, src, err
}

// configReadError is the one-line error of a configuration file that
// exists but cannot be read, named as the user wrote it (not the
// absolute path os.ReadFile puts in its error).
func configReadError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, syscall.EISDIR) {
		return fmt.Errorf("%s: is a directory, not a file: move it away (the configuration is one JSON file)", config.FileName)
	}
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: cannot read it: %v: fix its permissions or remove it", config.FileName, err)
}
