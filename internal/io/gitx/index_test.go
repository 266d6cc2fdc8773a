package gitx

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestIndex reads the staged files of a subfolder: the index, not the
// working tree; symbolic links followed inside the folder only;
// conflicted paths an error that says what to do.
func TestIndex(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	sub := filepath.Join(dir, "mem")
	os.MkdirAll(filepath.Join(sub, ".memory"), 0o755)
	write := func(rel, s string) {
		if err := os.WriteFile(filepath.Join(sub, rel), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("CHANGELOG.md", "staged\n")
	write(".memory/graph.md", "graph\n")
	write("big.md", strings.Repeat("x", 100))
	os.Symlink("CHANGELOG.md", filepath.Join(sub, "in.md"))
	os.Symlink("../outside.md", filepath.Join(sub, "out.md"))
	os.WriteFile(filepath.Join(dir, "outside.md"), []byte("outside\n"), 0o644)
	run(t, dir, "add", ".")
	write("CHANGELOG.md", "working tree\n")
	write("untracked.md", "new\n")

	g := &Git{Dir: sub, Env: gitEnv(dir)}
	x, err := g.ReadIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got, want := x.Paths(), []string{".memory/graph.md", "CHANGELOG.md", "big.md", "in.md", "out.md"}; !slices.Equal(got, want) {
		t.Errorf("Paths = %q, want %q", got, want)
	}
	tests := []struct {
		rel, data string
		ok        bool
		err       string
	}{
		{rel: "CHANGELOG.md", data: "staged\n", ok: true},
		{rel: ".memory/graph.md", data: "graph\n", ok: true},
		{rel: "in.md", data: "staged\n", ok: true},
		{rel: "untracked.md"},
		{rel: ".memory"},
		{rel: "out.md", err: "out.md is staged as a symbolic link to ../outside.md, outside the memory root: memsys refuses to follow it; stage a regular file"},
	}
	for _, tt := range tests {
		data, _, ok, err := x.Read(tt.rel, 1<<20)
		if string(data) != tt.data || ok != tt.ok || errString(err) != tt.err {
			t.Errorf("Read(%q) = %q, %v, %v; want %q, %v, %q", tt.rel, data, ok, err, tt.data, tt.ok, tt.err)
		}
	}
	if data, size, ok, err := x.Read("big.md", 10); data != nil || size != 100 || !ok || err != nil {
		t.Errorf("Read(big.md, 10) = %q, %d, %v, %v; want nil, 100, true, nil", data, size, ok, err)
	}
}

// TestIndexUnmerged: a path with conflict stages has no staged version.
func TestIndexUnmerged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	f := filepath.Join(dir, "CHANGELOG.md")
	os.WriteFile(f, []byte("base\n"), 0o644)
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "base")
	run(t, dir, "checkout", "-q", "-b", "other")
	os.WriteFile(f, []byte("other\n"), 0o644)
	run(t, dir, "commit", "-q", "-am", "other")
	run(t, dir, "checkout", "-q", "main")
	os.WriteFile(f, []byte("main\n"), 0o644)
	run(t, dir, "commit", "-q", "-am", "main")
	cmd := &Git{Dir: dir, Env: gitEnv(dir)}
	cmd.Run(ctx, "merge", "-q", "other") // conflicts, exit 1
	x, err := cmd.ReadIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	want := "CHANGELOG.md has unresolved merge conflicts in the index: resolve them and git add it"
	if _, _, _, err := x.Read("CHANGELOG.md", 1<<20); errString(err) != want {
		t.Errorf("Read of a conflicted path: %v, want %q", err, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
