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
	// A CPU profile (memsys --cpuprofile) arms a profiling timer whose
	// SIGPROF would reach the new program before its runtime handles
	// the signal, and kill it: stop it first. The companion writes its
	// own profile (memsys mcp passes --cpuprofile on).
	pprof.StopCPUProfile()
	err := syscall.Exec(path, argv, os.Environ())
	return 2, fmt.Errorf("start %s: %w", path, err)
}
