package gitx

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlobsLimit: a committed file over Blobs.Limit is refused with a
// TooLargeError naming its size, not read into memory (lint --base on
// a commit whose log was 512 MiB + 1 used 535 MB, now 10 MB), and the
// batch stays in step: the next Blob reads the next file.
func TestBlobsLimit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "big.md"), []byte(strings.Repeat("x", 2000)), 0o644)
	os.WriteFile(filepath.Join(dir, "small.md"), []byte("small\n"), 0o644)
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "c1")
	g, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Env = gitEnv(dir)
	b, err := g.NewBlobs(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	b.Limit = 1000
	data, ok, err := b.Blob("HEAD", "big.md")
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 2000 || data != nil || ok {
		t.Errorf("Blob(big.md) over the limit = %d bytes, %v, %v; want a TooLargeError of 2000 bytes", len(data), ok, err)
	}
	if data, ok, err := b.Blob("HEAD", "small.md"); err != nil || !ok || string(data) != "small\n" {
		t.Errorf("Blob(small.md) after the refusal = %q, %v, %v", data, ok, err)
	}
	b.Limit = 0
	if data, ok, err := b.Blob("HEAD", "big.md"); err != nil || !ok || len(data) != 2000 {
		t.Errorf("Blob(big.md) without a limit = %d bytes, %v, %v", len(data), ok, err)
	}
}
