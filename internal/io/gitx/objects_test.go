package gitx

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// growingFile is the fast-import stream of a file that grows by one
// line per commit (with a rewrite now and then, and lines long enough
// that versions pass the 64 KB of one delta copy), and of a second
// file that changes on its own.
func growingFile(commits int) []byte {
	var s bytes.Buffer
	var text strings.Builder
	for c := 1; c <= commits; c++ {
		fmt.Fprintf(&text, "line %d %s\n", c, strings.Repeat("x", c%700))
		content := text.String()
		if c%37 == 0 {
			content = strings.Replace(content, "line 1 ", "line one ", 1)
		}
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter a <a@x> %d +0000\ndata 2\nc\n", 1700000000+c)
		fmt.Fprintf(&s, "M 100644 inline f.txt\ndata %d\n%s\n", len(content), content)
		other := fmt.Sprintf("other %d\n", c%5)
		fmt.Fprintf(&s, "M 100644 inline g.txt\ndata %d\n%s\n", len(other), other)
	}
	return s.Bytes()
}

// TestObjects reads every blob of a repository through Objects and
// through cat-file, as fast-import packs it, after a repack that
// recomputes the deltas (newest versions whole, older ones as deltas
// over them), with loose objects, and in a SHA-256 repository.
func TestObjects(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		format string
		after  [][]string
	}{
		{name: "fast-import", format: "sha1"},
		{name: "repacked", format: "sha1", after: [][]string{{"repack", "-adf", "-q", "--depth=30", "--window=20"}}},
		{name: "loose", format: "sha1", after: [][]string{
			{"checkout", "-q", "main"},
			{"-c", "core.autocrlf=false", "commit", "-q", "--allow-empty", "-m", "x"},
		}},
		{name: "sha256", format: "sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			run(t, dir, "init", "-q", "-b", "main", "--object-format="+tc.format)
			cmd := exec.Command("git", "fast-import", "--quiet")
			cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(dir), bytes.NewReader(growingFile(300))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fast-import: %v\n%s", err, out)
			}
			for _, args := range tc.after {
				run(t, dir, args...)
			}
			hashLen := 20
			if tc.format == "sha256" {
				hashLen = 32
			}
			if tc.name == "loose" {
				// Loose blobs: new versions written by hash-object.
				for i := range 5 {
					cmd := exec.Command("git", "hash-object", "-w", "--stdin")
					cmd.Dir, cmd.Env = dir, gitEnv(dir)
					cmd.Stdin = strings.NewReader(fmt.Sprintf("loose %d\n%s", i, strings.Repeat("y\n", i*1000)))
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Fatalf("hash-object: %v\n%s", err, out)
					}
				}
			}
			g := &Git{Dir: dir, Env: gitEnv(dir)}
			l, err := g.Layout(ctx)
			if err != nil || l.Prefix != "" || l.Shallow != nil {
				t.Fatalf("layout %+v, %v", l, err)
			}
			o, err := OpenObjects(l.Objects, hashLen)
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close()
			b, err := g.NewBatch(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			ids := strings.Fields(run(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)"))
			blobs := 0
			for i := 0; i+1 < len(ids); i += 2 {
				want, ok, err := b.Contents(ids[i+1])
				if err != nil {
					t.Fatal(err)
				}
				if ids[i] != "blob" {
					if _, got := o.Blob(ids[i+1]); got {
						t.Errorf("%s %s read as a blob", ids[i], ids[i+1])
					}
					continue
				}
				blobs++
				if !o.Has(ids[i+1]) {
					t.Errorf("blob %s: Has is false", ids[i+1])
				}
				got, gok := o.Blob(ids[i+1])
				if !gok || !ok || !bytes.Equal(got, want) {
					t.Fatalf("blob %s: read %d bytes (ok %v), cat-file %d (ok %v)", ids[i+1], len(got), gok, len(want), ok)
				}
				// Every other blob is given back, so later ones are
				// rebuilt in buffers used before.
				if blobs%2 == 0 {
					o.Release(ids[i+1])
				}
			}
			if blobs < 300 {
				t.Errorf("only %d blobs compared", blobs)
			}
			missing := strings.Repeat("0", 2*hashLen)
			if o.Has(missing) {
				t.Error("Has of a missing object is true")
			}
			if _, ok := o.Blob(missing); ok {
				t.Error("Blob of a missing object: found")
			}
		})
	}
}

// FuzzApplyDelta feeds malformed deltas to applyDelta: an error or an
// object of the size the delta declares, never a panic.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("base text"), []byte{9, 12, 0x91, 0, 9, 3, 'a', 'b', 'c'})
	f.Add([]byte(""), []byte{0, 1, 1, 'x'})
	f.Add([]byte("abc"), []byte{3, 3, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta, nil)
		if err != nil {
			return
		}
		d := delta
		skip := func() int {
			n, shift := 0, 0
			for d[0]&0x80 != 0 {
				n |= int(d[0]&0x7f) << shift
				shift += 7
				d = d[1:]
			}
			n |= int(d[0]) << shift
			d = d[1:]
			return n
		}
		skip()
		if want := skip(); len(out) != want {
			t.Fatalf("%d bytes, the delta says %d", len(out), want)
		}
	})
}

// TestObjectsCorruptPack damages a pack byte by byte, at positions
// spread over it, and reads every blob again: each is either not found
// (the caller then asks cat-file, which reports the damage) or exactly
// what cat-file read before the damage, never other bytes.
func TestObjectsCorruptPack(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(dir), bytes.NewReader(growingFile(120))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	g := &Git{Dir: dir, Env: gitEnv(dir)}
	b, err := g.NewBatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]byte{}
	ids := strings.Fields(run(t, dir, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)"))
	for i := 0; i+1 < len(ids); i += 2 {
		if ids[i] == "blob" {
			data, _, err := b.Contents(ids[i+1])
			if err != nil {
				t.Fatal(err)
			}
			want[ids[i+1]] = data
		}
	}
	b.Close()
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v", packs)
	}
	pack, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(packs[0], 0o644); err != nil { // git writes packs read-only
		t.Fatal(err)
	}
	l, err := g.Layout(ctx)
	if err != nil {
		t.Fatal(err)
	}
	objects := l.Objects
	lost := 0
	for pos := 12; pos < len(pack)-20; pos += len(pack) / 40 {
		bad := bytes.Clone(pack)
		bad[pos] ^= 0x5a
		if err := os.WriteFile(packs[0], bad, 0o644); err != nil {
			t.Fatal(err)
		}
		o, err := OpenObjects(objects, 20)
		if err != nil {
			t.Fatal(err)
		}
		for id, w := range want {
			got, ok := o.Blob(id)
			if !ok {
				lost++
				continue
			}
			if !bytes.Equal(got, w) {
				t.Fatalf("byte %d damaged: blob %s read as other bytes", pos, id)
			}
			o.Release(id)
		}
		o.Close()
	}
	if lost == 0 {
		t.Error("no damage was noticed")
	}
}

// FuzzObjectsDamaged damages one byte of a pack or of its index and
// reads every blob: each is not found or exactly what cat-file read
// from the whole pack, never other bytes, never a panic.
func FuzzObjectsDamaged(f *testing.F) {
	ctx := context.Background()
	dir := f.TempDir()
	cmd := exec.Command("git", "init", "-q", "-b", "main")
	cmd.Dir, cmd.Env = dir, gitEnv(dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		f.Fatalf("git init: %v\n%s", err, out)
	}
	cmd = exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(dir), bytes.NewReader(growingFile(60))
	if out, err := cmd.CombinedOutput(); err != nil {
		f.Fatalf("fast-import: %v\n%s", err, out)
	}
	g := &Git{Dir: dir, Env: gitEnv(dir)}
	b, err := g.NewBatch(ctx)
	if err != nil {
		f.Fatal(err)
	}
	out, err := g.Run(ctx, "cat-file", "--batch-all-objects", "--batch-check=%(objecttype) %(objectname)")
	if err != nil {
		f.Fatal(err)
	}
	want := map[string][]byte{}
	ids := strings.Fields(string(out))
	for i := 0; i+1 < len(ids); i += 2 {
		if ids[i] == "blob" {
			data, _, err := b.Contents(ids[i+1])
			if err != nil {
				f.Fatal(err)
			}
			want[ids[i+1]] = data
		}
	}
	b.Close()
	idxs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idxs) != 1 {
		f.Fatalf("pack indexes %v", idxs)
	}
	idx, err := os.ReadFile(idxs[0])
	if err != nil {
		f.Fatal(err)
	}
	pack, err := os.ReadFile(strings.TrimSuffix(idxs[0], ".idx") + ".pack")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(false, uint32(40), byte(1))
	f.Add(true, uint32(1100), byte(0x80))
	f.Add(true, uint32(8+255*4+3), byte(0xff))
	f.Fuzz(func(t *testing.T, inIndex bool, pos uint32, mask byte) {
		p, x := bytes.Clone(pack), bytes.Clone(idx)
		if inIndex {
			x[int(pos)%len(x)] ^= mask
		} else {
			p[int(pos)%len(p)] ^= mask
		}
		objects := t.TempDir()
		if err := os.MkdirAll(filepath.Join(objects, "pack"), 0o755); err != nil {
			t.Fatal(err)
		}
		if os.WriteFile(filepath.Join(objects, "pack", "p.idx"), x, 0o644) != nil || os.WriteFile(filepath.Join(objects, "pack", "p.pack"), p, 0o644) != nil {
			t.Fatal("cannot write the pack")
		}
		o, err := OpenObjects(objects, 20)
		if err != nil {
			t.Fatal(err)
		}
		defer o.Close()
		for id, w := range want {
			if got, ok := o.Blob(id); ok {
				if !bytes.Equal(got, w) {
					t.Fatalf("blob %s read as other bytes", id)
				}
				o.Release(id)
			}
		}
	})
}
