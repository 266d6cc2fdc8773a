//go:build unix

package companion

import (
	"fmt"
	"os"
	"runtime/pprof"
	"syscall"
)

func execProgram(path string, args []string) (int, error) {
	argv := append([]string{path}, args...)
	// A CPU profile's interval timer (ITIMER_PROF) survives execve, and
	// a Go program has no SIGPROF handler until it starts a profile of
	// its own: a tick that came first killed the new program ("profiling
	// timer expired"), more often the longer its start-up. The profile
	// is this process's, which the exec discards anyway. A no-op when no
	// profile runs.
	pprof.StopCPUProfile()
	err := syscall.Exec(path, argv, os.Environ())
	return 2, fmt.Errorf("start %s: %w", path, err)
}
