// Package usercache keeps a test binary's history caches out of the
// user's own cache folder. A memory outside a repository keeps its
// cache in the user's cache folder (workspace.CacheDir), and tests make
// thousands of such memories in temporary folders: without this, a
// developer's `go test ./...` filled ~/.cache/memsys.
package usercache

import (
	"fmt"
	"os"
	"path/filepath"
)

// M is what TestMain hands on to run the tests: *testing.M, or
// testscript.Main's argument.
type M interface{ Run() int }

// Isolated returns m with its Run pointing XDG_CACHE_HOME (where
// os.UserCacheDir looks on Linux and the BSDs) at a folder of its own,
// removed when the tests end. Commands the tests run inherit it.
func Isolated(m M) M { return isolated{m} }

type isolated struct{ m M }

func (i isolated) Run() int {
	dir, err := os.MkdirTemp("", "memsys-usercache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "usercache:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	// The go command keeps its build cache there too: a test that
	// builds a binary must still find the one it has.
	if uc, err := os.UserCacheDir(); err == nil && os.Getenv("GOCACHE") == "" {
		os.Setenv("GOCACHE", filepath.Join(uc, "go-build"))
	}
	if err := os.Setenv("XDG_CACHE_HOME", dir); err != nil {
		fmt.Fprintln(os.Stderr, "usercache:", err)
		return 2
	}
	return i.m.Run()
}
