package gitx

import (
	"os"
	"syscall"
)

// fSetPipeSize is F_SETPIPE_SZ (fcntl(2)), absent from package syscall.
const fSetPipeSize = 1031

// growPipe asks for a 1 MB pipe buffer; a refusal (a lower
// /proc/sys/fs/pipe-max-size) leaves the default, which only costs
// time.
func growPipe(f *os.File) {
	sc, err := f.SyscallConn()
	if err != nil {
		return
	}
	sc.Control(func(fd uintptr) {
		syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSize, 1<<20)
	})
}
