package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

// GitOptions select the append-only comparison of memsys lint.
type GitOptions struct {
	Base   string // REV, or "auto" for the pull request base; "" for none
	Head   string // REV to compare instead of the working tree; "" for the working tree
	Staged bool   // compare the index against HEAD
}

// Set reports whether any comparison was asked for.
func (o GitOptions) Set() bool { return o.Base != "" || o.Head != "" || o.Staged }

// Revisions resolves o for the memory at root into what lint's history
// rules (MS301-MS305) read: the repository, through gitx, and the two
// revisions. It fails, rather than pass silently, when root is not in a
// repository, a REV looks like an option or the base commit is not in
// this clone. revs is nil when there is nothing to compare (no option,
// or --staged before the first commit). close ends the git process.
func Revisions(ctx context.Context, root string, o GitOptions) (git lint.Git, revs *lint.Revisions, close func(), err error) {
	close = func() {}
	switch {
	case !o.Set():
		return nil, nil, close, nil
	case o.Staged && (o.Base != "" || o.Head != ""):
		return nil, nil, close, errors.New("lint: --staged compares the index with HEAD; it cannot be combined with --base or --head")
	case o.Head != "" && o.Base == "":
		return nil, nil, close, errors.New("lint: --head needs --base: name the commit to compare it with")
	}
	// Three git processes at most: the prefix, the base commit, and one
	// cat-file for every blob, so --base stays cheap on every commit.
	g := &gitx.Git{Dir: root}
	prefix, gitDir, err := g.PrefixGitDir(ctx)
	if err != nil {
		return nil, nil, close, fmt.Errorf("lint: git checks: %v", gitx.NotARepo(root, err))
	}
	if o.Staged {
		revs, err = stagedRevisions(ctx, g, gitDir)
	} else {
		revs, err = baseRevisions(ctx, g, o)
	}
	if err != nil || revs == nil {
		return nil, nil, close, err
	}
	blobs, err := g.NewBlobs(ctx, prefix)
	if err != nil {
		flag := "lint"
		if o.Staged {
			flag = "lint --staged"
		}
		return nil, nil, close, fmt.Errorf("%s: %w", flag, err)
	}
	blobs.Limit = workspace.MaxFileSize
	return blobs, revs, func() { blobs.Close() }, nil
}

// stagedRevisions compares what is about to be committed (the index)
// with HEAD. Before the first commit there is nothing committed to
// protect. While git brings other commits into the index (a merge,
// cherry-pick, rebase or squash merge in progress: four stats in
// gitDir, so a plain commit pays nothing more) it also names those
// commits and the commits their new events are counted from (merging),
// so MS307 can check that the staged log keeps their events: a merge
// driver that could not run leaves the log with ours' events only, and
// `git add` of it would commit without theirs.
func stagedRevisions(ctx context.Context, g *gitx.Git, gitDir string) (*lint.Revisions, error) {
	head, err := g.Resolve("HEAD")
	if err != nil {
		var me *gitx.MissingError
		if errors.As(err, &me) && !me.Shallow {
			return nil, nil // no commit yet
		}
		return nil, fmt.Errorf("lint --staged: %v", err)
	}
	revs := &lint.Revisions{Base: head, Head: ":0", Label: label("HEAD", head), NoteBase: true}
	ops, err := gitx.Operations(gitDir)
	if err != nil {
		return nil, fmt.Errorf("lint --staged: %v", err)
	}
	if !ops.Any() {
		return revs, nil
	}
	if revs.Merging, err = merging(ctx, g, gitDir, head, ops); err != nil {
		return nil, fmt.Errorf("lint --staged: %v", err)
	}
	return revs, nil
}

// merging names the operation in progress and the commits it brings.
// One is checked, the first found in this order: git refuses to start
// one while another has stopped, so two are there together only inside
// a rebase (a merge it replays, a cherry-pick an exec line runs), where
// the inner one names the commits being brought in. A rebase stopped to edit a commit it
// replayed (the commit is HEAD already) brings nothing the index must
// keep: splitting the commit commits parts of it.
func merging(ctx context.Context, g *gitx.Git, gitDir, head string, ops gitx.InProgress) (*lint.Merging, error) {
	switch {
	case ops.Merge:
		ids, err := gitx.Heads(gitDir, "MERGE_HEAD")
		if err != nil {
			return nil, fmt.Errorf("a merge is in progress, but %v", err)
		}
		return mergedSince(ctx, g, lint.OpMerge, head, ids)
	case ops.CherryPick:
		return replayed(ctx, g, gitDir, lint.OpCherryPick)
	case ops.Rebase && !gitx.RebaseEditing(gitDir):
		return replayed(ctx, g, gitDir, lint.OpRebase)
	case ops.Squash:
		ids, err := gitx.SquashedCommits(gitDir)
		if err != nil {
			return nil, fmt.Errorf("a squash merge is in progress, but %v", err)
		}
		// SQUASH_MSG lists every commit squashed; their tips are the
		// branches merged.
		if ids, err = g.Independent(ctx, ids); err != nil {
			return nil, fmt.Errorf("a squash merge is in progress (SQUASH_MSG), but %v", err)
		}
		return mergedSince(ctx, g, lint.OpSquash, head, ids)
	}
	return nil, nil
}

// mergedSince is the merge of ids into head, each counted from its
// merge base with head. Without one in this clone (a shallow fetch)
// every event of the branch is checked; those the branches share are
// in HEAD, so they are staged anyway.
func mergedSince(ctx context.Context, g *gitx.Git, op lint.Op, head string, ids []string) (*lint.Merging, error) {
	m := &lint.Merging{Op: op}
	for _, id := range ids {
		mb, err := g.MergeBase(ctx, head, id)
		if _, ok := errors.AsType[*gitx.MissingError](err); err != nil && !ok {
			return nil, fmt.Errorf("a %s is in progress, but %v", op, err)
		}
		m.Heads = append(m.Heads, lint.Merged{Commit: id, Base: mb})
	}
	return m, nil
}

// replayed is the cherry-pick or rebase of the commit git names in
// op's file, counted from its first parent (a merge commit picked
// with -m 2 is counted from its first parent too: git does not keep
// -m for a single pick). A root commit is counted from nothing. A
// parent this shallow clone lacks leaves nothing to count from, and
// counting from nothing would ask for the events of the commits
// before it, which a pick does not bring: the check is skipped.
func replayed(ctx context.Context, g *gitx.Git, gitDir string, op lint.Op) (*lint.Merging, error) {
	ids, err := gitx.Heads(gitDir, op.Ref())
	if err != nil {
		return nil, fmt.Errorf("a %s is in progress, but %v", op, err)
	}
	parent, err := g.ResolveContext(ctx, ids[0]+"^")
	if me, ok := errors.AsType[*gitx.MissingError](err); ok {
		if me.Shallow {
			return nil, nil
		}
		err, parent = nil, ""
	}
	if err != nil {
		return nil, fmt.Errorf("a %s is in progress, but %v", op, err)
	}
	return &lint.Merging{Op: op, Heads: []lint.Merged{{Commit: ids[0], Base: parent}}}, nil
}

// baseRevisions compares --head REV, or the working tree, with --base.
// When REV has moved on since the head forked from it (REV is not an
// ancestor of the head), the history rules compare with the merge base
// instead, and MS306 compares REV's new events with the head's: REV's
// events are not on the branch yet, they are neither deleted nor
// edited. Without a merge base in this clone (a shallow fetch) REV is
// the base as before.
func baseRevisions(ctx context.Context, g *gitx.Git, o GitOptions) (*lint.Revisions, error) {
	flag, rev := "--base", o.Base
	if rev == "auto" {
		flag = "--base auto"
		var err error
		if rev, err = autoBase(); err != nil {
			return nil, err
		}
	}
	// Run again once there is a commit: the same flags as typed.
	again := "memsys lint --base " + words.ClipPath(o.Base)
	if o.Head != "" {
		again += " --head " + words.ClipPath(o.Head)
	}
	if gitx.NullID(rev) {
		return nil, fmt.Errorf("lint %s: %q is git's null commit ID, which names no commit (GitHub's github.event.before on the push that creates a branch): pass --base \"\" to lint without the append-only check (the action: base: \"\"), or name a commit such as origin/main", flag, rev)
	}
	base, err := resolve(g, flag, rev, again)
	if err != nil {
		return nil, err
	}
	head := ""
	if o.Head != "" {
		if head, err = resolve(g, "--head", o.Head, again); err != nil {
			return nil, err
		}
	}
	revs := &lint.Revisions{Base: base, Head: head, Label: label(rev, base), NoteBase: true}
	tip := head
	if tip == "" {
		var err error
		if tip, err = g.Resolve("HEAD"); err != nil {
			return revs, nil // no commit yet: nothing forked
		}
	}
	if mb, err := g.MergeBase(ctx, base, tip); err == nil && mb != base {
		revs.Base, revs.Label = mb, "the merge base with "+label(rev, base)
		revs.Onto, revs.OntoName = base, rev
	}
	return revs, nil
}

// label names the base commit in messages: "main (0123456789ab)", or the
// short ID alone when the user wrote one (a sha needs no second sha).
func label(rev, commit string) string {
	if len(rev) >= 12 && strings.HasPrefix(commit, rev) {
		return fmt.Sprintf("%.12s", commit)
	}
	return fmt.Sprintf("%s (%.12s)", rev, commit)
}

// resolve turns a user's REV into a commit ID, with errors that say
// what to do; again is the command to run once the repository has its
// first commit.
func resolve(g *gitx.Git, flag, rev, again string) (string, error) {
	if err := gitx.CheckRev(rev); err != nil {
		return "", fmt.Errorf("lint %s: %v", flag, err)
	}
	id, err := g.Resolve(rev)
	if err != nil {
		return "", fmt.Errorf("lint %s: %v", flag, gitx.NoCommits(err, fmt.Sprintf("there is no %q to compare the log with", words.ClipPath(rev)), again))
	}
	return id, nil
}

// autoBase finds the pull request's base commit in GitHub Actions: the
// event payload's pull_request.base.sha (or, in a merge queue, where a
// required check runs too, merge_group.base_sha), else
// origin/$GITHUB_BASE_REF. Anything else is an error, never a silent
// pass; a push, which has no base, is named with its fix.
func autoBase() (string, error) {
	if path := os.Getenv("GITHUB_EVENT_PATH"); path != "" {
		data, err := workspace.ReadOutside(path)
		if err != nil {
			return "", fmt.Errorf("lint --base auto: read $GITHUB_EVENT_PATH: %w", err)
		}
		var ev struct {
			PullRequest struct {
				Base struct {
					SHA string `json:"sha"`
				} `json:"base"`
			} `json:"pull_request"`
			MergeGroup struct {
				BaseSHA string `json:"base_sha"`
			} `json:"merge_group"`
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return "", fmt.Errorf("lint --base auto: $GITHUB_EVENT_PATH %q is not JSON: %w", words.Clip(path), err)
		}
		if sha := ev.PullRequest.Base.SHA; sha != "" {
			return sha, nil
		}
		if sha := ev.MergeGroup.BaseSHA; sha != "" {
			return sha, nil
		}
	}
	if ref := os.Getenv("GITHUB_BASE_REF"); ref != "" {
		if err := gitx.CheckRev(ref); err != nil {
			return "", fmt.Errorf("lint --base auto: GITHUB_BASE_REF: %v", err)
		}
		return "origin/" + ref, nil
	}
	if name := os.Getenv("GITHUB_EVENT_NAME"); name == "push" || name == "schedule" || name == "workflow_dispatch" {
		return "", fmt.Errorf("lint --base auto: a %s event has no pull request base: run the check on pull_request, or pass --base \"\" to lint without the append-only check (the action: base: \"\") or --base REV", name)
	}
	return "", errors.New("lint --base auto: no pull request base found (no pull_request.base.sha in $GITHUB_EVENT_PATH, GITHUB_BASE_REF unset): run it on a pull_request event or pass --base REV")
}
