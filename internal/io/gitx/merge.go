package gitx

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// MergeFile merges three versions of a text line by line with
// `git merge-file -p`, exactly as git merges a file without a merge
// driver: the result and whether it holds conflict markers. markerSize
// and the labels shape the markers (0 and "" for git's defaults). git
// before 2.43 reads only files, so the versions go through a temporary
// folder that is removed before MergeFile returns.
func (g *Git) MergeFile(ctx context.Context, ancestor, ours, theirs []byte, markerSize int, oursLabel, baseLabel, theirsLabel string) ([]byte, bool, error) {
	dir, err := os.MkdirTemp("", "memsys-merge-")
	if err != nil {
		return nil, false, fmt.Errorf("git merge-file: %w", err)
	}
	defer os.RemoveAll(dir)
	names := []string{"ours", "base", "theirs"}
	for i, data := range [][]byte{ours, ancestor, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), data, 0o600); err != nil {
			return nil, false, fmt.Errorf("git merge-file: %w", err)
		}
	}
	args := []string{"merge-file", "-p"}
	if markerSize > 0 {
		args = append(args, fmt.Sprintf("--marker-size=%d", markerSize))
	}
	for _, l := range []string{oursLabel, baseLabel, theirsLabel} {
		args = append(args, "-L", l)
	}
	args = append(args, "--", filepath.Join(dir, "ours"), filepath.Join(dir, "base"), filepath.Join(dir, "theirs"))
	out, err := g.Run(ctx, args...)
	if err != nil {
		// merge-file exits with the number of conflicts (1..127);
		// above that, or a signal, is an error.
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128 {
			return out, true, nil
		}
		return nil, false, err
	}
	return out, false, nil
}

// MergeBase returns the best common ancestor of two commits, or a
// *MissingError when they share no history this clone has.
func (g *Git) MergeBase(ctx context.Context, a, b string) (string, error) {
	out, err := g.Run(ctx, "merge-base", "--end-of-options", a, b)
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) == "" {
			return "", &MissingError{Rev: "merge base of " + a + " and " + b, Shallow: g.Shallow(ctx)}
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Refs lists the short names of the branches and remote-tracking
// branches matching a glob ("origin/*", "feature/*"), sorted, without
// symbolic refs such as origin/HEAD.
func (g *Git) Refs(ctx context.Context, pattern string) ([]string, error) {
	out, err := g.Run(ctx, "for-each-ref", "--format=%(refname:short) %(symref)", "--sort=refname", "--",
		"refs/heads/"+pattern, "refs/remotes/"+pattern)
	if err != nil {
		return nil, err
	}
	var refs []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, sym, _ := strings.Cut(l, " ")
		if name != "" && sym == "" {
			refs = append(refs, name)
		}
	}
	return refs, nil
}

// PrefixGitDir returns Prefix and GitDir with one git call, for a
// command that needs the git folder on every run (lint --staged looks
// for MERGE_HEAD there) and must not pay a second process for it.
func (g *Git) PrefixGitDir(ctx context.Context) (prefix, gitDir string, err error) {
	out, err := g.Run(ctx, "rev-parse", "--show-prefix", "--absolute-git-dir")
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[1] == "" {
		return "", "", fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	return strings.TrimSpace(lines[0]), lines[1], nil
}

// Merging reports whether a merge is in progress in the work tree
// whose git folder is gitDir (GitDir): git keeps MERGE_HEAD there from
// the start of a merge until it is committed or aborted. One stat, no
// process: lint --staged asks on every commit.
func Merging(gitDir string) (bool, error) {
	_, err := os.Stat(filepath.Join(gitDir, "MERGE_HEAD"))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// GitDir returns the absolute path of the repository's git folder (a
// linked worktree's own one), where memsys keeps its merge state.
func (g *Git) GitDir(ctx context.Context) (string, error) {
	return g.Line(ctx, "rev-parse", "--absolute-git-dir")
}

// Unmerged reports whether the index holds path (relative to the
// folder g runs in) as unmerged: a merge, rebase or cherry-pick stopped
// on it. A merge driver that could not run leaves such a file with
// ours' text and no conflict markers, so only the index tells.
func (g *Git) Unmerged(ctx context.Context, path string) (bool, error) {
	out, err := g.Run(ctx, "ls-files", "--unmerged", "-z", "--", ":(literal)"+path)
	if err != nil {
		return false, err
	}
	return len(out) > 0, nil
}

// TopLevel returns the absolute path of the work tree's top folder.
func (g *Git) TopLevel(ctx context.Context) (string, error) {
	return g.Line(ctx, "rev-parse", "--show-toplevel")
}

// Config returns the repository-local value of key, ok false when it
// is unset.
func (g *Git) Config(ctx context.Context, key string) (string, bool, error) {
	out, err := g.Run(ctx, "config", "--local", "--get", key)
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && strings.TrimSpace(ge.Stderr) == "" {
			return "", false, nil // exit 1: unset
		}
		return "", false, err
	}
	return strings.TrimSuffix(string(out), "\n"), true, nil
}

// SetConfig sets key in the repository's own .git/config.
func (g *Git) SetConfig(ctx context.Context, key, value string) error {
	_, err := g.Run(ctx, "config", "--local", key, value)
	return err
}

// UnsetSection removes a section ("merge.memsys") from .git/config.
func (g *Git) UnsetSection(ctx context.Context, section string) error {
	_, err := g.Run(ctx, "config", "--local", "--remove-section", section)
	return err
}
