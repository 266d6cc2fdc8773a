package workspace

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestPrefixHashExtend: a prefix hash extended by bytes in any number
// of steps is the hash of the whole, and its Sum is the plain SHA-256.
func TestPrefixHashExtend(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 3*hashChunk+17)
	for i := range data {
		data[i] = byte(r.UintN(256))
	}
	for _, cuts := range [][]int{{}, {0}, {1}, {63, 64, 65}, {hashChunk}, {5, hashChunk + 1, 2*hashChunk - 3}, {len(data)}} {
		p := PrefixHash{}
		prev := 0
		for _, c := range append(cuts, len(data)) {
			var err error
			if p, err = p.Extend(data[prev:c]); err != nil {
				t.Fatal(err)
			}
			prev = c
		}
		m, err := p.Sum()
		if err != nil {
			t.Fatal(err)
		}
		if m.Len != int64(len(data)) || m.Sum != sha256.Sum256(data) {
			t.Errorf("cuts %v: got %d %x, want %d %x", cuts, m.Len, m.Sum, len(data), sha256.Sum256(data))
		}
	}
	if _, err := (PrefixHash{State: []byte("not a state")}).Extend(nil); err == nil {
		t.Error("a damaged state extends")
	}
}

// TestReadAfterMarks checks prefixes against marks in one pass and
// hands back the bytes after the first and the hash at each mark, which
// extended by the bytes after it keys the longer prefix.
func TestReadAfterMarks(t *testing.T) {
	root := t.TempDir()
	data := bytes.Repeat([]byte("### evt-001 | line of the log\n"), 30000) // > 3 chunks
	write(t, filepath.Join(root, LogName), string(data))
	mark := func(n int) Mark { return Mark{Len: int64(n), Sum: sha256.Sum256(data[:n])} }
	bad := mark(100)
	bad.Sum[0] ^= 1
	tests := []struct {
		name  string
		marks []Mark
		ok    bool
	}{
		{"one", []Mark{mark(1000)}, true},
		{"empty prefix", []Mark{mark(0)}, true},
		{"whole file", []Mark{mark(len(data))}, true},
		{"two across chunks", []Mark{mark(hashChunk - 1), mark(2*hashChunk + 5)}, true},
		// Marks past several chunks, and AfterMarks hashing in place.
		{"first past chunks", []Mark{mark(2*hashChunk + 5), mark(len(data) - 3)}, true},
		{"first mid-chunk", []Mark{mark(hashChunk + 1), mark(hashChunk + 2), mark(len(data))}, true},
		{"wrong after the first", []Mark{mark(3*hashChunk + 1), {Len: int64(len(data)) - 1}}, false},
		{"same twice", []Mark{mark(700), mark(700)}, true},
		{"wrong sum", []Mark{bad}, false},
		{"second wrong", []Mark{mark(50), bad}, false},
		{"past the end", []Mark{{Len: int64(len(data)) + 1}}, false},
	}
	for _, tt := range tests {
		rest, at, ok, err := ReadAfterMarks(root, LogName, tt.marks...)
		// ReadAfterMarksIf, whose want takes the bytes, reads them before
		// it hashes the prefix and gives the same answer; one that
		// refuses them gives ok false without reading the prefix.
		var asked []byte
		irest, iat, iok, ierr := ReadAfterMarksIf(root, LogName, func(b []byte) bool { asked = b; return true }, tt.marks...)
		if iok != ok || (ierr == nil) != (err == nil) || !bytes.Equal(irest, rest) || len(iat) != len(at) {
			t.Errorf("%s: ReadAfterMarksIf gives ok %v, %d bytes, %d hashes; ReadAfterMarks ok %v, %d bytes, %d hashes", tt.name, iok, len(irest), len(iat), ok, len(rest), len(at))
		}
		for i := range iat {
			if !bytes.Equal(iat[i].State, at[i].State) {
				t.Errorf("%s: ReadAfterMarksIf's hash at mark %d differs", tt.name, i)
			}
		}
		if first := tt.marks[0].Len; first >= 0 && first <= int64(len(data)) && int64(len(data)) >= tt.marks[len(tt.marks)-1].Len && !bytes.Equal(asked, data[first:]) {
			t.Errorf("%s: want was handed %d bytes, not the %d after the first mark", tt.name, len(asked), len(data)-int(first))
		}
		reads := 0
		stop := ObserveReads(func(string) { reads++ })
		_, _, rok, rerr := ReadAfterMarksIf(root, LogName, func([]byte) bool { return false }, tt.marks...)
		stop()
		if rok || rerr != nil || reads != 0 {
			t.Errorf("%s: a refusing want gives ok %v, err %v, %d whole reads; want false, nil, 0", tt.name, rok, rerr, reads)
		}
		// AfterMarks, over the bytes already read, says the same.
		mrest, mat, mok, merr := AfterMarks(data, tt.marks...)
		if mok != ok || (merr == nil) != (err == nil) || !bytes.Equal(mrest, rest) || len(mat) != len(at) {
			t.Errorf("%s: AfterMarks gives ok %v, %d bytes, %d hashes; ReadAfterMarks ok %v, %d bytes, %d hashes", tt.name, mok, len(mrest), len(mat), ok, len(rest), len(at))
		}
		for i := range mat {
			if x, y := mat[i], at[i]; !bytes.Equal(x.State, y.State) {
				t.Errorf("%s: AfterMarks' hash at mark %d differs", tt.name, i)
			}
		}
		if err != nil || ok != tt.ok {
			t.Errorf("%s: ok %v, err %v; want ok %v", tt.name, ok, err, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		first := tt.marks[0].Len
		if !bytes.Equal(rest, data[first:]) {
			t.Errorf("%s: rest is %d bytes, want the %d after %d", tt.name, len(rest), len(data)-int(first), first)
		}
		for i, m := range tt.marks {
			got, err := at[i].Sum()
			if err != nil || got != m {
				t.Errorf("%s: hash at mark %d: %v %v", tt.name, i, got.Len, err)
			}
			whole, err := at[i].Extend(rest[m.Len-first:])
			if err != nil {
				t.Fatal(err)
			}
			if s, _ := whole.Sum(); s != mark(len(data)) {
				t.Errorf("%s: mark %d extended over the rest is not the whole file's hash", tt.name, i)
			}
		}
	}
	if _, _, _, err := ReadAfterMarks(root, LogName, mark(10), mark(5)); err == nil {
		t.Error("marks out of order: no error")
	}
}
