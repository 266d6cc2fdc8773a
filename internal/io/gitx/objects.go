package gitx

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Objects reads blobs straight from the repository's object store (the
// pack files under objects/pack and the loose objects), without a git
// process. Audit reads every version of the log: through cat-file,
// each version is rebuilt from its delta, then copied through a pipe
// and read back, hundreds of megabytes for a long history; here a
// version is its predecessor plus a small delta applied in memory.
//
// It reads only what it understands: version 2 pack indexes, and
// objects of this repository's own object folder. Anything else (an
// alternate object store, a pack replaced while reading, an object in
// an unknown form) is reported as not found, and the caller reads it
// through cat-file, so what it returns is always what git would.
type Objects struct {
	dir     string // the objects folder
	hashLen int    // bytes in an object ID: 20 (SHA-1) or 32 (SHA-256)
	packs   []*pack
	cache   baseCache
	lent    map[string][]*entry // what Blob returned, until Release
	deltas  [][]byte            // a delta being applied, per depth
	zr      io.ReadCloser
	br      *bufio.Reader
	// Limit, when not 0, is the size over which Blob declines an
	// object, rebuilding none that large (a delta base included): the
	// caller reads it through cat-file, which refuses it unread.
	Limit int64
}

// max is the largest object Objects rebuilds.
func (o *Objects) max() int64 {
	if o.Limit > 0 && o.Limit < maxObject {
		return o.Limit
	}
	return maxObject
}

// pack is one pack file and its index.
type pack struct {
	f     *os.File
	size  int64
	n     int
	fan   []byte // 256 big-endian counts
	names []byte // n sorted IDs
	offs  []byte // n big-endian 32-bit offsets
	large []byte // 64-bit offsets, for offsets of 2 GB and more
}

// maxBaseCache and maxBaseEntries bound the objects kept as delta
// bases (git's core.deltaBaseCacheLimit is 96 MB). Versions are read
// oldest first, so few are needed: the last one, whose successor is
// often a delta over it, and in a repacked history the few versions
// many others are deltas over. Fewer objects kept also mean buffers
// let go of sooner: each version is rebuilt in the buffer of an
// earlier one, not in fresh memory, whose page faults cost more than
// the rebuilding. minBaseEntries are kept whatever their size, so a
// chain of large versions (a 100k-event log is 31 MB) is not rebuilt
// from its start for each.
const (
	maxBaseCache   = 32 << 20
	maxBaseEntries = 32
	minBaseEntries = 2
)

// OpenObjects opens the object store in the folder objects (as
// Layout returns it) for objects whose IDs are hashLen bytes
// long. A store it cannot open is an error; callers then read through
// cat-file.
func OpenObjects(objects string, hashLen int) (*Objects, error) {
	o := &Objects{dir: objects, hashLen: hashLen}
	idxs, err := filepath.Glob(filepath.Join(o.dir, "pack", "*.idx"))
	if err != nil {
		return nil, err
	}
	slices.Sort(idxs)
	for _, idx := range idxs {
		if p, err := openPack(idx, hashLen); err == nil {
			o.packs = append(o.packs, p)
		}
	}
	return o, nil
}

// openPack reads a version 2 pack index and opens its pack. The index
// must be whole: its size what its object count says, its fan-out
// ascending (as git checks) and its trailing checksum right (which git
// leaves to fsck), so a damaged index is not read at all.
func openPack(idx string, hashLen int) (*pack, error) {
	data, err := os.ReadFile(idx)
	if err != nil {
		return nil, err
	}
	if len(data) < 8+256*4+2*hashLen || !bytes.Equal(data[:8], []byte{0xff, 't', 'O', 'c', 0, 0, 0, 2}) {
		return nil, errors.New("not a version 2 pack index")
	}
	fan := data[8 : 8+256*4]
	for i := 1; i < 256; i++ {
		if binary.BigEndian.Uint32(fan[(i-1)*4:]) > binary.BigEndian.Uint32(fan[i*4:]) {
			return nil, errors.New("pack index fan-out not ascending")
		}
	}
	n := int(binary.BigEndian.Uint32(fan[255*4:]))
	pos := 8 + 256*4
	minSize := pos + n*(hashLen+8) + 2*hashLen
	if len(data) < minSize || len(data) > minSize+8*max(n-1, 0) || (len(data)-minSize)%8 != 0 {
		return nil, errors.New("pack index size does not match its object count")
	}
	var sum []byte
	if hashLen == sha256.Size {
		s := sha256.Sum256(data[:len(data)-hashLen])
		sum = s[:]
	} else {
		s := sha1.Sum(data[:len(data)-hashLen])
		sum = s[:]
	}
	if !bytes.Equal(sum, data[len(data)-hashLen:]) {
		return nil, errors.New("pack index checksum mismatch")
	}
	p := &pack{n: n, fan: fan}
	p.names = data[pos : pos+n*hashLen]
	pos += n*hashLen + n*4 // the names, then their CRCs
	p.offs = data[pos : pos+n*4]
	p.large = data[pos+n*4 : len(data)-2*hashLen]
	f, err := os.Open(strings.TrimSuffix(idx, ".idx") + ".pack")
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	p.f, p.size = f, st.Size()
	return p, nil
}

// find returns the offset of the object id in p.
func (p *pack) find(id []byte) (int64, bool) {
	lo := 0
	if id[0] > 0 {
		lo = int(binary.BigEndian.Uint32(p.fan[(int(id[0])-1)*4:]))
	}
	hi := int(binary.BigEndian.Uint32(p.fan[int(id[0])*4:]))
	if lo > hi || hi > p.n {
		return 0, false // a damaged index
	}
	hl := len(id)
	for lo < hi {
		m := (lo + hi) / 2
		switch bytes.Compare(p.names[m*hl:(m+1)*hl], id) {
		case 0:
			off := int64(binary.BigEndian.Uint32(p.offs[m*4:]))
			if off&(1<<31) != 0 {
				i := int(off &^ (1 << 31))
				if len(p.large) < (i+1)*8 {
					return 0, false
				}
				off = int64(binary.BigEndian.Uint64(p.large[i*8:]))
			}
			return off, true
		case -1:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// Close closes the pack files.
func (o *Objects) Close() error {
	for _, p := range o.packs {
		p.f.Close()
	}
	o.packs = nil
	return nil
}

// Has reports whether Blob can look for oid in the store: it is in a
// pack or a loose object. It reads no object.
func (o *Objects) Has(oid string) bool {
	id, err := hex.DecodeString(oid)
	if err != nil || len(id) != o.hashLen {
		return false
	}
	for _, p := range o.packs {
		if _, ok := p.find(id); ok {
			return true
		}
	}
	_, err = os.Stat(o.loosePath(oid))
	return err == nil
}

func (o *Objects) loosePath(oid string) string {
	return filepath.Join(o.dir, oid[:2], oid[2:])
}

// Blob returns the blob oid. ok is false when the store does not hold
// it in a form Objects reads, or it is not a blob: the caller asks
// cat-file. The result is the store's: callers must not change it, and
// give it back with Release when done, so its buffer can hold a later
// version (a long history rebuilds hundreds of megabytes; fresh memory
// for each version costs more than the rebuilding).
func (o *Objects) Blob(oid string) (data []byte, ok bool) {
	id, err := hex.DecodeString(oid)
	if err != nil || len(id) != o.hashLen {
		return nil, false
	}
	e, found, err := o.object(id)
	if err == nil && !found {
		e, found, err = o.loose(oid)
	}
	if err != nil || !found {
		return nil, false
	}
	if e.typ != objBlob {
		o.release(e)
		return nil, false
	}
	if o.lent == nil {
		o.lent = map[string][]*entry{}
	}
	o.lent[oid] = append(o.lent[oid], e)
	return e.data, true
}

// Release gives back a blob Blob returned; its bytes may then be
// overwritten.
func (o *Objects) Release(oid string) {
	es := o.lent[oid]
	if len(es) == 0 {
		return
	}
	o.release(es[len(es)-1])
	if len(es) == 1 {
		delete(o.lent, oid)
	} else {
		o.lent[oid] = es[:len(es)-1]
	}
}

// release drops one hold on e; its buffer is reused once nobody holds
// it.
func (o *Objects) release(e *entry) {
	if e.refs--; e.refs == 0 {
		o.cache.pool.put(e.data)
	}
}

// The pack object types (gitformat-pack(5)).
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

// object finds id in the packs and rebuilds it, held once for the
// caller.
func (o *Objects) object(id []byte) (*entry, bool, error) {
	for i, p := range o.packs {
		if off, found := p.find(id); found {
			e, err := o.unpack(i, off, 0)
			return e, err == nil, err
		}
	}
	return nil, false, nil
}

// maxObject is the largest object read here (a corrupt size must not
// allocate terabytes); larger ones are read through cat-file.
const maxObject = 1 << 30

// maxDeltaDepth stops a delta chain that loops (a corrupt pack).
const maxDeltaDepth = 10000

// unpack rebuilds the object at off in pack i, its delta bases first,
// held once for the caller; every rebuilt object is kept in the base
// cache too, as the next version of a file is most often a delta over
// this one.
func (o *Objects) unpack(i int, off int64, depth int) (*entry, error) {
	key := baseKey{i, off}
	if e, ok := o.cache.m[key]; ok {
		e.refs++
		e.used = true
		return e, nil
	}
	if depth > maxDeltaDepth {
		return nil, errors.New("delta chain too deep")
	}
	p := o.packs[i]
	o.br = resetReader(o.br, io.NewSectionReader(p.f, off, p.size-off))
	typ, size, err := objectHeader(o.br)
	if err != nil {
		return nil, err
	}
	if size > o.max() {
		return nil, errors.New("object too large to read here")
	}
	var baseOff int64
	switch typ {
	case objCommit, objTree, objBlob, objTag:
		data, err := o.inflate(o.cache.pool.get(size), size)
		if err != nil {
			return nil, err
		}
		return o.keep(key, typ, data), nil
	case objOfsDelta:
		rel, err := ofsDelta(o.br)
		if err != nil {
			return nil, err
		}
		if rel <= 0 || rel > off {
			return nil, errors.New("bad delta base offset")
		}
		baseOff = off - rel
	case objRefDelta:
		bid := make([]byte, o.hashLen)
		if _, err := io.ReadFull(o.br, bid); err != nil {
			return nil, err
		}
		var found bool
		if baseOff, found = p.find(bid); !found {
			return nil, errors.New("delta base outside its pack")
		}
	default:
		return nil, fmt.Errorf("unknown pack object type %d", typ)
	}
	// The delta is read into memory before its base, which moves the
	// reader: into a buffer of its own per depth of the chain.
	for len(o.deltas) <= depth {
		o.deltas = append(o.deltas, nil)
	}
	delta, err := o.inflate(o.deltas[depth], size)
	if err != nil {
		return nil, err
	}
	o.deltas[depth] = delta
	if _, dst, _, ok := deltaSizes(delta); ok && int64(dst) > o.max() {
		return nil, errors.New("object too large to read here")
	}
	base, err := o.unpack(i, baseOff, depth+1)
	if err != nil {
		return nil, err
	}
	data, err := applyDelta(base.data, delta, o.cache.pool.get)
	o.release(base)
	if err != nil {
		return nil, err
	}
	return o.keep(key, base.typ, data), nil
}

// keep makes the entry of a rebuilt object, held for the caller and
// by the base cache.
func (o *Objects) keep(key baseKey, typ int, data []byte) *entry {
	e := &entry{typ: typ, data: data, refs: 1}
	o.cache.put(key, e, o.release)
	return e
}

func resetReader(br *bufio.Reader, r io.Reader) *bufio.Reader {
	if br == nil {
		return bufio.NewReaderSize(r, 32<<10)
	}
	br.Reset(r)
	return br
}

// inflate reads one zlib stream of size bytes from o.br into buf (nil
// for a new one) and checks it ends there (its checksum is verified at
// the end).
func (o *Objects) inflate(buf []byte, size int64) ([]byte, error) {
	if size < 0 || size > o.max() {
		return nil, errors.New("object too large to read here")
	}
	var err error
	if o.zr == nil {
		o.zr, err = zlib.NewReader(o.br)
	} else {
		err = o.zr.(zlib.Resetter).Reset(o.br, nil)
	}
	if err != nil {
		return nil, err
	}
	data := buf[:0]
	if int64(cap(data)) < size {
		data = make([]byte, size)
	}
	data = data[:size]
	if _, err := io.ReadFull(o.zr, data); err != nil {
		return nil, err
	}
	var one [1]byte
	if n, err := o.zr.Read(one[:]); n != 0 || err != io.EOF {
		return nil, errors.New("object longer than its header says")
	}
	return data, nil
}

// objectHeader reads a pack object's type and size.
func objectHeader(r io.ByteReader) (typ int, size int64, err error) {
	c, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	typ, size = int(c>>4)&7, int64(c&15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return 0, 0, errors.New("bad object header")
		}
		if c, err = r.ReadByte(); err != nil {
			return 0, 0, err
		}
		size |= int64(c&0x7f) << shift
	}
	return typ, size, nil
}

// ofsDelta reads the distance back to an offset delta's base.
func ofsDelta(r io.ByteReader) (int64, error) {
	c, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	rel := int64(c & 0x7f)
	for c&0x80 != 0 {
		if rel > 1<<55 {
			return 0, errors.New("bad delta base offset")
		}
		if c, err = r.ReadByte(); err != nil {
			return 0, err
		}
		rel = (rel+1)<<7 | int64(c&0x7f)
	}
	return rel, nil
}

// applyDelta rebuilds an object from its base and a delta: the sizes of
// both, then instructions that copy a range of the base or insert the
// bytes that follow them.
// get gives the buffer to write into (nil: a new one), of at least the
// capacity asked for.
func applyDelta(base, delta []byte, get func(int64) []byte) ([]byte, error) {
	bad := errors.New("malformed delta")
	srcSize, dstSize, delta, ok := deltaSizes(delta)
	if !ok || srcSize != len(base) || dstSize < 0 || dstSize > maxObject {
		return nil, bad
	}
	// A corrupt header must not allocate a gigabyte: an object is
	// rarely much longer than its base and the delta (whose copies can
	// repeat parts of the base), and append grows the rest.
	want := min(dstSize, 2*(len(base)+len(delta))+1<<16)
	var out []byte
	if get != nil {
		out = get(int64(want))
	}
	if cap(out) < want {
		out = make([]byte, 0, want)
	}
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n int
			for b := range 4 {
				if op&(1<<b) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= int(delta[0]) << (8 * b)
					delta = delta[1:]
				}
			}
			for b := range 3 {
				if op&(0x10<<b) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					n |= int(delta[0]) << (8 * b)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > len(base) || len(out)+n > dstSize {
				return nil, bad
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) || len(out)+n > dstSize {
				return nil, bad
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, bad
		}
	}
	if len(out) != dstSize {
		return nil, bad
	}
	return out, nil
}

// loose reads a loose object: zlib over "<type> <size>\x00<content>".
func (o *Objects) loose(oid string) (*entry, bool, error) {
	f, err := os.Open(o.loosePath(oid))
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	o.br = resetReader(o.br, f)
	z, err := zlib.NewReader(o.br)
	if err != nil {
		return nil, false, err
	}
	defer z.Close()
	zb := bufio.NewReaderSize(z, 64)
	head, err := zb.ReadString(0)
	if err != nil {
		return nil, false, err
	}
	name, sz, _ := strings.Cut(strings.TrimSuffix(head, "\x00"), " ")
	size, err := strconv.ParseInt(sz, 10, 64)
	if err != nil || size < 0 || size > maxObject {
		return nil, false, errors.New("bad loose object header")
	}
	if size > o.max() {
		return nil, false, errors.New("object too large to read here")
	}
	var typ int
	switch name {
	case "blob":
		typ = objBlob
	case "tree":
		typ = objTree
	case "commit":
		typ = objCommit
	case "tag":
		typ = objTag
	default:
		return nil, false, errors.New("bad loose object type")
	}
	data := o.cache.pool.get(size)[:size]
	if _, err := io.ReadFull(zb, data); err != nil {
		return nil, false, err
	}
	var one [1]byte
	if n, err := zb.Read(one[:]); n != 0 || err != io.EOF {
		return nil, false, errors.New("loose object longer than its header says")
	}
	return &entry{typ: typ, data: data, refs: 1}, true, nil
}

// baseKey names an object in a pack.
type baseKey struct {
	pack int
	off  int64
}

// entry is a rebuilt object and the number of holds on it: the base
// cache's and its callers'.
type entry struct {
	typ  int
	data []byte
	refs int
	used bool // read from the cache since it was last passed over
}

// baseCache keeps rebuilt objects, up to maxBaseCache bytes and
// maxBaseEntries objects (but at least minBaseEntries): versions
// are read oldest first, and each is most often the base of the next;
// but a repacked history deltas many versions over one base, which
// stays while it is used (the oldest is dropped first, unless read
// since it was last passed over: a second chance).
type baseCache struct {
	m     map[baseKey]*entry
	order []baseKey
	size  int
	pool  bufPool
}

// put holds e in the cache; drop lets go of the entries it evicts.
func (c *baseCache) put(k baseKey, e *entry, drop func(*entry)) {
	if c.m == nil {
		c.m = map[baseKey]*entry{}
	}
	if _, ok := c.m[k]; ok {
		return
	}
	e.refs++
	c.m[k] = e
	c.order = append(c.order, k)
	c.size += len(e.data)
	for (c.size > maxBaseCache || len(c.m) > maxBaseEntries) && len(c.m) > minBaseEntries {
		k := c.order[0]
		c.order = c.order[1:]
		old := c.m[k]
		if old.used {
			old.used = false
			c.order = append(c.order, k)
			continue
		}
		delete(c.m, k)
		c.size -= len(old.data)
		drop(old)
	}
}

// bufPool keeps a few buffers nobody holds any more, for the next
// objects: successive versions of a file have about the same size.
type bufPool struct{ free [][]byte }

// maxPooled bounds the buffers kept.
const maxPooled = 32

// get returns an empty buffer of capacity n or more: a pooled one, or a
// new one.
func (p *bufPool) get(n int64) []byte {
	for i := len(p.free) - 1; i >= 0; i-- {
		if b := p.free[i]; int64(cap(b)) >= n {
			p.free = append(p.free[:i], p.free[i+1:]...)
			return b[:0]
		}
	}
	// Capacities are powers of two: a buffer let go of serves every
	// later version up to twice its first size.
	c := int64(4096)
	for c < n {
		c *= 2
	}
	return make([]byte, 0, c)
}

func (p *bufPool) put(b []byte) {
	if cap(b) == 0 {
		return
	}
	if len(p.free) == maxPooled {
		p.free = p.free[1:]
	}
	p.free = append(p.free, b[:0])
}

// deltaSizes reads the header of a delta: the sizes of its base and of
// the object it rebuilds, and the instructions after them.
func deltaSizes(delta []byte) (src, dst int, rest []byte, ok bool) {
	varint := func() (int, bool) {
		n, shift := 0, 0
		for len(delta) > 0 && shift < 63 {
			c := delta[0]
			delta = delta[1:]
			n |= int(c&0x7f) << shift
			if c&0x80 == 0 {
				return n, true
			}
			shift += 7
		}
		return 0, false
	}
	src, ok1 := varint()
	dst, ok2 := varint()
	return src, dst, delta, ok1 && ok2
}
