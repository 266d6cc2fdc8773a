//go:build linux

package workspace

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"syscall"
	"unsafe"
)

// rlimInfinity is RLIM_INFINITY: no limit.
const rlimInfinity = ^uint64(0)

// hugePage is the size of a transparent huge page on the platforms Go
// supports on Linux (x86-64, arm64 with 4 KiB base pages).
const hugePage = 2 << 20

// adviseHeap makes the heap grow by an n-byte block, advises the kernel
// to back the block's range with huge pages, and frees the block with
// a collection, so that the allocations that follow take the advised
// memory first (the runtime reuses free pages, lowest address first,
// before it grows the heap again). The block itself is never touched:
// it costs address space, not memory. It does nothing where the kernel
// would not act on the advice (transparent huge pages "never", or
// already "always"), where GODEBUG=disablethp=1 asks the runtime to
// keep small pages, and where the block might not fit: a kernel that
// does not overcommit memory (vm.overcommit_memory=2 would charge the
// whole block) or a bounded address space (ulimit -v), where the
// runtime would stop the program rather than fail the allocation. It
// returns the advised range, for the tests.
func adviseHeap(n int) (lo, hi uintptr) {
	if heapAdviceRefused() != "" {
		return 0, 0
	}
	block := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	lo, hi = (start+hugePage-1)&^(hugePage-1), (start+uintptr(n))&^(hugePage-1)
	if lo >= hi {
		return 0, 0
	}
	if syscall.Madvise(block[lo-start:hi-start], syscall.MADV_HUGEPAGE) != nil {
		lo, hi = 0, 0 // advice only: small pages, as without it
	}
	runtime.KeepAlive(block)
	runtime.GC() // block is dead here: the collection frees it
	return lo, hi
}

// heapAdviceRefused says why adviseHeap would do nothing here, "" if it
// would advise.
func heapAdviceRefused() string {
	if !thpOnRequest() {
		return "transparent huge pages are not in madvise mode"
	}
	if strings.Contains(os.Getenv("GODEBUG"), "disablethp=1") {
		return "GODEBUG=disablethp=1"
	}
	if b, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || !bytes.HasPrefix(b, []byte{'0'}) && !bytes.HasPrefix(b, []byte{'1'}) {
		return "the kernel does not overcommit memory"
	}
	var as syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &as) != nil || as.Cur != rlimInfinity {
		return "the address space is bounded (ulimit -v)"
	}
	return ""
}

// thpOnRequest reports whether transparent huge pages are given to the
// ranges that ask for them and only to those: the "madvise" mode.
func thpOnRequest() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	return err == nil && bytes.Contains(b, []byte("[madvise]"))
}
