package workspace

import (
	"math"
	"runtime/debug"
	"strconv"
	"sync"
)

// A memsys command that reads a long history fills tens of megabytes
// of heap it never touched before, and on a virtual machine every
// first touch of a 4 KiB page is a fault costing microseconds: at
// 100,000 events the faults were about half the CPU time of a lint
// resumed after an append. Where Linux offers transparent huge pages
// on request (the "madvise" mode most distributions ship), one fault
// fills 2 MiB instead. The Go runtime does not ask for them for its
// heap, so a short-lived command asks itself: it makes the heap grow
// by a block the size of what it is about to fill, advises that range,
// and collects the block, so that the allocations that follow reuse
// the advised memory (reserveHeap). The advice changes no byte of any
// result, only how memory is backed.

// heapAdvice is set by ShortLived; reserved is what the one
// reservation of this process advised.
var heapAdvice struct {
	sync.Mutex
	on       bool
	reserved int
}

// ShortLived tells the workspace that this process runs one command and
// exits, so reads of a long history may advise huge pages for the heap
// they are about to fill (see reserveHeap). The memsys command calls it;
// a long-running process (the MCP server) and library users do not, and
// keep the Go runtime's own heap management.
func ShortLived() {
	heapAdvice.Lock()
	heapAdvice.on = true
	heapAdvice.Unlock()
}

// hugeHeapMin is the least heap worth advising: below it a command
// touches a few hundred pages, and a huge page would be zeroed in full
// for them.
const hugeHeapMin = 16 << 20

// hugeHeapMax bounds one reservation, whatever the history's size: the
// block is address space only, and the heap of a longer history grows
// past it as it would without the advice.
const hugeHeapMax = 1 << 30

// Heap advised per byte read: a cold run of a whole history (lint keeps
// its index and the replay state beside the source, and its collector
// lets the heap grow to twice what is live), and a cache entry decoded
// in place (its maps and structs take three to four times the encoding,
// and the run goes on with the collector held). Both were measured at
// 100,000 events (docs/benchmarks.md); advising more than is filled
// costs address space only.
const (
	heapPerHistoryByte = 6
	heapPerEntryByte   = 8
)

// reserveHeap advises huge pages for about n bytes of heap, once per
// process: in a ShortLived process, when n reaches hugeHeapMin, and
// where the system allows it (adviseHeap). Once only, because the
// runtime zeroes freed memory before it reuses it: a second, larger
// block would first clear the whole of the first one.
func reserveHeap(n int) {
	n = min(n, hugeHeapMax)
	heapAdvice.Lock()
	defer heapAdvice.Unlock()
	if !heapAdvice.on || n < hugeHeapMin || heapAdvice.reserved != 0 || strconv.IntSize < 64 {
		return // (a 32-bit address space has no room to spare for the block)
	}
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return // GOMEMLIMIT: the user bounds the heap, leave it to the runtime
	}
	heapAdvice.reserved = n
	advise(n)
}

// advise is adviseHeap; the policy test replaces it.
var advise = adviseHeap

// reserveForHistory is reserveHeap for a cold read of root's whole
// history (log and archive).
func reserveForHistory(root string) {
	heapAdvice.Lock()
	on := heapAdvice.on
	heapAdvice.Unlock()
	if !on {
		return
	}
	reserveHeap(int(min(historySize(root), hugeHeapMax)) * heapPerHistoryByte)
}
