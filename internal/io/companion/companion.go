package companion

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrNotFound matches (errors.Is) Find's error when the program is
// neither beside the running executable nor on PATH.
var ErrNotFound = errors.New("companion program not found")

// notFound says where Find looked; it reads as one clause a caller can
// follow with what to do.
type notFound struct{ name, dir string }

func (e notFound) Error() string {
	return fmt.Sprintf("%s is neither in %s nor on PATH", e.name, e.dir)
}

func (e notFound) Is(target error) bool { return target == ErrNotFound }

// Find returns the path of the program name: first the file beside the
// running executable (so `go install .../cmd/...@latest`, which puts
// both in one folder, works without PATH), then the one on PATH.
func Find(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), name); executable(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", notFound{name, selfDir()}
}

// executable reports whether p is a regular file with an execute bit.
func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// selfDir is the running executable's folder, for messages.
func selfDir() string {
	if self, err := os.Executable(); err == nil {
		return filepath.Dir(self)
	}
	return "the executable's folder"
}

// Exec runs the program at path with args (without the program name)
// on this process's standard input, output and error, and returns its
// exit code. On unix it replaces this process (execve), so a host that
// started `memsys mcp` talks to the server directly and its signals
// reach it; it then returns only on failure. Elsewhere it runs a child
// process and returns when the child ends.
func Exec(path string, args []string) (int, error) {
	return execProgram(path, args)
}
