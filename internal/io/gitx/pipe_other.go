//go:build !linux

package gitx

import "os"

// growPipe is Linux only (F_SETPIPE_SZ); elsewhere pipes keep their
// size.
func growPipe(*os.File) {}
