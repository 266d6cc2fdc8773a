//go:build linux

package workspace

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, its pages filled
// in by the one mmap call (MAP_POPULATE): the file's pages are already
// in the page cache after the write that made it, so the mapping costs
// no copy and none of the page faults a fresh buffer of that size
// takes on first touch, which on a virtual machine cost more than the
// copy. The mapping is never unmapped: the decoded state shares its
// memory for the life of the process.
func mapFile(f *os.File, size int) ([]byte, bool) {
	b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
	return b, err == nil
}
