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

	"github.com/memsys/memsys/internal/base/words"
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
			return "", &MissingError{Rev: "merge base of " + a + " and " + b, Shallow: g.Shallow(ctx), Between: [2]string{a, b}}
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Refs lists the short names of the branches and remote-tracking
// branches matching a glob ("origin/*", "feature/*"), sorted, without
// symbolic refs such as origin/HEAD. A glob written as a full ref name
// ("refs/remotes/origin/*", as CI configurations often spell it) is
// matched as it is, not under refs/heads/ and refs/remotes/.
func (g *Git) Refs(ctx context.Context, pattern string) ([]string, error) {
	patterns := []string{"refs/heads/" + pattern, "refs/remotes/" + pattern}
	if strings.HasPrefix(pattern, "refs/") {
		patterns = []string{pattern}
	}
	out, err := g.Run(ctx, append([]string{"for-each-ref", "--format=%(refname:short) %(symref)", "--sort=refname", "--"}, patterns...)...)
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

// InProgress names the git operations that are bringing other commits
// into the index of a work tree: a merge (MERGE_HEAD), a cherry-pick
// (CHERRY_PICK_HEAD), a rebase (REBASE_HEAD) or a squash merge
// (SQUASH_MSG), which stopped on a conflict or was told not to commit.
// git writes those files in the work tree's git folder when the
// operation starts and removes them when it is committed or aborted.
// A revert (REVERT_HEAD) is not listed: it takes events out, which the
// append-only rules refuse whatever the operation.
type InProgress struct {
	Merge, CherryPick, Rebase, Squash bool
}

// Any reports whether any operation is in progress.
func (p InProgress) Any() bool { return p.Merge || p.CherryPick || p.Rebase || p.Squash }

// Operations reports the operations in progress in the work tree whose
// git folder is gitDir (PrefixGitDir): four stats, no process, for a
// plain commit, which lint --staged checks every time (a read of the
// folder's names, one call, took twice as long: BenchmarkOperations).
// A git that keeps its refs in a reftable (git init
// --ref-format=reftable, git 2.45 and later) keeps CHERRY_PICK_HEAD
// and REBASE_HEAD there, not in files: only MERGE_HEAD and SQUASH_MSG
// are seen then.
func Operations(gitDir string) (InProgress, error) {
	var p InProgress
	for _, f := range []struct {
		name string
		set  *bool
	}{{"MERGE_HEAD", &p.Merge}, {"CHERRY_PICK_HEAD", &p.CherryPick}, {"REBASE_HEAD", &p.Rebase}, {"SQUASH_MSG", &p.Squash}} {
		_, err := os.Stat(filepath.Join(gitDir, f.name))
		switch {
		case err == nil:
			*f.set = true
		case !errors.Is(err, fs.ErrNotExist):
			return p, err
		}
	}
	return p, nil
}

// Heads reads the commit IDs git wrote in the file name of gitDir
// (MERGE_HEAD, CHERRY_PICK_HEAD, REBASE_HEAD), one per line: an
// octopus merge writes one line per branch it merges, which rev-parse
// MERGE_HEAD, reading the first, would miss.
func Heads(gitDir, name string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, name))
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if !isObjectID(l) {
			return nil, fmt.Errorf("%s: %q is not a commit ID", name, words.Clip(l))
		}
		ids = append(ids, l)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s names no commit", name)
	}
	return ids, nil
}

// SquashedCommits reads the commits `git merge --squash` lists in
// SQUASH_MSG in gitDir ("commit <id>" lines, each followed by its
// header and its message indented by four spaces, so a message cannot
// start such a line): every commit it brings, not only the tips, and
// in the walk's order, which does not say which are the tips (see
// Independent). None when git had nothing to squash.
func SquashedCommits(gitDir string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, "SQUASH_MSG"))
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, l := range strings.Split(string(data), "\n") {
		if id, ok := strings.CutPrefix(strings.TrimSuffix(l, "\r"), "commit "); ok && isObjectID(id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// RebaseEditing reports whether the rebase in progress in gitDir
// stopped after replaying a commit (an edit in the todo list, whose
// REBASE_HEAD is the commit HEAD now holds) rather than on a conflict:
// git writes rebase-merge/amend then. The commits made at such a stop
// (a commit split in several) need not hold all of REBASE_HEAD's
// changes.
func RebaseEditing(gitDir string) bool {
	_, err := os.Stat(filepath.Join(gitDir, "rebase-merge", "amend"))
	return err == nil
}

// Independent returns the commits of ids that no other of them can
// reach (git merge-base --independent): the tips of the branches a
// squash merge brought, from the commits SQUASH_MSG lists.
func (g *Git) Independent(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) < 2 {
		return ids, nil
	}
	out, err := g.Run(ctx, append([]string{"merge-base", "--independent", "--end-of-options"}, ids...)...)
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// isObjectID reports whether s is a full object ID in hex, SHA-1 or
// SHA-256.
func isObjectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
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
