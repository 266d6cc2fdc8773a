package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/memsys/memsys/internal/base/config"
)

// LoadConfig reads config.FileName at root. A missing file gives
// config.Default() and no error; any other problem is an error of the
// form "file:line: what is wrong: what to do".
func LoadConfig(root string) (config.Config, error) {
	path := filepath.Join(root, config.FileName)
	src, err := os.ReadFile(path)
	if err == nil {
		observeRead(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil
	}
	if err != nil {
		return config.Config{}, configReadError(err)
	}
	return config.Parse(path, src)
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
