//go:build unix

package companion

import (
	"fmt"
	"os"
	"syscall"
)

func execProgram(path string, args []string) (int, error) {
	argv := append([]string{path}, args...)
	err := syscall.Exec(path, argv, os.Environ())
	return 2, fmt.Errorf("start %s: %w", path, err)
}
