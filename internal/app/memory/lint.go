package memory

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// LintOptions are memsys lint's choices for one memory root.
type LintOptions struct {
	Overrides []config.RuleSetting // --rule, over .memsys.json
	Fix       bool                 // rewrite what the Fix rules found
	Git       history.GitOptions   // --base, --head, --staged
	// WriteBaseline records the findings in lint.BaselineFile instead
	// of applying it (lint --write-baseline).
	WriteBaseline bool
	// Notes receives one line per thing lint did besides judging: a
	// file --fix rewrote or kept, the baseline written. nil drops them.
	Notes func(string)
	// Display names a root-relative file in Notes as the command shows
	// every path (relative to where memsys started: a monorepo's roots
	// each have a .memsys-baseline.json). nil names it as is.
	Display func(file string) string
	// Exiting says the process prints the report and exits after this
	// lint (the memsys command's last root, not the MCP server): a lint
	// answered from the cache's
	// result then leaves the garbage collector off. What is allocated
	// after it (the findings, their paths and the printed lines) stays
	// live or is a few megabytes, and a collection started while the
	// findings were printed cost a 100k-event lint ~15 ms of CPU, a
	// fifth of it.
	Exiting bool
	// Fingerprints sets each finding's Fingerprint (lint --format
	// sarif). Only SARIF prints it, and at 100,000 events with ~8,000
	// findings computing it costs a warm lint a few times its time.
	Fingerprints bool
}

// LintReport is what Lint found at one root.
type LintReport struct {
	Diagnostics diag.Diagnostics
	Events      int // events checked
	// Suppressed counts the findings lint.BaselineFile holds, which are
	// not in Diagnostics.
	Suppressed int
}

// Lint lints the memory at root and returns the findings (paths relative
// to root, each with its lint.Fingerprint when o.Fingerprints) and the number of events
// checked. The history streams
// through a lint Session: events are checked and replayed as the parser
// completes them and none is kept. With Fix it first rewrites the files
// the findings of the rules that declare Fix name, then lints the
// result.
//
// A baseline file (lint.BaselineFile) at root hides the findings it
// holds; with WriteBaseline the findings are recorded there instead.
//
// With Git.Staged every file, the configuration and the baseline
// included, is read from the git index (what the next commit records),
// not the working tree: a plain pre-commit hook runs with unstaged
// changes still on disk.
func Lint(ctx context.Context, root string, o LintOptions) (*LintReport, error) {
	if o.Notes == nil {
		o.Notes = func(string) {}
	}
	if o.Display == nil {
		o.Display = func(f string) string { return f }
	}
	if o.Git.Staged && (o.Fix || o.WriteBaseline) {
		return nil, errors.New("lint: --staged checks the staged files; --fix and --write-baseline change the working tree: run them without --staged")
	}
	git, revs, closeGit, err := history.Revisions(ctx, root, o.Git)
	if err != nil {
		return nil, err
	}
	defer closeGit()
	if !o.Git.Staged && logAbsent(root) && !logAtBase(git, revs) {
		if advice := memoryElsewhere(ctx, root, o.Git); advice != "" {
			return nil, fmt.Errorf("lint: no %s in this folder; %s", workspace.LogName, advice)
		}
		// No log here or at the base: there is no memory to lint, as
		// there is none for status or regen, whatever MS101's severity
		// (MS101 judges the log's section; "off" let lint pass here).
		// A log the change deletes is linted (MS302), MS101 reporting
		// it missing.
		return nil, workspace.MissingLog(root)
	}
	files := memFiles{root: root}
	if o.Git.Staged {
		view, idx, err := stagedView(ctx, root, git, revs)
		if err != nil {
			return nil, err
		}
		defer idx.Close()
		files.view = view
		if git != nil {
			git = stagedGit{git, view, idx}
		}
	}
	cfg, err := files.loadConfig()
	if err != nil {
		return nil, err
	}
	l, err := lint.New(cfg, o.Overrides...)
	if err != nil {
		return nil, err
	}
	in := files.input()
	in.Git, in.Revisions = git, revs
	if revs != nil && workspace.CacheEnabled() {
		in.Summaries = newSideStore(root)
	}
	var ds diag.Diagnostics
	var events int
	if ds, events, err = lintJudged(l, files, o.Overrides, in, o.Exiting && revs == nil && !o.Fix); err != nil {
		return nil, err
	}
	// --fix has work only when a rule declaring Fix found something;
	// most runs (an agent's memsys_lint with "fix" on a fresh memory)
	// have none, and the judgement above, through the cache, is then
	// the whole answer. Otherwise one Session lints again and keeps
	// the derived files it rendered, which fixDerived writes.
	if o.Fix && len(fixFiles(ds)) > 0 {
		var s *lint.Session
		if ds, events, s, _, err = lintOnce(l, files, in, true, nil); err != nil {
			return nil, err
		}
		ds = interruptedFindings(files.pair(), ds)
		if ds, err = fixDerived(root, l, s, ds, in, sealedAt{root: root, opt: lint.RenderOptions(cfg)}, o.Notes, o.Display); err != nil {
			return nil, err
		}
	}
	// lint --staged judges the index: staleRows reads the staged
	// derived files and replays the staged history, as a lint of a
	// working tree holding the index's bytes would.
	if refineStale {
		staleRows(root, cfg, files, ds)
	}
	r := &LintReport{Events: events}
	r.Diagnostics, r.Suppressed, err = applyBaseline(root, files, l, ds, o.WriteBaseline, o.Notes, o.Display)
	// The paths are still root-relative, as the baseline's are: the
	// SARIF printer shows them from the repository root.
	if o.Fingerprints {
		lint.SetFingerprints(r.Diagnostics)
	}
	lint.EditedAdvice(r.Diagnostics)
	if o.Git.Staged {
		lint.StagedAdvice(r.Diagnostics, o.Display)
	}
	if o.Display != nil {
		lint.RootAdvice(r.Diagnostics, o.Display("."))
	}
	return r, err
}

// lintJudged is a lint of files without --fix. The files are judged
// through the cache (lintcache.go), the staged ones too, without the
// revisions; the history rules, which --base and --staged run, apart
// (lint.Linter.WithHistory). The findings are one Session's over in
// (TestLintGitCachedEqualsSession).
func lintJudged(l *lint.Linter, files memFiles, overrides []config.RuleSetting, in lint.Input, exiting bool) (diag.Diagnostics, int, error) {
	if !judgeApart {
		ds, events, _, _, err := lintOnce(l, files, in, false, nil)
		return interruptedFindings(files.pair(), ds), events, err
	}
	plain := in
	plain.Git, plain.Revisions = nil, nil
	var ds diag.Diagnostics
	var events int
	var err error
	if workspace.CacheEnabled() {
		name, alt := lintCacheName(files, overrides, false), ""
		if files.view != nil {
			name, alt = lintCacheName(files, overrides, true), name
		}
		ds, events, err = lintCached(l, files, name, alt, plain, exiting)
	} else {
		ds, events, _, _, err = lintOnce(l, files, plain, false, nil)
	}
	if err != nil || in.Revisions == nil {
		return interruptedFindings(files.pair(), ds), events, err
	}
	if ds, err = l.WithHistory(in, ds); err != nil {
		return nil, 0, fmt.Errorf("lint: %w", err)
	}
	return interruptedFindings(files.pair(), ds), events, nil
}

// logAbsent reports whether root has no log on disk either: a staged
// check that finds none in the index then most often runs at the root
// of a repository whose memory is in a subfolder (a pre-commit
// framework hook), where "git add it" would name a file that does not
// exist.
func logAbsent(root string) bool {
	_, err := os.Lstat(filepath.Join(root, workspace.LogName))
	return errors.Is(err, fs.ErrNotExist)
}

// runInMemory is the advice for logAbsent, naming the command to run
// and, when git tracks memories in folders below root (memoryFolders),
// the folder to run it in: the pre-commit hook's args to write down.
func runInMemory(ctx context.Context, root, command string) string {
	dirs := memoryFolders(ctx, root)
	switch len(dirs) {
	case 0:
		return "run memsys in the memory's folder (memsys -C DIR " + command + "; pre-commit hooks: args: [-C, DIR]), or memsys init"
	case 1:
		return "run memsys in the memory's folder (memsys -C " + dirs[0] + " " + command + "; pre-commit hooks: args: [-C, " + dirs[0] + "]), or memsys init"
	}
	return "run memsys in a memory's folder (memsys -C DIR " + command + ", DIR one of " + folderList(dirs) + "; pre-commit hooks: args: [-C, DIR], one hook entry per memory), or memsys init"
}

// logAtBase reports whether the base commit of lint --base has the log
// at root: a change that deletes it is linted (its events deleted), not
// sent to another folder.
func logAtBase(git lint.Git, revs *lint.Revisions) bool {
	if git == nil || revs == nil {
		return false
	}
	_, ok, err := git.Blob(revs.Base, workspace.LogName)
	return err == nil && ok
}

// memoryElsewhere is the advice for a lint run where there is no log
// but git tracks memories in folders below root (the GitHub action's
// default working-directory, the top of a monorepo): MS101's "run
// memsys init" would start a second memory. It is "" when git tracks
// none, and MS101 then says init.
func memoryElsewhere(ctx context.Context, root string, o history.GitOptions) string {
	dirs := memoryFolders(ctx, root)
	command := "lint"
	if o.Base != "" {
		command += " --base " + words.ClipPath(o.Base)
		if o.Head != "" {
			command += " --head " + words.ClipPath(o.Head)
		}
	}
	switch len(dirs) {
	case 0:
		return ""
	case 1:
		return "git tracks a memory in " + dirs[0] + ": run memsys there (memsys -C " + dirs[0] + " " + command + "; the GitHub action: working-directory: " + dirs[0] + "), or memsys init to start one here"
	}
	return "git tracks memories in " + folderList(dirs) + ": run memsys in each (memsys -C DIR " + command + "; the GitHub action: working-directory: DIR, one step per memory), or memsys init to start one here"
}

// folderList names up to three of memoryFolders' folders for a
// one-line message, "…" marking the rest.
func folderList(dirs []string) string {
	list := strings.Join(dirs[:min(len(dirs), 3)], ", ")
	if len(dirs) > 3 {
		list += ", …"
	}
	return list
}

// memoryFolders lists the folders below root where git tracks a
// CHANGELOG.md, relative to root, sorted. It runs only on the way to an
// error (runInMemory, memoryElsewhere), so its git call costs no check
// that passes. A
// folder whose name the advice could not show as one shell word is
// left out (the advice then says DIR).
func memoryFolders(ctx context.Context, root string) []string {
	out, err := (&gitx.Git{Dir: root}).Run(ctx, "ls-files", "-z", "--", ":(glob)**/"+workspace.LogName)
	if err != nil {
		return nil
	}
	var dirs []string
	for _, p := range strings.Split(string(out), "\x00") {
		d := path.Dir(p)
		if p == "" || d == "." || strings.ContainsFunc(d, func(r rune) bool {
			return !(r == '/' || r == '.' || r == '_' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r))
		}) {
			continue
		}
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// refineStale is false only in the tests, which count the cases where
// staleRows changes the rule's reading.
var refineStale = true

// judgeApart is false only in the tests, which compare lintJudged with
// the one Session over in that it stands for.
var judgeApart = true

// stagedGit is the repository of lint --staged, whose index's files
// the View has read already: the history rules read the staged log
// from it rather than from git a second time (32 MB at 100k events).
// Only a file staged as one (gitx.Index.Regular) is answered so, where
// the View's bytes are git's; git answers the rest, and what the View
// cannot (a file over its size limit), as before.
type stagedGit struct {
	lint.Git
	view *workspace.View
	idx  *gitx.Index
}

// BlobID is the repository's (lint.BlobIDs): the index names the
// staged blobs.
func (g stagedGit) BlobID(rev, path string) (string, bool, error) {
	if ids, ok := g.Git.(lint.BlobIDs); ok {
		return ids.BlobID(rev, path)
	}
	return "", false, nil
}

// HadText is the repository's (lint.PastTexts): the history before
// the index is git's.
func (g stagedGit) HadText(rev, text string, paths ...string) (bool, error) {
	if pt, ok := g.Git.(lint.PastTexts); ok {
		return pt.HadText(rev, text, paths...)
	}
	return false, nil
}

// LastMerge is the repository's (lint.Merges).
func (g stagedGit) LastMerge(base, head string) (string, error) {
	if m, ok := g.Git.(lint.Merges); ok {
		return m.LastMerge(base, head)
	}
	return "", nil
}

func (g stagedGit) Blob(rev, path string) ([]byte, bool, error) {
	if rev == ":0" && g.idx.Regular(path) {
		if data, err := g.view.ReadFile(path); err == nil {
			return data, true, nil
		}
	}
	return g.Git.Blob(rev, path)
}

// stagedView is the View of the staged memory files at root (lint
// --staged), read through gitx. A log that is neither staged nor in
// HEAD is not yet part of any commit: there is nothing to check but
// the user's intent, so it is one line, not a missing-log finding. A
// log staged for deletion from HEAD is linted as the commit would
// leave it (its events deleted: MS301).
func stagedView(ctx context.Context, root string, git lint.Git, revs *lint.Revisions) (*workspace.View, *gitx.Index, error) {
	// history.Revisions has found the repository.
	g := &gitx.Git{Dir: root}
	idx, err := g.ReadIndex(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("lint --staged: read the index: %w", err)
	}
	view := workspace.NewView("staged", idx)
	if !view.Exists(workspace.LogName) {
		inHead := false
		if git != nil && revs != nil {
			if _, ok, err := git.Blob(revs.Base, workspace.LogName); err == nil && ok {
				inHead = true
			}
		}
		if !inHead {
			idx.Close()
			// No log anywhere here is most often a memory in a subfolder
			// (a pre-commit framework hook runs at the repository root):
			// "git add it" would point at a file that does not exist.
			if logAbsent(root) {
				return nil, nil, fmt.Errorf("lint --staged: no %s in this folder, the index or HEAD: %s", workspace.LogName, runInMemory(ctx, root, "lint --staged"))
			}
			return nil, nil, fmt.Errorf("lint --staged: %s is not staged: git add it to commit the memory (memsys lint without --staged checks the working tree)", workspace.LogName)
		}
	}
	return view, idx, nil
}

// memFiles is where a lint reads the memory: the working tree at root,
// or, when view is set, the staged files (lint --staged). Rules see
// either through the same lint.Input.
type memFiles struct {
	root string
	view *workspace.View
	// held, when set (and view is not), is the working tree's log and
	// archive already read (workspace.Read): memsys report reads them
	// once for the lint, the replay and its counts.
	held *workspace.Memory
	// feed, when set, keeps a cold lint's replay for memsys report
	// (replayFeed).
	feed *replayFeed
	// configSrc is the configuration's bytes as loadConfig read them
	// (nil when there is no file), when configRead.
	configSrc  []byte
	configRead bool
}

// loadConfig reads the configuration lint judges by, and keeps the
// bytes it came from for the lint cache's key (lintCacheName): the file
// is read once.
func (f *memFiles) loadConfig() (config.Config, error) {
	var cfg config.Config
	var err error
	if f.view != nil {
		cfg, f.configSrc, err = f.view.ReadConfig()
	} else {
		cfg, f.configSrc, err = workspace.ReadConfig(f.root)
	}
	f.configRead = err == nil
	return checkedConfig(cfg, err)
}

func (f memFiles) input() lint.Input {
	if f.view != nil {
		return lint.Input{LogFile: workspace.LogName, ReadFile: f.view.ReadFile, Exists: f.view.Exists}
	}
	return LintInput(f.root)
}

func (f memFiles) readFile(rel string) ([]byte, error) {
	if f.view != nil {
		return f.view.ReadFile(rel)
	}
	return workspace.ReadFile(f.root, rel)
}

// tier is the tier the files show (no configuration): the lint
// cache's key, beside the configuration's own.
func (f memFiles) tier() workspace.Tier { return f.tierOf("") }

// tierOf is the memory's tier with configured (.memsys.json's) first
// (parse.TierOf), from the files lint reads.
func (f memFiles) tierOf(configured string) workspace.Tier {
	if f.view != nil {
		return f.view.TierOf(configured)
	}
	return workspace.TierAt(f.root, configured)
}

func (f memFiles) hasLog() bool {
	if f.view != nil {
		return f.view.Exists(workspace.LogName)
	}
	return !errors.Is(workspace.Lstat(f.root, workspace.LogName), fs.ErrNotExist)
}

func (f memFiles) stream(before func(*workspace.Memory), each func(*parse.Event), opts ...parse.Option) (*workspace.Memory, error) {
	if f.view != nil {
		return f.view.StreamWith(before, each, opts...)
	}
	if f.held != nil {
		m := f.heldCopy()
		if before != nil {
			before(m)
		}
		return m, m.Stream(each, opts...)
	}
	return workspace.StreamWith(f.root, before, each, opts...)
}

// heldCopy is the held memory's bytes in a Memory of their own, not
// yet parsed: each reader (the lint, the replay, the report's counts)
// parses into its own and none sees another's parse.
func (f memFiles) heldCopy() *workspace.Memory {
	return &workspace.Memory{Root: f.held.Root, Tier: f.held.Tier, LogBytes: f.held.LogBytes, ArchivePath: f.held.ArchivePath, ArchiveBytes: f.held.ArchiveBytes}
}

// restream is Input.Restream: the history streamed again from the
// files.
func (f memFiles) restream() func(func(*parse.Event)) error {
	return func(each func(*parse.Event)) error {
		_, err := f.stream(nil, each)
		return err
	}
}

// applyBaseline applies root's baseline file, when it has one, to ds:
// the findings it holds are dropped and counted, its stale entries
// reported (MS208). With write, it records ds as the baseline first.
func applyBaseline(root string, files memFiles, l *lint.Linter, ds diag.Diagnostics, write bool, note func(string), show func(string) string) (diag.Diagnostics, int, error) {
	if write {
		b := lint.NewBaseline(ds)
		if err := workspace.WriteFile(root, lint.BaselineFile, b.Marshal()); err != nil {
			return nil, 0, err
		}
		note(fmt.Sprintf("lint: wrote %s (%s): commit it; later runs report only new findings", show(lint.BaselineFile), words.Plural(len(b.Findings), "finding")))
		kept, n, _ := b.Apply(ds)
		return kept, n, nil
	}
	data, err := files.readFile(lint.BaselineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return ds, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	b, err := lint.ReadBaseline(filepath.Join(root, lint.BaselineFile), data)
	if err != nil {
		return nil, 0, err
	}
	kept, n, stale := b.Apply(ds)
	if sev := l.Severity("MS208"); sev != diag.Off {
		for _, d := range stale {
			d.Severity = sev
			kept = append(kept, d)
		}
	}
	kept.Sort()
	return kept, n, nil
}

// lintOnce runs one Session over root. A missing log is a finding
// (MS101), not a failure to run. When the log was read, beforeFinish
// (if not nil) sees the Session after the last event, with the log's
// last event and the number of events: the lint cache checkpoints it
// there.
func lintOnce(l *lint.Linter, files memFiles, in lint.Input, derive bool, beforeFinish func(*lint.Session, *workspace.Memory, lastEvent, int)) (diag.Diagnostics, int, *lint.Session, *workspace.Memory, error) {
	in.Derive = derive
	// The replay learns beforehand which events later ones supersede,
	// predicted from the bytes; if that was wrong, Finish replays again
	// from a second stream.
	in.Restream = files.restream()
	s := l.Start(in)
	mem := &workspace.Memory{Root: files.root, Tier: files.tier()}
	feed := files.feed
	var last lastEvent
	n := 0
	if files.hasLog() {
		each := s.Event
		if feed != nil {
			last.counts = &historyTally{}
		}
		if beforeFinish != nil || feed != nil {
			each = func(e *parse.Event) {
				s.Event(e)
				n++
				last.ev = e
				if e.Range.File == workspace.LogName {
					if e.InLog {
						last.set(e)
						if feed != nil {
							last.logN++
							last.order.Add(e)
						}
					}
				} else if feed != nil {
					last.archN++
				}
				last.counts.add(e)
			}
		}
		var err error
		// The Session says which events its rules and replay are done
		// with, and each keeps none but the last (parse.Reuse).
		if mem, err = files.stream(func(m *workspace.Memory) {
			predicted := m.Supersessions()
			s.Expect(predicted)
			s.Reserve(len(m.LogBytes) + len(m.ArchiveBytes))
			if feed != nil && len(predicted) > 0 {
				// As replayRead counts: right when the replay is Exact.
				last.counts.track = materialize.NewSupersedeTracker(predicted)
			}
		}, each, parse.Reuse(s)); err != nil {
			return nil, 0, nil, nil, err
		}
		if beforeFinish != nil {
			beforeFinish(s, mem, last, n)
		}
	}
	x := s.Replayer()
	ds := s.Finish(mem.Log, mem.Archive)
	if err := s.Err(); err != nil {
		return nil, 0, nil, nil, fmt.Errorf("lint: %w", err)
	}
	// Finish replaces an inexact replay (the Supersedes fields predicted
	// from the bytes were not the events') with a second one, but the
	// counts followed the prediction: only a replay exact from the
	// start is kept for the report.
	if feed != nil && x != nil && x.Exact() && mem.Log != nil {
		feed.keep(mem, x, last, n)
	}
	return ds, s.Events(), s, mem, nil
}

// staleRows reads the stale derived files whose MS202/MS203 findings
// in ds name rows the current replay lacks as regen reads them
// (lint.StaleRows, sealedAt.handEdits): a sealed file that is what
// memsys wrote at its horizon holds none of its own, and adopt would
// bring back rows later events superseded. Only such a finding costs a
// replay, once for both files; an unsealed file, or one the tier does
// not use (regen does not write it), keeps the rule's reading.
//
// The files and the history are files' (the index's, for lint
// --staged), so lint --staged says of the index what lint says of a
// working tree holding its bytes. When the index holds the history as
// the working tree does (stagedAsOnDisk, the common hook run after git
// add), the replay is the working tree's, through the history cache;
// otherwise the staged history is replayed without it, which keeps
// the working tree's checkpoint.
func staleRows(root string, cfg config.Config, files memFiles, ds diag.Diagnostics) {
	tier := files.tierOf(cfg.Tier)
	opt := lint.RenderOptions(cfg)
	var x *materialize.Replayer
	tried := false
	sa := sealedAt{root: root, opt: opt}
	if files.view != nil {
		sa.stream = files.stream
	}
	var rewritten [][2]string // file, horizon
	lint.StaleRows(ds, func(f string) ([]string, bool) {
		if f == parse.GraphFile && !tier.HasGraph() || f == parse.ContextFile && !tier.HasContext() {
			return nil, false
		}
		cur, err := files.readFile(f)
		if err != nil || !materialize.HasSeal(cur) {
			return nil, false
		}
		if !tried {
			tried = true
			var r *materialize.Replayer
			var err error
			if files.view == nil || stagedAsOnDisk(root, files) {
				_, r, err = Replay(root, opt, "")
			} else {
				_, r, err = replayFrom(files.stream, opt, "")
			}
			if err == nil {
				x = r
			}
		}
		if x == nil {
			return nil, false
		}
		want := x.GraphFile()
		if f == parse.ContextFile {
			want = x.ContextFile()
		}
		items := sa.handEdits(f, cur, want)
		if len(items) > 0 && sa.logRewritten(cur) {
			h, _ := materialize.FindHorizon(cur)
			rewritten = append(rewritten, [2]string{f, h})
		}
		return items, true
	})
	// What the file holds is an edited committed event's effect, as
	// status and regen say (sealedAt.logRewritten).
	for _, r := range rewritten {
		lint.StaleLogRewritten(ds, r[0], logRewrittenAdvice("it", r[1]))
	}
}

// stagedAsOnDisk reports whether the index holds the log and the
// archive exactly as the working tree does (none of them, or the same
// bytes): then the working tree's replay, which the history cache
// keeps, is the index's.
func stagedAsOnDisk(root string, files memFiles) bool {
	if files.view == nil {
		return true
	}
	names := append([]string{workspace.LogName}, workspace.ArchiveNames...)
	for _, rel := range names {
		staged, serr := files.view.ReadFile(rel)
		disk, derr := workspace.ReadFile(root, rel)
		if (serr == nil) != (derr == nil) || serr == nil && !bytes.Equal(staged, disk) {
			return false
		}
	}
	return true
}

// LintInput is the lint.Input of the memory at root: its files, read
// through workspace.
func LintInput(root string) lint.Input {
	return lint.Input{
		LogFile:  workspace.LogName,
		ReadFile: func(rel string) ([]byte, error) { return workspace.ReadFile(root, rel) },
		Exists:   func(rel string) bool { return workspace.Stat(root, rel) == nil },
	}
}

// fixFiles lists the files that the findings of rules declaring Fix
// name, in the order found.
func fixFiles(ds diag.Diagnostics) []string {
	var files []string
	for _, d := range ds {
		if r := lint.Lookup(d.Rule); r != nil && r.Fix && !slices.Contains(files, d.Range.File) {
			files = append(files, d.Range.File)
		}
	}
	return files
}

// fixDerived rewrites the derived files that the findings of rules
// declaring Fix name with what regen writes (the Session replayed the
// history for it), then lints again. A file holding what memsys did not
// write is kept, as regen keeps it (sealedAt.handEdits, reading the
// history at at).
func fixDerived(root string, l *lint.Linter, s *lint.Session, ds diag.Diagnostics, in lint.Input, at sealedAt, note func(string), show func(string) string) (diag.Diagnostics, error) {
	files := fixFiles(ds)
	if len(files) == 0 {
		return ds, nil
	}
	graph, context := s.Derived()
	content := map[string][]byte{parse.GraphFile: graph, parse.ContextFile: context}
	unlock, err := workspace.Lock(root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Every file is read, and judged, before any is written: a file
	// memsys cannot read (a folder in its place, no permission) may
	// hold what no replay produces, so lint --fix stops as regen does
	// (readDerived), with nothing written.
	var write []Derived
	// A file the tier does not use is one regen never writes (MS202
	// says to delete it or declare a tier that has it): rewriting it
	// quieted lint until the next append, unlike regen.
	tier := workspace.TierAt(root, l.Config().Tier)
	for _, f := range files {
		data, ok := content[f]
		if !ok {
			continue
		}
		if f == parse.GraphFile && !tier.HasGraph() || f == parse.ContextFile && !tier.HasContext() {
			note(fmt.Sprintf("lint --fix: kept %s: %s", show(f), lint.NotInTier(string(tier)).String()))
			continue
		}
		cur, found, err := readDerived(root, f)
		if err != nil {
			return nil, front.Errorf("%s: %w", inLintFix, err)
		}
		// A derived file that holds rows no replay produces (a graph
		// kept by hand, a sealed one edited by hand since) is kept:
		// memsys adopt records them first. A sealed file that is what
		// memsys wrote at its horizon is rewritten, though it holds
		// rows later events superseded.
		if found && !bytes.Equal(cur, data) {
			if rows := at.handEdits(f, cur, data); len(rows) > 0 {
				advice := "run memsys adopt first"
				if a, edge := lint.HandKeptAdvice(rows); edge {
					advice = a.String() // edge attributes adopt cannot record
				}
				note(fmt.Sprintf("lint --fix: kept %s: it holds %s no replay produces (%s): %s", show(f), words.Plural(len(rows), "item"), strings.Join(rows, ", "), advice))
				continue
			}
		}
		if found {
			data = inLineEndings(data, cur)
		} else {
			data = newFileEndings(root, f, data)
		}
		write = append(write, Derived{File: f, Data: data})
	}
	for _, f := range write {
		if err := workspace.WriteFile(root, f.File, f.Data); err != nil {
			return nil, front.Errorf("%s: %w", inLintFix, err)
		}
		note("lint --fix: rewrote " + show(f.File) + " as regen writes it")
	}
	again, _, _, _, err := lintOnce(l, memFiles{root: root}, in, false, nil)
	return again, err
}
