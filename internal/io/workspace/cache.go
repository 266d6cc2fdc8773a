package workspace

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The history cache keeps what memsys computed from a log, keyed by
// the hash of the bytes it was computed from, so that the next run
// verifies the bytes and does only the rest (internal/app/memory's
// Replay). This file is where the cache touches the disk: where it
// lives, how an entry is written (atomically, with a checksum), read
// (a corrupt or foreign entry is no entry) and bounded.

// EnvNoCache turns the cache off when set to anything but "" or "0",
// as the global --no-cache flag does.
const EnvNoCache = "MEMSYS_NO_CACHE"

// cacheOff is set by DisableCache (the --no-cache flag).
var cacheOff bool

// DisableCache turns the history cache off for this process: nothing is
// read from it or written to it.
func DisableCache() { cacheOff = true }

// CacheEnabled reports whether the history cache is on: not disabled by
// --no-cache or MEMSYS_NO_CACHE.
func CacheEnabled() bool {
	if cacheOff {
		return false
	}
	v := os.Getenv(EnvNoCache)
	return v == "" || v == "0"
}

// Bounds of the cache folder: entries beyond cacheMaxEntries (the
// oldest first) are removed on every write, and no entry larger than
// cacheMaxEntry is written.
const (
	cacheMaxEntries = 8
	cacheMaxEntry   = 256 << 20
)

// cacheMaxRoots bounds the user's cache area (userCacheRoot): one
// folder per memory outside a repository, and a root that was a
// temporary folder never comes back to remove its own. Beyond this
// many, the least recently written folders are removed when another is
// written.
const cacheMaxRoots = 32

// userCacheDir is os.UserCacheDir; the tests point it at a folder of
// their own.
var userCacheDir = os.UserCacheDir

// userCacheRoot is the folder of the user's cache that holds a cache
// folder per memory outside a repository, "" if the user has no cache
// directory.
func userCacheRoot() string {
	uc, err := userCacheDir()
	if err != nil || uc == "" {
		return ""
	}
	return filepath.Join(uc, "memsys")
}

// castagnoli is built on first use: making the table at package init
// cost every command, cache or not, its start-up time.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// cacheDirName is the cache's folder inside the git directory.
const cacheDirName = "memsys-cache"

// CacheDir returns the cache folder of the memory at root: inside the
// repository's git directory (a worktree has its own), where git never
// looks and `git clean` never reaches; outside a repository (or under
// a ".git" file naming a git directory that is gone), a folder of the
// user's cache directory named by the root's path. "" if there is none.
func CacheDir(root string) string {
	for d := root; ; {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil {
			if fi.IsDir() {
				return filepath.Join(g, cacheDirName)
			}
			// A worktree or submodule: ".git" is a file naming the
			// git directory.
			if b, ok := readRegular(g, 64<<10); ok {
				if dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					dir = strings.TrimSpace(dir)
					if !filepath.IsAbs(dir) {
						dir = filepath.Join(d, dir)
					}
					// Only a git directory that is there: a worktree
					// whose repository was moved, a pruned worktree or
					// a copied checkout names one that is not, and
					// CachePut's MkdirAll would build that path (a
					// stray ".git" where the repository used to be).
					// Git calls such a tree no repository; so does
					// the cache.
					if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
						return filepath.Join(dir, cacheDirName)
					}
				}
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	area := userCacheRoot()
	if area == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(area, hex.EncodeToString(sum[:8]))
}

// BuildID identifies the running memsys binary (its path, size and
// modification time), so that cache entries written by one build are
// never read by another, whose replay may differ.
var BuildID = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return exe + "\x00" + strconv.FormatInt(fi.Size(), 10) + "\x00" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
})

// CacheGet returns the entry name of root's cache, if the cache is on
// and the entry is there and whole (its checksum matches).
func CacheGet(root, name string) ([]byte, bool) {
	if !CacheEnabled() {
		return nil, false
	}
	dir := CacheDir(root)
	if dir == "" {
		return nil, false
	}
	b, ok := readRegular(filepath.Join(dir, name), cacheMaxEntry+4)
	if !ok {
		return nil, false
	}
	return checkedEntry(b)
}

// CacheView is CacheGet for the large entries (a replay state, a lint
// checkpoint: megabytes at 100,000 events) that are decoded in place
// and never written to: where it can, it maps the file read-only
// instead of reading it into a buffer. The bytes must not be modified;
// writing them faults. An entry is replaced by a rename, never
// rewritten in place, so the mapped bytes cannot change under the
// reader.
func CacheView(root, name string) ([]byte, bool) {
	if !CacheEnabled() {
		return nil, false
	}
	dir := CacheDir(root)
	if dir == "" {
		return nil, false
	}
	f, fi, ok := openRegular(filepath.Join(dir, name), cacheMaxEntry+4)
	if !ok {
		return nil, false
	}
	defer f.Close()
	reserveHeap(int(fi.Size()) * heapPerEntryByte)
	if fi.Size() >= viewMin {
		if b, ok := mapFile(f, int(fi.Size())); ok {
			return checkedEntry(b)
		}
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, false
	}
	return checkedEntry(b)
}

// viewMin is the size from which CacheView maps an entry rather than
// read it: below it a mapping saves next to nothing. It is low enough
// that the cache tests' longer logs (a few thousand events) are read
// through the mapping.
const viewMin = 64 << 10

// checkedEntry returns an entry's data without its checksum, ok only if the
// checksum matches.
func checkedEntry(b []byte) ([]byte, bool) {
	if len(b) < 4 {
		return nil, false
	}
	// The checksum guards against a damaged file, not a forged one
	// (whoever can write the git directory can write the log): CRC-32C
	// runs at memory speed.
	data, sum := b[:len(b)-4], b[len(b)-4:]
	if binary.LittleEndian.Uint32(sum) != crc32.Checksum(data, castagnoli()) {
		return nil, false // corrupt: ignored, and replaced by the next Put
	}
	return data, true
}

// CachePut stores data as the entry name of root's cache: a temporary
// file in the cache folder, renamed over the entry, so a concurrent
// reader sees the old entry or the new one; runs writing the same entry
// at once each write a whole one. Errors are not reported (the cache
// only ever makes memsys faster); ok tells whether the entry was
// written, for a caller whose next entry refers to this one.
func CachePut(root, name string, data []byte) (ok bool) {
	if len(data) > cacheMaxEntry {
		return false
	}
	return CachePutFunc(root, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// CachePutFunc is CachePut of the bytes write writes, streamed to the
// entry's temporary file: an entry of megabytes (lint's findings on a
// long log) is never held whole in memory, which on a short-lived
// process costs a page fault for every 4 KB of it. An error from write,
// or more than the bound of an entry, writes nothing.
func CachePutFunc(root, name string, write func(io.Writer) error) (ok bool) {
	if !CacheEnabled() {
		return false
	}
	dir := CacheDir(root)
	if dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return false
	}
	f, err := trackedTemp(dir, tmpPrefix+name+"-*")
	if err != nil {
		return false
	}
	defer tempDone(f.Name())
	// A small buffer: what callers write is mostly chunks of tens of
	// kilobytes (snapshot.EncodeTo's), which bufio hands to the file
	// without copying, or a few kilobytes whole (lint's findings), and
	// a buffer of 64 KB was 16 page faults of a short-lived process for
	// each entry.
	w := &entryWriter{w: bufio.NewWriterSize(f, 8<<10), crc: crc32.New(castagnoli())}
	err = write(w)
	if err == nil && w.n > cacheMaxEntry {
		err = errors.New("cache entry too large")
	}
	if err == nil {
		_, err = w.w.Write(binary.LittleEndian.AppendUint32(nil, w.crc.Sum32()))
	}
	if err == nil {
		err = w.w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(f.Name(), filepath.Join(dir, name)) != nil {
		os.Remove(f.Name())
		return false
	}
	pruneCache(dir)
	if area := userCacheRoot(); area != "" && filepath.Dir(dir) == area {
		pruneRoots(area, filepath.Base(dir))
	}
	return true
}

// entryWriter writes an entry's bytes through its checksum, counting
// them.
type entryWriter struct {
	w   *bufio.Writer
	crc hash.Hash32
	n   int
}

func (e *entryWriter) Write(p []byte) (int, error) {
	e.n += len(p)
	if e.n > cacheMaxEntry {
		return 0, errors.New("cache entry too large")
	}
	e.crc.Write(p)
	return e.w.Write(p)
}

// pruneCache removes the oldest entries beyond cacheMaxEntries, and
// temporary files a killed run left.
func pruneCache(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		mod  int64
	}
	var es []entry
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			if len(ents) > cacheMaxEntries {
				os.Remove(filepath.Join(dir, e.Name()))
			}
			continue
		}
		es = append(es, entry{e.Name(), fi.ModTime().UnixNano()})
	}
	if len(es) <= cacheMaxEntries {
		return
	}
	slices.SortFunc(es, func(a, b entry) int {
		if a.mod != b.mod {
			return int(min(max(b.mod-a.mod, -1), 1))
		}
		return strings.Compare(a.name, b.name)
	})
	for _, e := range es[cacheMaxEntries:] {
		os.Remove(filepath.Join(dir, e.name))
	}
}

// pruneRoots removes the least recently written cache folders of the
// user's cache area beyond cacheMaxRoots, never keep (the folder just
// written). A folder's modification time is that of the last entry
// renamed into it. Only folders named as CacheDir names them are
// counted or removed, whatever else the area holds. A run still
// writing into a folder removed under it writes no entry, and one
// reading from it finds none: the cache only ever makes memsys faster.
func pruneRoots(area, keep string) {
	ents, err := os.ReadDir(area)
	if err != nil || len(ents) <= cacheMaxRoots {
		return
	}
	type folder struct {
		name string
		mod  int64
	}
	var fs []folder
	for _, e := range ents {
		if !e.IsDir() || !isRootFolder(e.Name()) || e.Name() == keep {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		fs = append(fs, folder{e.Name(), fi.ModTime().UnixNano()})
	}
	if len(fs) < cacheMaxRoots {
		return // with keep, within the bound
	}
	slices.SortFunc(fs, func(a, b folder) int {
		if a.mod != b.mod {
			return int(min(max(b.mod-a.mod, -1), 1))
		}
		return strings.Compare(a.name, b.name)
	})
	for _, f := range fs[cacheMaxRoots-1:] {
		os.RemoveAll(filepath.Join(area, f.name))
	}
}

// isRootFolder reports whether name is one CacheDir gives a root's
// folder in the user's cache area: 16 lower-case hex digits.
func isRootFolder(name string) bool {
	if len(name) != 16 {
		return false
	}
	for _, c := range []byte(name) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// ReadAfter returns the bytes of rel inside root after its first n
// bytes, if those hash to sum (SHA-256); ok is false if they do not or
// the file is shorter. It is ReadAfterMarks with one mark.
func ReadAfter(root, rel string, n int64, sum [32]byte) (rest []byte, ok bool, err error) {
	rest, _, ok, err = ReadAfterMarks(root, rel, Mark{Len: n, Sum: sum})
	return rest, ok, err
}

// HashFile returns the SHA-256 of rel inside root, streamed through
// one small buffer rather than held whole, with ReadFile's checks.
func HashFile(root, rel string) ([32]byte, error) {
	f, err := Open(root, rel)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, io.NewSectionReader(f.f, 0, f.Size()), make([]byte, hashChunk)); err != nil {
		return [32]byte{}, fmt.Errorf("%s: cannot read: %v", rel, err)
	}
	return [32]byte(h.Sum(nil)), nil
}
