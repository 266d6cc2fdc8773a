//go:build !unix

package companion

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

func execProgram(path string, args []string) (int, error) {
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), nil
	}
	if err != nil {
		return 2, fmt.Errorf("start %s: %w", path, err)
	}
	return 0, nil
}
