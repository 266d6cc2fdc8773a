package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCacheView checks that CacheView, which maps large entries rather
// than read them, returns exactly what CacheGet returns, and like it
// no entry for a damaged, cut, missing or disabled one, on both sides
// of the size from which it maps.
func TestCacheView(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 1, viewMin - 5, viewMin - 4, viewMin, 3*viewMin + 7} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*7 + size)
		}
		if !CachePut(root, "e", data) {
			t.Fatalf("size %d: CachePut failed", size)
		}
		got, ok := CacheView(root, "e")
		want, wok := CacheGet(root, "e")
		if !ok || !wok || !bytes.Equal(got, data) || !bytes.Equal(want, data) {
			t.Fatalf("size %d: CacheView ok=%v, CacheGet ok=%v, or not the bytes written", size, ok, wok)
		}
		p := filepath.Join(CacheDir(root), "e")
		whole, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, bad := range map[string][]byte{
			"flipped": append(append([]byte(nil), whole[:len(whole)/2]...), append([]byte{whole[len(whole)/2] ^ 1}, whole[len(whole)/2+1:]...)...),
			"cut":     whole[:len(whole)-1],
			"empty":   nil,
		} {
			if err := os.WriteFile(p, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok := CacheView(root, "e"); ok {
				t.Errorf("size %d: CacheView accepted a %s entry", size, name)
			}
		}
		os.Remove(p)
		if _, ok := CacheView(root, "e"); ok {
			t.Errorf("size %d: CacheView found a missing entry", size)
		}
	}
	CachePut(root, "e", []byte("x"))
	t.Setenv(EnvNoCache, "1")
	if _, ok := CacheView(root, "e"); ok {
		t.Error("CacheView read the cache with MEMSYS_NO_CACHE set")
	}
}

// TestUserCacheBounded checks that the user's cache area, one folder
// per memory outside a repository, keeps the cacheMaxRoots folders
// written last and removes the others, and leaves alone what memsys did
// not name.
func TestUserCacheBounded(t *testing.T) {
	uc := t.TempDir()
	old := userCacheDir
	userCacheDir = func() (string, error) { return uc, nil }
	t.Cleanup(func() { userCacheDir = old })
	area := filepath.Join(uc, "memsys")
	stray := []string{"notours", "0123456789abcdeZ", "0123456789ABCDEF"}
	for _, name := range stray {
		if err := os.MkdirAll(filepath.Join(area, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(area, "0123456789abcdef"), []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Hour)
	var roots []string
	put := func(root string, at time.Time) {
		t.Helper()
		if !CachePut(root, "e", []byte(root)) {
			t.Fatalf("CachePut(%s) failed", root)
		}
		if !at.IsZero() {
			if err := os.Chtimes(CacheDir(root), at, at); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i := range cacheMaxRoots + 8 {
		root := filepath.Join(t.TempDir(), "memory")
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if d := CacheDir(root); filepath.Dir(d) != area {
			t.Fatalf("CacheDir(%s) = %s, not in the user's cache area %s (a .git above the temporary folder?)", root, d, area)
		}
		roots = append(roots, root)
		put(root, base.Add(time.Duration(i)*time.Second))
	}
	has := func(root string) bool {
		_, ok := CacheGet(root, "e")
		return ok
	}
	for i, root := range roots {
		if want := i >= 8; has(root) != want {
			t.Errorf("root %d of %d: entry kept %v, want %v", i, len(roots), !want, want)
		}
	}
	// Writing to the oldest folder left makes it the newest: the next
	// new root removes the one after it.
	put(roots[8], time.Time{})
	extra := t.TempDir()
	put(extra, time.Time{})
	if !has(roots[8]) || has(roots[9]) || !has(extra) {
		t.Errorf("after rewriting root 8 and adding one: root 8 kept %v, root 9 kept %v, new root kept %v; want true, false, true", has(roots[8]), has(roots[9]), has(extra))
	}
	ents, err := os.ReadDir(area)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() && isRootFolder(e.Name()) {
			n++
		}
	}
	if n != cacheMaxRoots {
		t.Errorf("%d root folders in the user's cache area, want %d", n, cacheMaxRoots)
	}
	for _, name := range append(stray, "0123456789abcdef") {
		if _, err := os.Stat(filepath.Join(area, name)); err != nil {
			t.Errorf("%s, which memsys did not name, was removed: %v", name, err)
		}
	}
}

// TestCacheDirGitFile checks where the cache of a memory lives when
// ".git" is a file naming the git directory (a linked worktree, a
// submodule, --separate-git-dir): in that directory when it is there,
// named absolutely or relative to the file; in the user's cache area
// when it is not (the repository moved, the worktree was pruned), and
// then a write builds nothing at the path the file names. Before, it
// did: a stray ".git" tree where the repository used to be.
// testscripts/cache-worktree.txtar runs it with git's own worktrees.
func TestCacheDirGitFile(t *testing.T) {
	uc := t.TempDir()
	old := userCacheDir
	userCacheDir = func() (string, error) { return uc, nil }
	t.Cleanup(func() { userCacheDir = old })
	area := filepath.Join(uc, "memsys")
	base := t.TempDir()
	gitdir := filepath.Join(base, "repo.git", "worktrees", "wt")
	if err := os.MkdirAll(gitdir, 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(base, "moved-away", ".git", "worktrees", "wt")
	for _, c := range []struct {
		name, gitfile, want string
	}{
		{"absolute", "gitdir: " + gitdir + "\n", gitdir},
		{"relative", "gitdir: ../repo.git/worktrees/wt\n", gitdir},
		{"gone", "gitdir: " + gone + "\n", ""},
		{"gone relative", "gitdir: ../moved-away/.git/worktrees/wt\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(base, "wt-"+strings.ReplaceAll(c.name, " ", "-"))
			if err := os.Mkdir(root, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".git"), []byte(c.gitfile), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := CacheDir(root)
			if c.want != "" {
				if want := filepath.Join(c.want, cacheDirName); dir != want {
					t.Fatalf("CacheDir = %s, want %s", dir, want)
				}
			} else if filepath.Dir(dir) != area {
				t.Fatalf("CacheDir = %s, want a folder of the user's cache area %s", dir, area)
			}
			if !CachePut(root, "e", []byte("x")) {
				t.Fatal("CachePut failed")
			}
			if got, ok := CacheGet(root, "e"); !ok || string(got) != "x" {
				t.Fatalf("CacheGet = %q, %v after CachePut", got, ok)
			}
			if _, err := os.Stat(filepath.Join(base, "moved-away")); err == nil {
				t.Fatal("CachePut built the git directory the .git file names, which is gone")
			}
		})
	}
}
