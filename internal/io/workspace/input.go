package workspace

import (
	"errors"
	"fmt"
	"os"

	"github.com/memsys/memsys/internal/base/words"
)

// ReadInput reads a file the user named on the command line (import's
// --from, the merge driver's three files), which need not be inside the
// memory root, within the same size limit as the memory files. Errors
// name the file by path as given, which the user can act on.
func ReadInput(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", words.ClipPath(path), errors.Unwrap(err))
	case fi.IsDir():
		return nil, fmt.Errorf("%s: is a directory, not a file", words.ClipPath(path))
	case fi.Size() > MaxFileSize:
		return nil, fmt.Errorf("%s: %d bytes, over the %d MiB limit: split it", path, fi.Size(), MaxFileSize>>20)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %v", path, errors.Unwrap(err))
	}
	return b, nil
}
