package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// DisplayPath makes file, relative to the memory root, relative to base
// (where memsys was started, or -C) instead, with slashes, as the user
// will open it.
func DisplayPath(base, root, file string) string {
	if file == "" {
		return file
	}
	abs := file
	if !filepath.IsAbs(file) {
		abs = filepath.Join(root, filepath.FromSlash(file))
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// DisplayError is the one line a command prints for err: its message,
// with the configuration file a config.Error names shown relative to
// base as DisplayPath shows every diagnostic's file, not as the
// absolute path LoadConfig read. Wrapping context stays as written.
func DisplayError(base string, err error) string {
	return DisplayErrorFor(base, err, front.CLI)
}

// DisplayErrorFor is DisplayError for front end f: the message as f
// words it (front.Message: tool parameters and tools for MCP).
func DisplayErrorFor(base string, err error, f front.Front) string {
	msg := front.Message(err, f)
	var ce *config.Error
	if errors.As(err, &ce) && filepath.IsAbs(ce.File) {
		shown := *ce
		shown.File = DisplayPath(base, "", ce.File)
		msg = strings.Replace(msg, ce.For(f), shown.For(f), 1)
	}
	return msg
}

// IsTerminal reports whether w is a terminal (a character device), where
// colour is welcome.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&fs.ModeCharDevice != 0
}

// OpenAppend opens the file at p (outside any memory root, such as
// $GITHUB_STEP_SUMMARY) for appending, creating it if needed.
func OpenAppend(p string) (io.WriteCloser, error) {
	return os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
}

// Roots finds the memory roots lint checks: the one around base without
// patterns, else every folder matching a pattern (relative to base, in
// doublestar syntax) that holds a CHANGELOG.md. The result is sorted,
// so output never depends on the order the file system lists folders
// in. A pattern must not lead through a symlink outside base.
func Roots(base string, explicit bool, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		root, err := FindRoot(base, explicit)
		if err != nil {
			return nil, err
		}
		return []string{root}, nil
	}
	seen := map[string]bool{}
	var roots []string
	fsys := os.DirFS(base)
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil, err
	}
	for _, pat := range patterns {
		var ok bool
		if pat, ok = belowBase(base, pat); !ok {
			return nil, fmt.Errorf("lint: pattern %q leads outside the folder memsys started in: patterns are relative to it; for a memory elsewhere run memsys -C DIR lint", words.ClipPath(pat))
		}
		if !doublestar.ValidatePattern(pat) {
			return nil, fmt.Errorf("lint: bad pattern %q: see doublestar syntax, e.g. 'services/**'", words.ClipPath(pat))
		}
		matches, err := doublestar.Glob(fsys, pat, doublestar.WithFailOnIOErrors())
		if err != nil {
			// The PathError would quote the pattern a second time, whole.
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("lint: pattern %q: %w", words.ClipPath(pat), err)
		}
		found := false
		for _, m := range matches {
			dir := filepath.Join(base, filepath.FromSlash(m))
			if filepath.Base(dir) == LogName {
				dir = filepath.Dir(dir)
			}
			if st, err := os.Stat(filepath.Join(dir, LogName)); err != nil || !st.Mode().IsRegular() {
				continue
			}
			// A pattern must not lead through a symlink to a memory
			// outside the start folder: --fix would write there.
			if real, err := filepath.EvalSymlinks(dir); err != nil || !inside(realBase, real) {
				return nil, fmt.Errorf("lint: %s leads outside %s through a symlink: memsys does not follow it", m, base)
			}
			found = true
			if !seen[dir] {
				seen[dir] = true
				roots = append(roots, dir)
			}
		}
		if !found {
			return nil, fmt.Errorf("lint: no memory root (a folder with %s) matches %q: check the pattern; it is relative to the folder memsys started in (or -C)", LogName, pat)
		}
	}
	slices.Sort(roots)
	return roots, nil
}

// belowBase returns pat as a slash-separated path relative to base,
// as fs.Glob over base needs it: cleaned ("services//a", "services/./a"
// and "./a" name what they spell, where the glob said "invalid
// argument"), and an absolute path made relative to base. It reports
// false, with pat as typed, when the path leads outside base ("../b",
// an absolute path elsewhere), which the glob cannot reach.
func belowBase(base, pat string) (string, bool) {
	typed := pat
	if filepath.IsAbs(pat) {
		abs, err := filepath.Abs(base)
		if err != nil {
			return typed, false
		}
		if pat, err = filepath.Rel(abs, pat); err != nil {
			return typed, false
		}
	}
	pat = path.Clean(filepath.ToSlash(pat))
	if pat == ".." || strings.HasPrefix(pat, "../") {
		return typed, false
	}
	return pat, true
}

// inside reports whether p is root or below it.
func inside(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
