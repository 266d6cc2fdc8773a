package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// gitOptions selects the append-only comparison of `memsys lint`.
type gitOptions struct {
	Base   string // REV, or "auto" for the pull request base; "" for none
	Head   string // REV to compare instead of the working tree; "" for the working tree
	Staged bool   // compare the index against HEAD
}

// gitChecks returns the append-only diagnostics (MS301-MS305) for the
// memory at root, paths relative to root, or an error that must exit 2:
// not a repository, a REV that looks like an option, a base commit this
// clone does not have. It never passes silently when the base cannot be
// read.
//
// has reports whether the base side (REV, or HEAD with --staged) holds
// an event ID: lint judges only the events added since.
func gitChecks(ctx context.Context, root string, opt gitOptions) (ds diag.Diagnostics, has func(string) bool, err error) {
	has = func(string) bool { return false }
	switch {
	case opt.Staged && (opt.Base != "" || opt.Head != ""):
		return nil, has, usageErr("lint: --staged compares the index with HEAD; it cannot be combined with --base or --head")
	case opt.Head != "" && opt.Base == "":
		return nil, has, usageErr("lint: --head needs --base: name the commit to compare it with")
	}
	ds, base, head, err := gitCompare(ctx, root, opt)
	return ds, unchanged(base, head), err
}

// unchanged reports, for an event ID, whether the event is in the
// history both sides share unchanged from the start: the same events,
// byte for byte, in the same order. An event the change moved, edited
// or renumbered, and every event after it, is the change's doing and
// is judged in full.
func unchanged(base, head history.Side) func(string) bool {
	evs := func(s history.Side) []parse.Event {
		var out []parse.Event
		for _, l := range []*parse.Log{s.Archive, s.Log} {
			if l != nil {
				out = append(out, l.Events...)
			}
		}
		return out
	}
	b, h := evs(base), evs(head)
	nums := map[int]bool{}
	for i := 0; i < len(b) && i < len(h) && b[i].Text == h[i].Text; i++ {
		nums[h[i].Num] = true
	}
	return func(id string) bool {
		n, ok := parse.EventNum(id)
		return ok && nums[n]
	}
}

// gitCompare runs the append-only comparison and returns the base side
// it read.
func gitCompare(ctx context.Context, root string, opt gitOptions) (diag.Diagnostics, history.Side, history.Side, error) {
	var none history.Side
	// Three git processes at most: the prefix, the base commit, and one
	// cat-file for every blob, so --base stays cheap on every commit.
	g := &gitx.Git{Dir: root}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return nil, none, none, usageErr("lint: git checks: %s is not in a git repository: %v", root, err)
	}
	if opt.Staged {
		return stagedChecks(ctx, g, prefix)
	}
	flag, rev := "--base", opt.Base
	if rev == "auto" {
		flag = "--base auto"
		if rev, err = autoBase(); err != nil {
			return nil, none, none, err
		}
	}
	base, err := resolve(g, flag, rev)
	if err != nil {
		return nil, none, none, err
	}
	head := ""
	if opt.Head != "" {
		if head, err = resolve(g, "--head", opt.Head); err != nil {
			return nil, none, none, err
		}
	}
	b, err := g.NewBatch(ctx)
	if err != nil {
		return nil, none, none, cannotRun{fmt.Errorf("lint: %w", err)}
	}
	defer b.Close()
	bside, err := blobSide(b, base+":"+prefix)
	if err != nil {
		return nil, none, none, err
	}
	var hside history.Side
	if head != "" {
		hside, err = blobSide(b, head+":"+prefix)
	} else {
		hside, err = worktreeSide(root)
	}
	if err != nil {
		return nil, none, none, err
	}
	return compareSides(bside, hside, rev, base), bside, hside, nil
}

// stagedChecks compares what is about to be committed (the index) with
// HEAD. Before the first commit there is nothing committed to protect.
func stagedChecks(ctx context.Context, g *gitx.Git, prefix string) (diag.Diagnostics, history.Side, history.Side, error) {
	var none history.Side
	head, err := g.Resolve("HEAD")
	if err != nil {
		var me *gitx.MissingError
		if errors.As(err, &me) && !me.Shallow {
			return diag.Diagnostics{}, none, none, nil // no commit yet
		}
		return nil, none, none, usageErr("lint --staged: %v", err)
	}
	b, err := g.NewBatch(ctx)
	if err != nil {
		return nil, none, none, cannotRun{fmt.Errorf("lint --staged: %w", err)}
	}
	defer b.Close()
	bside, err := blobSide(b, head+":"+prefix)
	if err != nil {
		return nil, none, none, err
	}
	sside, err := blobSide(b, ":0:"+prefix)
	if err != nil {
		return nil, none, none, err
	}
	return compareSides(bside, sside, "HEAD", head), bside, sside, nil
}

// resolve turns a user's REV into a commit ID, with errors that say
// what to do.
func resolve(g *gitx.Git, flag, rev string) (string, error) {
	if err := gitx.CheckRev(rev); err != nil {
		return "", usageErr("lint %s: %v", flag, err)
	}
	id, err := g.Resolve(rev)
	if err != nil {
		return "", usageErr("lint %s: %v", flag, err)
	}
	return id, nil
}

// blobSide reads the log and the archive named by at+name ("SHA:sub/"
// for a commit, ":0:sub/" for the index).
func blobSide(b *gitx.Batch, at string) (history.Side, error) {
	var s history.Side
	for _, name := range append([]string{workspace.LogName}, workspace.ArchiveNames...) {
		data, ok, err := b.Contents(at + name)
		if err != nil {
			return s, cannotRun{fmt.Errorf("lint: read %s: %w", at+name, err)}
		}
		if ok {
			s = addFile(s, name, data)
		}
	}
	return s, nil
}

// worktreeSide reads the log and the archive from the working tree,
// through workspace so the same symlink and size limits apply.
func worktreeSide(root string) (history.Side, error) {
	var s history.Side
	for _, name := range append([]string{workspace.LogName}, workspace.ArchiveNames...) {
		if _, err := os.Lstat(filepath.Join(root, name)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		data, err := workspace.ReadFile(root, name)
		if err != nil {
			return s, cannotRun{err}
		}
		s = addFile(s, name, data)
	}
	return s, nil
}

// addFile parses name into s: the log, or the first archive found (the
// order of workspace.ArchiveNames, as Load reads them).
func addFile(s history.Side, name string, data []byte) history.Side {
	// The comparison reads IDs, positions and text only.
	if name == workspace.LogName {
		s.Log = parse.Parse(name, data, parse.HeadersOnly())
	} else if s.Archive == nil {
		s.Archive = parse.Parse(name, data, parse.Archive(), parse.HeadersOnly())
	}
	return s
}

// compareSides runs the comparison and names the base commit in full in
// each finding's detail, so a reader can `git show` it.
func compareSides(base, head history.Side, rev, commit string) diag.Diagnostics {
	label := fmt.Sprintf("%s (%.12s)", rev, commit)
	if len(rev) >= 12 && strings.HasPrefix(commit, rev) {
		label = fmt.Sprintf("%.12s", commit) // a sha needs no second sha
	}
	ds := history.Compare(base, head, label)
	for i := range ds {
		d := &ds[i]
		d.Detail = "base commit " + commit + "\n" + d.Detail
	}
	return ds
}

// autoBase finds the pull request's base commit in GitHub Actions: the
// event payload's pull_request.base.sha, else origin/$GITHUB_BASE_REF.
// Anything else is an error, never a silent pass.
func autoBase() (string, error) {
	if path := os.Getenv("GITHUB_EVENT_PATH"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return "", cannotRun{fmt.Errorf("lint --base auto: read $GITHUB_EVENT_PATH: %w", err)}
		}
		var ev struct {
			PullRequest struct {
				Base struct {
					SHA string `json:"sha"`
				} `json:"base"`
			} `json:"pull_request"`
		}
		if err := json.Unmarshal(data, &ev); err != nil {
			return "", cannotRun{fmt.Errorf("lint --base auto: $GITHUB_EVENT_PATH %q is not JSON: %w", path, err)}
		}
		if sha := ev.PullRequest.Base.SHA; sha != "" {
			return sha, nil
		}
	}
	if ref := os.Getenv("GITHUB_BASE_REF"); ref != "" {
		if err := gitx.CheckRev(ref); err != nil {
			return "", usageErr("lint --base auto: GITHUB_BASE_REF: %v", err)
		}
		return "origin/" + ref, nil
	}
	return "", usageErr("lint --base auto: no pull request base found (no pull_request.base.sha in $GITHUB_EVENT_PATH, GITHUB_BASE_REF unset): run it on a pull_request event or pass --base REV")
}
