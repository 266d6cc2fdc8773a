package converge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// ErrIntegrity means a shared event was edited or deleted: no
// renumbering can fix that, and nothing was written.
var ErrIntegrity = errors.New("integrity")

// RenumberResult is what renumber did or, with a dry run, would do.
type RenumberResult struct {
	Onto      string // the revision as given
	Base      string // the merge base, a commit ID
	Moves     []Move // the branch's events whose ID changes
	Written   []string
	Conflicts []string
	// Resolved lists the files that held a stopped merge's conflict
	// markers; the branch's version was read from the side of the
	// merge, rebase or cherry-pick that is not onto.
	Resolved []string
	// LineMerged lists the resolved files that held no markers: git's
	// line merge of a replayed commit (no driver) wrote them with an
	// ID repeated, which renumber merged again from the commits.
	LineMerged []string
}

// hasMarkers reports whether data holds a line that opens a git
// conflict.
func hasMarkers(data []byte) bool {
	return bytes.HasPrefix(data, []byte("<<<<<<< ")) || bytes.Contains(data, []byte("\n<<<<<<< "))
}

// Renumber makes the branch in root follow onto: the log (and the
// archive) become onto's version with the branch's events since the
// merge base after it, renumbered, refs and prose mentions rewritten
// (the bytes Merge writes with onto as ours and the branch as theirs);
// then the derived files are regenerated. During a merge, rebase or
// cherry-pick that stopped on the log (no driver installed: a pull
// request brought up to date by hand), onto must be one of its two
// sides and the branch's version is read from the other (HEAD when
// merging onto in, MERGE_HEAD or REBASE_HEAD when HEAD is onto), so the
// result resolves the conflict and git add and git commit finish the
// merge; the pull request then merges on GitHub with no conflict. All files are written under the
// memory's lock, each atomically. With dryRun nothing is written. A
// shared event edited on either side returns ErrIntegrity.
func Renumber(ctx context.Context, root, onto string, dryRun bool) (RenumberResult, error) {
	res := RenumberResult{Onto: onto}
	if err := gitx.CheckRev(onto); err != nil {
		return res, fmt.Errorf("--onto: %w", err)
	}
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return res, err
	}
	return renumber(ctx, g, root, onto, dryRun)
}

func renumber(ctx context.Context, g Git, root, onto string, dryRun bool) (RenumberResult, error) {
	res := RenumberResult{Onto: onto}
	if !dryRun {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return res, err
		}
		defer unlock()
	}
	target, err := g.Resolve(onto)
	if err != nil {
		rev := words.ClipPath(onto)
		return res, gitx.NoCommits(err, fmt.Sprintf("there is no %q to renumber after", rev), "memsys renumber --onto "+rev)
	}
	head, err := g.Resolve("HEAD")
	if err != nil {
		return res, err
	}
	names := append([]string{parse.LogFile}, parse.ArchiveFiles...)
	curs := make([][]byte, len(names))
	stopped := make([]bool, len(names))
	marked := ""
	for i, name := range names {
		cur, err := workspace.ReadFile(root, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return res, err
		}
		curs[i] = cur
		// A driver that could not run (memsys not on git's PATH)
		// leaves the file unmerged with ours' text and no markers:
		// taken as it is, the other side's events would be lost.
		if stopped[i] = hasMarkers(cur); !stopped[i] {
			if stopped[i], err = g.Unmerged(ctx, name); err != nil {
				return res, err
			}
		}
		if marked == "" && stopped[i] {
			marked = name
		}
	}
	if marked == "" {
		if marked, err = lineMerged(ctx, g, root, head, names, curs); err != nil {
			return res, err
		}
		if marked != "" {
			stopped[slices.Index(names, marked)] = true
			res.LineMerged = append(res.LineMerged, marked)
		}
	}
	// What the stopped file holds, and the way out by hand, in messages.
	what, fix := "conflict markers", "resolve the markers by hand"
	if len(res.LineMerged) > 0 {
		what, fix = "an ID repeated by git's line merge", "give the repeated events the next free IDs by hand"
	}
	// mine is the commit whose version of a file with conflict markers
	// is this branch's.
	mine, parent := head, ""
	if marked != "" {
		if mine, parent, err = stoppedSide(ctx, g, marked, what, fix, head, target, onto); err != nil {
			return res, err
		}
	}
	if res.Base, err = g.MergeBase(ctx, mine, target); err != nil {
		return res, err
	}
	// laterReplay is a replayed commit that is not the first after the
	// merge base. Merged from the merge base, the result would hold
	// every event of its branch since then, not only the commit's own;
	// so, as the driver does, the stopped files are merged from the
	// commit's parent, which is exact when HEAD holds the earlier
	// commits' events (the second commit of a rebase) and conflicts
	// when it does not (a later commit picked alone).
	laterReplay := parent != "" && parent != res.Base
	refuseLater := func() error {
		// The driver stops here too (the ancestor holds the branch's
		// earlier events, which ours never had), so "install the
		// driver" is no advice; replaying from the first commit is.
		return fmt.Errorf("%s has %s from replaying %s, which is not the first commit after the merge base with %s: renumber would bring the commits before it too: abort, then replay the branch from its first new commit with the merge driver installed (git cherry-pick %s..%s), or %s",
			marked, what, short(mine), onto, short(res.Base), short(mine), fix)
	}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return res, err
	}
	text := func(a, o, t []byte) ([]byte, bool, error) {
		return g.MergeFile(ctx, a, o, t, 0, onto, "merge base", "this branch")
	}
	type write struct {
		name string
		data []byte
	}
	var writes []write
	for i, name := range names {
		cur := curs[i]
		if cur == nil {
			continue
		}
		// onto's blob has git's line endings (LF under core.autocrlf);
		// the result takes the working file's, as append does.
		crlf := allCRLF(cur)
		if stopped[i] {
			// A merge with onto stopped on this file (no driver): the
			// branch's version is the other side's, and the result
			// resolves it.
			v, ok, err := g.ReadFile(mine, prefix+name)
			if err != nil {
				return res, err
			}
			if !ok {
				return res, fmt.Errorf("%s has conflict markers and %s has no such file: resolve it by hand", name, short(mine))
			}
			cur = v
			res.Resolved = append(res.Resolved, name)
		}
		theirs, ok, err := g.ReadFile(target, prefix+name)
		if err != nil {
			return res, err
		}
		if !ok {
			continue // onto has no such file: nothing to follow
		}
		from := res.Base
		if stopped[i] && laterReplay {
			from = parent
		}
		anc, _, err := g.ReadFile(from, prefix+name)
		if err != nil {
			return res, err
		}
		r, err := Merge(Input{Path: name, Archive: name != parse.LogFile, Ancestor: anc, Ours: theirs, Theirs: cur, Text: text, OursLabel: onto, TheirsLabel: "this branch", AncestorOffOurs: from == parent})
		if err != nil {
			return res, err
		}
		if from == parent && from != res.Base && (len(r.Conflicts) > 0 || r.TextOnly) {
			return res, refuseLater()
		}
		for _, c := range r.Conflicts {
			res.Conflicts = append(res.Conflicts, c.String(name))
		}
		for _, m := range r.Renumbered {
			if m.From != m.To {
				res.Moves = append(res.Moves, m)
			}
		}
		if !stopped[i] && !r.TextOnly && len(r.Renumbered) == 0 {
			// The branch adds no event to this file (it is only behind
			// onto, or edited text around the events): there is nothing
			// to renumber, and writing the merge would copy onto's new
			// events into the branch without onto's commits, while the
			// dry run says there is nothing to do.
			continue
		}
		if crlf {
			r.Data = toCRLF(r.Data)
		}
		if string(r.Data) != string(cur) || slices.Contains(res.Resolved, name) {
			writes = append(writes, write{name, r.Data})
		}
	}
	if len(res.Conflicts) > 0 {
		return res, ErrIntegrity
	}
	if dryRun || len(writes) == 0 {
		return res, nil
	}
	// The regen after the writes reads the configuration: refuse one it
	// cannot read before the log is rewritten, not after.
	cfg, err := memory.LoadConfig(root)
	if err != nil {
		return res, err
	}
	for _, w := range writes {
		if err := workspace.WriteFile(root, w.name, w.data); err != nil {
			return res, err
		}
		res.Written = append(res.Written, w.name)
	}
	derived, err := memory.Regen(root, cfg, true)
	if err != nil {
		return res, err
	}
	res.Written = append(res.Written, derived...)
	return res, nil
}

// allCRLF reports whether every line of b ends in CRLF: a checkout with
// core.autocrlf, or a log kept in CRLF. A file of mixed endings is
// left as the merge lays it out rather than guessed at.
func allCRLF(b []byte) bool {
	n := bytes.Count(b, []byte("\n"))
	return n > 0 && n == bytes.Count(b, []byte("\r\n"))
}

// toCRLF ends every line of b in CRLF, so a log renumbered in a CRLF
// checkout is not left with LF events among CRLF ones.
func toCRLF(b []byte) []byte {
	return bytes.ReplaceAll(normalizeEOL(b), []byte("\n"), []byte("\r\n"))
}

// lineMerged returns the log file (or archive) that git's line merge
// wrote with an ID repeated during a merge, rebase or cherry-pick, ""
// when none: without the driver, a replayed commit that appended
// evt-003 after HEAD's own evt-003 (or a merge whose sides changed the
// log in places git's diff keeps apart) merges cleanly as lines,
// leaves no marker, and the duplicate's refs name HEAD's event. Only a
// file that repeats an ID HEAD's version does not is taken, so a log
// edited at a rebase's edit stop is left as it is.
func lineMerged(ctx context.Context, g Git, root, head string, names []string, curs [][]byte) (string, error) {
	replaying := false
	for _, ref := range []string{"MERGE_HEAD", "REBASE_HEAD", "CHERRY_PICK_HEAD"} {
		if _, err := g.Resolve(ref); err == nil {
			replaying = true
		}
	}
	if !replaying {
		return "", nil
	}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return "", err
	}
	for i, name := range names {
		if curs[i] == nil {
			continue
		}
		ours, ok, err := g.ReadFile(head, prefix+name)
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		archive := name != parse.LogFile
		cur, _ := split(name, curs[i], archive)
		was, _ := split(name, ours, archive)
		if cur != nil && was != nil && cur.addedDuplicate(was) != "" {
			return name, nil
		}
	}
	return "", nil
}

// stoppedSide returns the commit that holds this branch's side of the
// merge, rebase or cherry-pick that stopped on file and, for a rebase
// or cherry-pick, the parent of the commit being replayed ("" for a
// merge). Reading HEAD whatever the operation dropped the other side's
// events whenever HEAD was target (on main merging a branch, or any
// rebase). A merge may name either side as target; a rebase or
// cherry-pick replays one commit onto HEAD, so target must be HEAD.
func stoppedSide(ctx context.Context, g Git, file, what, fix, head, target, onto string) (mine, parent string, err error) {
	for _, op := range []struct{ ref, verb string }{
		{"MERGE_HEAD", "merge"},
		{"REBASE_HEAD", "rebase"},
		{"CHERRY_PICK_HEAD", "cherry-pick"},
	} {
		other, err := g.Resolve(op.ref)
		if err != nil {
			continue
		}
		if op.verb == "merge" {
			// An octopus names every branch in MERGE_HEAD, and Resolve
			// reads the first: the result would drop the others'
			// events. git's octopus runs no merge driver; one branch at
			// a time, the driver merges each.
			if dir, err := g.GitDir(ctx); err == nil {
				if ids, err := gitx.Heads(dir, "MERGE_HEAD"); err == nil && len(ids) > 1 {
					return "", "", fmt.Errorf("%s has %s from an octopus merge of %d branches, and renumber resolves two sides: run git merge --abort, then merge the branches one at a time, which the merge driver merges",
						file, what, len(ids))
				}
			}
			switch target {
			case other:
				return head, "", nil
			case head:
				return other, "", nil
			}
			return "", "", fmt.Errorf("%s has %s from a merge of %s into %s, and --onto %s is neither: pass --onto one of the two sides, or %s",
				file, what, short(other), short(head), onto, fix)
		}
		if target != head {
			return "", "", fmt.Errorf("%s has %s from a %s of %s onto %s, and --onto %s is not %s: pass --onto the revision HEAD is, or %s",
				file, what, op.verb, short(other), short(head), onto, short(head), fix)
		}
		if parent, err = g.Resolve(other + "^"); err != nil {
			parent = other // a root commit: no merge base is its parent
		}
		return other, parent, nil
	}
	return "", "", fmt.Errorf("%s has conflict markers but no merge, rebase or cherry-pick is in progress: resolve them by hand", file)
}

func short(commit string) string { return commit[:min(12, len(commit))] }

// RefCollision is one ID two revisions would both add.
type RefCollision struct {
	ID                 string
	A, B               string // the revisions
	SummaryA, SummaryB string
}

// Collisions reads the memory at root in every revision revs names
// (a glob such as origin/* names every branch it matches) and lists,
// pair by pair, the IDs both would add since their merge base with
// other content. One revision named alone is compared with HEAD
// (withHead). It also returns the revisions it read.
func Collisions(ctx context.Context, root string, revs []string) ([]RefCollision, []string, error) {
	revs, err := withHead(revs)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range revs {
		if err := gitx.CheckRev(r); err != nil {
			return nil, nil, err
		}
	}
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return nil, nil, err
	}
	return collisions(ctx, g, root, revs)
}

// withHead is the revisions collisions compares for the ones named:
// one revision alone, not a glob, with HEAD added, as a feature branch
// runs memsys collisions origin/main. Alone it has nothing to collide
// with, and "no collisions among 1 revision" would pass a CI job that
// checked nothing; so HEAD alone (or @) is an error.
func withHead(revs []string) ([]string, error) {
	if len(revs) != 1 || isGlob(revs[0]) {
		return revs, nil
	}
	if r := revs[0]; r == "HEAD" || r == "@" {
		return nil, fmt.Errorf("%s alone has nothing to compare with: name another revision, as in memsys collisions origin/main (compared with HEAD)", r)
	}
	return []string{revs[0], "HEAD"}, nil
}

// errNoCommits is collisions' one line in a repository with no commit:
// every revision, the user's and the HEAD it adds, names nothing, and
// naming HEAD (the first resolved, sorted) would blame a revision the
// user never typed.
var errNoCommits = &gitx.NoCommitsError{Why: "there are no branches to compare", Next: "memsys collisions"}

// empty reports whether the repository has no commit, so HEAD names
// nothing.
func empty(g Git) bool {
	_, err := g.Resolve("HEAD")
	me := (*gitx.MissingError)(nil)
	return errors.As(err, &me) && me.Empty
}

// isGlob reports whether a revision named is a glob over branch names.
func isGlob(rev string) bool { return strings.ContainsAny(rev, "*?[") }

func collisions(ctx context.Context, g Git, root string, revs []string) ([]RefCollision, []string, error) {
	var names []string
	for _, r := range revs {
		if isGlob(r) {
			m, err := g.Refs(ctx, r)
			if err != nil {
				return nil, nil, err
			}
			if len(m) == 0 {
				if empty(g) {
					return nil, nil, errNoCommits
				}
				return nil, nil, fmt.Errorf("%q matches no branch: list them with git branch -a", words.Clip(r))
			}
			names = append(names, m...)
			continue
		}
		names = append(names, r)
	}
	// A glob that matched one branch compares it with HEAD, as one
	// revision named alone does (withHead): read alone it would pass
	// a CI job that checked nothing.
	if len(names) == 1 && len(revs) == 1 && isGlob(revs[0]) {
		names = append(names, "HEAD")
	}
	slices.Sort(names)
	names = slices.Compact(names)
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return nil, nil, err
	}
	commits := make([]string, len(names))
	hist := map[string][]parse.Event{}
	hasLog := false
	read := func(commit string) ([]parse.Event, error) {
		if h, ok := hist[commit]; ok {
			return h, nil
		}
		var logs [2]*parse.Log
		for _, name := range append([]string{parse.LogFile}, parse.ArchiveFiles...) {
			data, ok, err := g.ReadFile(commit, prefix+name)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if name == parse.LogFile {
				hasLog = true
				logs[1] = parse.Parse(name, data, parse.HeadersOnly())
			} else if logs[0] == nil {
				logs[0] = parse.Parse(name, data, parse.Archive(), parse.HeadersOnly())
			}
		}
		h := lint.History(logs[0], logs[1])
		hist[commit] = h
		return h, nil
	}
	for i, n := range names {
		if commits[i], err = g.Resolve(n); err != nil {
			if me := (*gitx.MissingError)(nil); errors.As(err, &me) && me.Empty {
				return nil, nil, errNoCommits
			} else if me != nil && me.Unborn != "" && (n == "HEAD" || n == "@") && len(names) == 2 {
				// HEAD, which collisions adds to one revision named
				// alone (withHead), is a branch with no commits yet
				// (git checkout --orphan): nothing to compare the other
				// with, and the user may never have typed HEAD.
				other := names[1-i]
				return nil, nil, fmt.Errorf("HEAD is branch %q, which has no commits yet, so there is nothing to compare %s with: commit on it first (git add -A && git commit), or name two revisions: memsys collisions %s OTHER",
					me.Unborn, words.ClipPath(other), words.ClipPath(other))
			}
			return nil, nil, err
		}
		if _, err := read(commits[i]); err != nil {
			return nil, nil, err
		}
	}
	if !hasLog {
		// The wrong folder (a monorepo's root, a mistyped -C), not
		// branches that agree: a CI job would read exit 0 as a pass.
		return nil, nil, fmt.Errorf("no revision named has %s: run memsys collisions in the memory's folder (or pass -C DIR)", path.Join("/"+prefix, parse.LogFile))
	}
	var out []RefCollision
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if commits[i] == commits[j] {
				continue
			}
			a, err := read(commits[i])
			if err != nil {
				return nil, nil, err
			}
			b, err := read(commits[j])
			if err != nil {
				return nil, nil, err
			}
			mb, err := g.MergeBase(ctx, commits[i], commits[j])
			if me := (*gitx.MissingError)(nil); errors.As(err, &me) && me.Between[0] != "" {
				switch {
				case len(a) == 0 || len(b) == 0:
					// No common commit, but no events on one side
					// (a gh-pages branch a glob matched): nothing
					// can collide.
					continue
				case me.Shallow:
					return nil, nil, fmt.Errorf("this is a shallow clone without the common history of %s and %s: run git fetch --unshallow (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)", names[i], names[j])
				default:
					// Named by the user's names, not the commit IDs
					// gitx has.
					return nil, nil, fmt.Errorf("%s and %s share no history (git merge-base finds no common commit), so neither has events new to the other: name branches that grew from a common commit", names[i], names[j])
				}
			}
			if err != nil {
				return nil, nil, err
			}
			base, err := read(mb)
			if err != nil {
				return nil, nil, err
			}
			for _, c := range lint.Collide(base, a, b) {
				out = append(out, RefCollision{ID: c.ID, A: names[i], B: names[j], SummaryA: summary(c.A), SummaryB: summary(c.B)})
			}
		}
	}
	return out, names, nil
}

// summary is the event's heading after its ID: time, agent and type.
func summary(e *parse.Event) string {
	line, _, _ := strings.Cut(e.Text, "\n")
	if _, rest, ok := strings.Cut(line, "|"); ok {
		return strings.TrimSpace(rest)
	}
	return ""
}
