package workspace

import (
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
)

// CPUProfile starts writing a CPU profile of this process to path
// (relative to the working directory memsys was started in, not the
// memory root) and returns the function that stops it and closes the
// file. It is how a user who finds memsys slow hands over where the
// time went: `go tool pprof memsys FILE`. from is how the user set
// path, which the errors name before it: "--cpuprofile " or
// "MEMSYS_CPUPROFILE=".
func CPUProfile(from, path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s%s: cannot create: %v", from, path, errors.Unwrap(err))
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s%s: %v", from, path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("%s%s: %v", from, path, err)
		}
		return nil
	}, nil
}
