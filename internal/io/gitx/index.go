package gitx

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"sort"
	"strings"
)

// Index is the staged version (the git index: what the next commit
// records) of the files under one folder of the work tree. A plain
// pre-commit hook runs with unstaged changes still in the working tree,
// so a check of the commit must read these, not the files on disk.
type Index struct {
	b       *Batch
	entries map[string]indexEntry // by path relative to the folder
	// unmerged holds the paths with conflict stages (1-3) and no stage
	// 0: git refuses to commit them, and there is no staged version to
	// read.
	unmerged map[string]bool
}

type indexEntry struct {
	mode, oid string
}

// Modes of index entries that are not regular files.
const (
	modeSymlink = "120000"
	modeGitlink = "160000"
)

// ReadIndex lists the index entries under g.Dir (git ls-files --stage,
// one process) and starts the cat-file process that reads them. Close
// ends it.
func (g *Git) ReadIndex(ctx context.Context) (*Index, error) {
	out, err := g.Run(ctx, "ls-files", "--stage", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	x := &Index{entries: map[string]indexEntry{}, unmerged: map[string]bool{}}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		// "<mode> <object> <stage>\t<path>"
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected line %q", rec)
		}
		if f[2] != "0" {
			x.unmerged[string(p)] = true
			continue
		}
		x.entries[string(p)] = indexEntry{mode: f[0], oid: f[1]}
	}
	for p := range x.entries {
		delete(x.unmerged, p)
	}
	if x.b, err = g.NewBatch(ctx); err != nil {
		return nil, err
	}
	return x, nil
}

// Paths returns the staged files (and the unmerged ones), relative to
// the folder, slash-separated and sorted.
func (x *Index) Paths() []string {
	out := make([]string, 0, len(x.entries)+len(x.unmerged))
	for p := range x.entries {
		out = append(out, p)
	}
	for p := range x.unmerged {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Regular reports whether rel is staged as a file (not a symbolic
// link, a submodule or a conflict): what Read returns of it is then
// what git's ":0:rel" names, byte for byte.
func (x *Index) Regular(rel string) bool {
	e, ok := x.entries[rel]
	return ok && !x.unmerged[rel] && e.mode != modeSymlink && e.mode != modeGitlink
}

// Read returns the staged content of rel (relative to the folder),
// following a staged symbolic link to a staged file inside the folder,
// as the working tree's would be followed. ok is false when rel is not
// staged. A file over max bytes is not read: data is nil and size says
// how large it is.
func (x *Index) Read(rel string, max int64) (data []byte, size int64, ok bool, err error) {
	for hops := 0; ; hops++ {
		if x.unmerged[rel] {
			return nil, 0, false, fmt.Errorf("%s has unresolved merge conflicts in the index: resolve them and git add it", rel)
		}
		e, found := x.entries[rel]
		if !found {
			return nil, 0, false, nil
		}
		switch e.mode {
		case modeGitlink:
			return nil, 0, false, fmt.Errorf("%s is staged as a submodule, not a file", rel)
		case modeSymlink:
			target, ok, err := x.b.Contents(e.oid)
			if err != nil || !ok {
				return nil, 0, false, fmt.Errorf("read the staged %s: %w", rel, orMissing(err, e.oid))
			}
			next := path.Join(path.Dir(rel), string(target))
			if hops > 8 || path.IsAbs(string(target)) || next == ".." || strings.HasPrefix(next, "../") {
				return nil, 0, false, fmt.Errorf("%s is staged as a symbolic link to %s, outside the memory root: memsys refuses to follow it; stage a regular file", rel, target)
			}
			rel = next
			continue
		}
		_, _, size, ok, err := x.b.Info(e.oid)
		if err != nil || !ok {
			return nil, 0, false, fmt.Errorf("read the staged %s: %w", rel, orMissing(err, e.oid))
		}
		if size > max {
			return nil, size, true, nil
		}
		data, ok, err := x.b.Contents(e.oid)
		if err != nil || !ok {
			return nil, 0, false, fmt.Errorf("read the staged %s: %w", rel, orMissing(err, e.oid))
		}
		return data, size, true, nil
	}
}

// orMissing is err, or an error naming the object the index lists but
// the object store lacks.
func orMissing(err error, oid string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("object %s is missing from the repository", oid)
}

// Close ends the cat-file process.
func (x *Index) Close() error { return x.b.Close() }
