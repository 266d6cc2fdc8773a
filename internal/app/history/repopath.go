package history

import (
	"context"
	"path"

	"github.com/memsys/memsys/internal/io/gitx"
)

// RepoRelative returns the function that turns a path relative to dir
// into one relative to the top of dir's git work tree: GitHub resolves
// an annotation's file= and a SARIF result's URI from the repository
// root, so a memory linted from a subfolder (-C services/api, the
// action's working-directory) would otherwise point at files that do
// not exist there. Outside a git work tree, and at its top, paths are
// returned unchanged.
func RepoRelative(ctx context.Context, dir string) func(file string) string {
	prefix, err := (&gitx.Git{Dir: dir}).Prefix(ctx)
	if err != nil || prefix == "" {
		return func(f string) string { return f }
	}
	return func(f string) string {
		if f == "" || path.IsAbs(f) {
			return f
		}
		return path.Join(prefix, f)
	}
}
