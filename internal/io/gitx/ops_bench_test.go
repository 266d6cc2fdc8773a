package gitx

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkOperations is what lint --staged pays on a plain commit to
// learn that no merge, cherry-pick, rebase or squash merge is in
// progress (Operations: four stats), beside the one stat of MERGE_HEAD
// it paid for merges alone and a read of the folder's names (one call
// for any number of files), in a git folder of the usual names.
func BenchmarkOperations(b *testing.B) {
	dir := b.TempDir()
	for _, n := range []string{"HEAD", "config", "description", "index", "COMMIT_EDITMSG", "ORIG_HEAD", "FETCH_HEAD", "packed-refs"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	for _, n := range []string{"hooks", "info", "logs", "objects", "refs", "branches"} {
		os.Mkdir(filepath.Join(dir, n), 0o755)
	}
	b.Run("Operations", func(b *testing.B) {
		for b.Loop() {
			if p, err := Operations(dir); err != nil || p.Any() {
				b.Fatal(p, err)
			}
		}
	})
	b.Run("MERGE_HEAD only", func(b *testing.B) {
		for b.Loop() {
			os.Stat(filepath.Join(dir, "MERGE_HEAD"))
		}
	})
	b.Run("read the names", func(b *testing.B) {
		for b.Loop() {
			f, err := os.Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			f.Readdirnames(-1)
			f.Close()
		}
	})
}
