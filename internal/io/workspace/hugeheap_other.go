//go:build !linux

package workspace

// adviseHeap is Linux only: elsewhere the heap keeps the pages the
// runtime gets.
func adviseHeap(int) (lo, hi uintptr) { return 0, 0 }
