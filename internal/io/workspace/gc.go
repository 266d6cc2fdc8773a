package workspace

import (
	"os"
	"path/filepath"
	"runtime/debug"
)

// smallMemory is the size of log plus archive under which TuneGC lets
// the heap grow further between collections.
const smallMemory = 1 << 20

// smallMemoryGC is the GC percentage TuneGC sets for a small memory.
const smallMemoryGC = 400

// TuneGC raises the garbage collector's target (GOGC 400 instead of 100)
// when the memory at root is small (log and archive under 1 MiB), unless
// $GOGC is set. A memsys command on such a log exits within tens of
// milliseconds, and at 1k events one collection was a tenth of its CPU
// time; its heap then stays under a few tens of MB. Larger memories keep
// the default, so their peak memory does not grow. It changes no result:
// only when memory is reclaimed. It returns whether it raised the target.
func TuneGC(root string) bool {
	if os.Getenv("GOGC") != "" {
		return false
	}
	if historySize(root) >= smallMemory {
		return false
	}
	debug.SetGCPercent(smallMemoryGC)
	return true
}

// historySize is the size in bytes of root's log and archive, as far
// as they exist.
func historySize(root string) int64 {
	var size int64
	for _, name := range append([]string{LogName}, ArchiveNames...) {
		if fi, err := os.Stat(filepath.Join(root, name)); err == nil {
			size += fi.Size()
		}
	}
	return size
}
