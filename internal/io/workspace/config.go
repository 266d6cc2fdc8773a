package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
		return config.Config{}, fmt.Errorf("read configuration: %w", err)
	}
	return config.Parse(path, src)
}
