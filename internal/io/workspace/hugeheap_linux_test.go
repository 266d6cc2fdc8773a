package workspace

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// vmFlags returns the VmFlags of the mapping of this process holding
// addr, from /proc/self/smaps.
func vmFlags(t *testing.T, addr uintptr) []string {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	in := false
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line, " ") {
			in = lo <= addr && addr < hi
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			return strings.Fields(v)
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return nil
}

// TestAdviseHeap checks the two things the speed of a long history's
// commands rests on: the advice reaches the kernel for the reserved
// range, and the runtime then serves the next large allocation from
// that range (it reuses the freed block before it grows the heap).
func TestAdviseHeap(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("32-bit: reserveHeap never advises")
	}
	if why := heapAdviceRefused(); why != "" {
		t.Skip(why)
	}
	const n = 256 << 20 // more than this test process ever freed before
	lo, hi := adviseHeap(n)
	if lo == 0 || hi-lo < n-2*hugePage {
		t.Fatalf("adviseHeap(%d) advised [%#x, %#x)", n, lo, hi)
	}
	if !slices.Contains(vmFlags(t, lo), "hg") {
		t.Errorf("the advised range at %#x lacks the hg flag: %v", lo, vmFlags(t, lo))
	}
	// The allocation reuses the freed block: it may start in free pages
	// just below it, or (with -count) in a block an earlier run advised,
	// but its middle lies in advised memory either way.
	b := make([]byte, n/2)
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	mid := (at + n/4) &^ (hugePage - 1)
	if !slices.Contains(vmFlags(t, mid), "hg") {
		t.Errorf("a %d MiB allocation after the reservation, at %#x, is not in the advised [%#x, %#x): %v", n/2>>20, at, lo, hi, vmFlags(t, mid))
	}
}

// TestReserveHeapPolicy checks when reserveHeap advises: only in a
// ShortLived process, from hugeHeapMin, at most hugeHeapMax, once, and
// never under a memory limit.
func TestReserveHeapPolicy(t *testing.T) {
	if strconv.IntSize < 64 {
		t.Skip("32-bit: reserveHeap never advises")
	}
	var asked []int
	advise = func(n int) (lo, hi uintptr) { asked = append(asked, n); return 0, 0 }
	reset := func(on bool) {
		heapAdvice.Lock()
		heapAdvice.on, heapAdvice.reserved = on, 0
		heapAdvice.Unlock()
		asked = nil
	}
	t.Cleanup(func() { reset(false); advise = adviseHeap })

	reset(false)
	reserveHeap(64 << 20)
	if asked != nil {
		t.Errorf("a process that is not ShortLived advised %v", asked)
	}
	reset(true)
	reserveHeap(hugeHeapMin - 1)
	reserveHeap(32 << 20)
	reserveHeap(64 << 20)
	if !slices.Equal(asked, []int{32 << 20}) {
		t.Errorf("below hugeHeapMin, then 32 and 64 MiB: advised %v, want 32 MiB once", asked)
	}
	reset(true)
	reserveHeap(hugeHeapMax + 1<<20)
	if !slices.Equal(asked, []int{hugeHeapMax}) {
		t.Errorf("1 GiB and 1 MiB asked: advised %v, want the bound %d", asked, hugeHeapMax)
	}
	reset(true)
	old := debug.SetMemoryLimit(512 << 20)
	reserveHeap(64 << 20)
	debug.SetMemoryLimit(old)
	if asked != nil {
		t.Errorf("under GOMEMLIMIT: advised %v", asked)
	}
	if old != math.MaxInt64 {
		t.Fatalf("the test process runs with a memory limit (%d)", old)
	}
}

// TestAdviseHeapBoundedAddressSpace checks that adviseHeap leaves the
// heap alone under ulimit -v, where the block could stop the program.
func TestAdviseHeapBoundedAddressSpace(t *testing.T) {
	if why := heapAdviceRefused(); why != "" {
		t.Skip(why) // refused already: the bound would change nothing
	}
	var as syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &as); err != nil || as.Max != rlimInfinity {
		t.Skip("the hard limit of the address space cannot be restored")
	}
	bounded := as
	bounded.Cur = 1 << 46 // far above anything this test process maps
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &bounded); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_AS, &as)
	if lo, hi := adviseHeap(64 << 20); lo != 0 || hi != 0 {
		t.Errorf("under ulimit -v adviseHeap advised [%#x, %#x)", lo, hi)
	}
	if why := heapAdviceRefused(); !strings.Contains(why, "ulimit -v") {
		t.Errorf("heapAdviceRefused = %q, want the address space named", why)
	}
}
