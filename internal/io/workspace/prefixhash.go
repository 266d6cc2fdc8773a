package workspace

import (
	"crypto/sha256"
	"encoding"
	"errors"
	"fmt"
	"hash"
	"io"
)

// A cache entry computed from a log is keyed by the SHA-256 of the
// bytes it covers. Verifying the key needs a pass over those bytes;
// extending it after an append should not need a second one. So the
// key is kept as the hash's state (crypto/sha256's MarshalBinary), which
// continues over appended bytes alone, and the verification streams the
// file once, in fixed chunks through one buffer, and hands back the
// state at each point it checked.

// PrefixHash is the SHA-256 of a file's first Len bytes, held as the
// hash's state rather than its sum, so that bytes appended after them
// can be hashed on (Extend) without reading the prefix again.
type PrefixHash struct {
	Len   int64
	State []byte // sha256 digest's MarshalBinary after Len bytes
}

// Mark is a prefix a caller expects a file to start with: its length
// and SHA-256.
type Mark struct {
	Len int64
	Sum [32]byte
}

// HashPrefix returns the PrefixHash of b (a whole prefix held in
// memory, as after a cold run that read the file).
func HashPrefix(b []byte) (PrefixHash, error) { return PrefixHash{}.Extend(b) }

// restore returns a hash in p's state; the zero PrefixHash is the
// empty prefix.
func (p PrefixHash) restore() (hash.Hash, error) {
	h := sha256.New()
	if p.State == nil {
		return h, nil
	}
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(p.State); err != nil {
		return nil, fmt.Errorf("prefix hash: %w", err)
	}
	return h, nil
}

// save returns the PrefixHash of h after n bytes.
func save(h hash.Hash, n int64) (PrefixHash, error) {
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return PrefixHash{}, fmt.Errorf("prefix hash: %w", err)
	}
	return PrefixHash{Len: n, State: st}, nil
}

// Extend returns the PrefixHash of the Len bytes followed by b.
func (p PrefixHash) Extend(b []byte) (PrefixHash, error) {
	h, err := p.restore()
	if err != nil {
		return PrefixHash{}, err
	}
	h.Write(b)
	return save(h, p.Len+int64(len(b)))
}

// Sum returns the SHA-256 of the Len bytes, the Mark to look for next
// time.
func (p PrefixHash) Sum() (Mark, error) {
	h, err := p.restore()
	if err != nil {
		return Mark{}, err
	}
	return Mark{Len: p.Len, Sum: [32]byte(h.Sum(nil))}, nil
}

// hashChunk is the buffer size of the streamed hash: large enough for
// few read calls, small enough to stay in cache. Every page of it is a
// fresh page to fault in (~13 µs each on the benchmark machine), which
// at 1k events is a visible part of a warm command: 64 KiB costs 16 of
// them, 256 KiB cost 64, and at 100k events the extra read calls of the
// smaller buffer are a fraction of a millisecond.
const hashChunk = 64 << 10

// ReadAfterMarks streams rel inside root from its start, hashing it, and
// checks that its first marks[i].Len bytes hash to marks[i].Sum for
// every mark (given by increasing Len). ok is false if one does not or
// the file is shorter than the last. With ok, rest is the file's bytes
// after the FIRST mark (read once, from the same open file) and at[i]
// is the PrefixHash at marks[i]: extend one by the part of rest that
// follows it to key a longer prefix. Only rest is held in memory, and
// only once every mark has matched: a history that was edited costs
// the cold run that follows no more than one small buffer.
func ReadAfterMarks(root, rel string, marks ...Mark) (rest []byte, at []PrefixHash, ok bool, err error) {
	return ReadAfterMarksIf(root, rel, nil, marks...)
}

// ReadAfterMarksIf is ReadAfterMarks with the File method's want.
func ReadAfterMarksIf(root, rel string, want func(rest []byte) bool, marks ...Mark) (rest []byte, at []PrefixHash, ok bool, err error) {
	if len(marks) == 0 {
		return nil, nil, false, errors.New("ReadAfterMarks: no mark")
	}
	f, err := Open(root, rel)
	if err != nil {
		return nil, nil, false, err
	}
	defer f.Close()
	return f.ReadAfterMarksIf(want, marks...)
}

// ReadAfterMarks is the function ReadAfterMarks over a file already
// open, up to its Size: append, which holds the log open under the
// lock, checks the history cache against the very bytes it plans
// from, not a second open that a concurrent rewrite could make
// another file.
func (f *File) ReadAfterMarks(marks ...Mark) (rest []byte, at []PrefixHash, ok bool, err error) {
	return f.ReadAfterMarksIf(nil, marks...)
}

// ReadAfterMarksIf is ReadAfterMarks for a caller that can tell from
// the bytes after the first mark alone that it has no use for them
// (want returns false: a replay checkpoint cannot resume over a
// Supersedes field, which names an event the checkpoint replayed as
// live). Those bytes are read first, and the prefix before them is
// hashed only when want takes them: a command that goes cold anyway
// then reads the log once, for its cold run, not twice. ok is false
// when want refused. With a nil want it is ReadAfterMarks.
func (f *File) ReadAfterMarksIf(want func(rest []byte) bool, marks ...Mark) (rest []byte, at []PrefixHash, ok bool, err error) {
	if len(marks) == 0 {
		return nil, nil, false, errors.New("ReadAfterMarks: no mark")
	}
	rel := f.rel
	first, size := marks[0].Len, f.Size()
	if first < 0 || size < marks[len(marks)-1].Len {
		return nil, nil, false, nil
	}
	if want != nil {
		if rest, err = f.readFrom(first, size); err != nil {
			return nil, nil, false, err
		}
		if !want(rest) {
			return nil, nil, false, nil
		}
		observeRead(f.f.Name())
		// The bytes from the first mark on are in memory: only the
		// prefix before it is read again, to hash it.
		if at, ok, err = hashMarks(f.f, rest, first, rel, marks); !ok || err != nil {
			return nil, nil, ok, err
		}
		return rest, at, true, nil
	}
	observeRead(f.f.Name())
	at, ok, err = hashMarks(f.f, nil, size, rel, marks)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	if rest, err = f.readFrom(first, size); err != nil {
		return nil, nil, false, err
	}
	return rest, at, true, nil
}

// readFrom reads the file's bytes from offset from to size.
func (f *File) readFrom(from, size int64) ([]byte, error) {
	b := make([]byte, size-from)
	if _, err := f.f.ReadAt(b, from); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: cannot read: %v", f.rel, err)
	}
	return b, nil
}

// AfterMarks is ReadAfterMarks over bytes already read: a command that
// holds the log (recall) checks the history cache's marks without
// reading the file again. rest shares b's memory.
func AfterMarks(b []byte, marks ...Mark) (rest []byte, at []PrefixHash, ok bool, err error) {
	if len(marks) == 0 {
		return nil, nil, false, errors.New("AfterMarks: no mark")
	}
	if marks[0].Len < 0 || int64(len(b)) < marks[len(marks)-1].Len {
		return nil, nil, false, nil
	}
	at, ok, err = hashMarks(nil, b, 0, "", marks)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	return b[marks[0].Len:], at, true, nil
}

// hashMarks hashes a file from its start through the marks and checks
// each mark's sum. The file's bytes from tailAt on are tail, in memory;
// those before it are read from r (named rel in errors) through one
// buffer. The caller has checked that the file reaches the last mark.
func hashMarks(r io.ReaderAt, tail []byte, tailAt int64, rel string, marks []Mark) (at []PrefixHash, ok bool, err error) {
	h := sha256.New()
	var buf []byte
	var pos int64
	for _, m := range marks {
		if m.Len < pos {
			return nil, false, errors.New("ReadAfterMarks: marks out of order")
		}
		for pos < m.Len && pos < tailAt {
			if buf == nil {
				buf = make([]byte, min(hashChunk, tailAt, marks[len(marks)-1].Len))
			}
			k := int(min(int64(len(buf)), m.Len-pos, tailAt-pos))
			if _, err := r.ReadAt(buf[:k], pos); err != nil {
				return nil, false, fmt.Errorf("%s: cannot read: %v", rel, err)
			}
			h.Write(buf[:k])
			pos += int64(k)
		}
		if pos < m.Len {
			h.Write(tail[pos-tailAt : m.Len-tailAt])
			pos = m.Len
		}
		if [32]byte(h.Sum(nil)) != m.Sum {
			return nil, false, nil
		}
		p, err := save(h, pos)
		if err != nil {
			return nil, false, err
		}
		at = append(at, p)
	}
	return at, true, nil
}
