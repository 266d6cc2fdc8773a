package converge

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// Git is what converge needs of a repository; *gitx.Git implements it.
type Git interface {
	MergeFile(ctx context.Context, ancestor, ours, theirs []byte, markerSize int, oursLabel, baseLabel, theirsLabel string) ([]byte, bool, error)
	Resolve(rev string) (string, error)
	MergeBase(ctx context.Context, a, b string) (string, error)
	ReadFile(commit, path string) ([]byte, bool, error)
	Prefix(ctx context.Context) (string, error)
	GitDir(ctx context.Context) (string, error)
	TopLevel(ctx context.Context) (string, error)
	Unmerged(ctx context.Context, path string) (bool, error)
	Refs(ctx context.Context, pattern string) ([]string, error)
	Config(ctx context.Context, key string) (string, bool, error)
	SetConfig(ctx context.Context, key, value string) error
	UnsetSection(ctx context.Context, section string) error
}

// Kind is what a path holds, for the merge driver.
type Kind int

// The kinds of file the driver knows.
const (
	Text    Kind = iota // anything else: merged as git would
	Log                 // CHANGELOG.md
	Archive             // changelog-archive.md
	Derived             // .memory/graph.md, .memory/context.md
)

// KindOf classifies a repository path (forward slashes).
func KindOf(p string) Kind {
	base := path.Base(p)
	switch {
	case base == parse.LogFile:
		return Log
	case isArchiveName(base):
		return Archive
	case path.Base(path.Dir(p)) == parse.MemoryDir && (base == parse.GraphName || base == parse.ContextName):
		return Derived
	}
	return Text
}

func isArchiveName(base string) bool {
	for _, n := range parse.ArchiveFiles {
		if base == n {
			return true
		}
	}
	return false
}

// DriverArgs are git's %O %A %B %P %L for one file.
type DriverArgs struct {
	Ancestor, Ours, Theirs string // temporary files; the result goes to Ours
	Path                   string // the file's path in the repository
	MarkerSize             int
	// Incoming is the commit a git merge brings in, from the
	// GITHEAD_<commit> variable git merge sets for its drivers; ""
	// in a rebase, cherry-pick, stash or am, which set none.
	Incoming string
}

// incomingFromEnv returns the commit of the one GITHEAD_<commit>
// variable in env, "" when there is none or several (an octopus runs
// no driver, so several is no merge this driver knows).
func incomingFromEnv(env []string) string {
	found := ""
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, "GITHEAD_") {
			continue
		}
		if found != "" {
			return ""
		}
		found = strings.TrimPrefix(name, "GITHEAD_")
	}
	return found
}

// DriverResult says what the driver did, for the command to print.
type DriverResult struct {
	Kind      Kind
	Merge     Result // for Log and Archive
	Conflicts []string
	Notes     []string // what the user should know (derived files kept from ours)
}

// The conflict marker labels of the driver's merges: HEAD's version
// (git's %A) and the version of the commit being merged, replayed or
// picked (%B).
const (
	oursLabel   = "HEAD"
	theirsLabel = "incoming"
)

// stashDir is where the log driver leaves each merged log for the
// derived files' driver, inside the git folder.
const stashDir = "memsys/merged"

// archivedSuffix names, after the log's path, the stash of the events
// the log's merge left out because the incoming side archived them
// (Result.Archived).
const archivedSuffix = "#archived"

// RunDriver is git's merge driver for memsys files. It reads the three
// versions, merges them by kind, and writes the result over
// args.Ours atomically. A log or archive merge leaves its result in
// the git folder, so the derived files' driver, which git runs after
// it for the same root (merge-ort handles paths in reverse order:
// changelog-archive.md, CHANGELOG.md, then .memory/), can render them
// from the merged history.
//
// git runs the driver at the top of the work tree, where RunDriver
// opens the repository.
func RunDriver(ctx context.Context, args DriverArgs) (DriverResult, error) {
	if args.Incoming == "" {
		args.Incoming = incomingFromEnv(os.Environ())
	}
	return runDriver(ctx, &gitx.Git{Dir: "."}, args)
}

// trunks are the revisions whose events a merge keeps numbered as
// they are: the branch HEAD tracks, the remote's default branch, and
// the usual names of the default branch, remote (a clone made with git
// remote add and git fetch has no origin/HEAD) and local.
var trunks = []string{"@{upstream}", "refs/remotes/origin/HEAD", "refs/remotes/origin/main", "refs/remotes/origin/master", "refs/heads/main", "refs/heads/master"}

// incomingIsTrunk reports whether a git merge brings in the tip of a
// trunk (trunks) other than HEAD: git merge origin/main on a feature
// branch, or git pull onto unpushed commits. The trunk's
// events are committed there under their IDs, so they keep them and
// HEAD's new events follow, as on the trunk merging the branch: the
// same log whichever way the two are merged, and lint --base
// origin/main finds no committed event renumbered.
func incomingIsTrunk(g Git, incoming string) bool {
	if incoming == "" {
		return false
	}
	head, err := g.Resolve("HEAD")
	if err != nil {
		return false
	}
	for _, t := range trunks {
		// The trunk's tip, not any commit on it: a branch the trunk
		// merged has its events there under the trunk's numbers.
		if c, err := g.Resolve(t); err == nil && c == incoming && c != head {
			return true
		}
	}
	return false
}

func runDriver(ctx context.Context, g Git, args DriverArgs) (DriverResult, error) {
	// The three files are named as git (or a user running the driver
	// by hand) gave them, relative to where it runs: an error names
	// the path to act on, not its base name.
	read := workspace.ReadInput
	anc, err := read(args.Ancestor)
	if err != nil {
		return DriverResult{}, err
	}
	ours, err := read(args.Ours)
	if err != nil {
		return DriverResult{}, err
	}
	theirs, err := read(args.Theirs)
	if err != nil {
		return DriverResult{}, err
	}
	// The sides are named by what they hold, the same in a merge, a
	// rebase and a cherry-pick: git hands the driver HEAD's version as
	// ours and the commit being merged, replayed or picked as theirs
	// (git 2.39 passes no labels, and no state file tells a single
	// cherry-pick from a merge while the driver runs).
	text := func(a, o, t []byte) ([]byte, bool, error) {
		return g.MergeFile(ctx, a, o, t, args.MarkerSize, oursLabel, "base", theirsLabel)
	}
	res := DriverResult{Kind: KindOf(args.Path)}
	var out []byte
	switch res.Kind {
	case Log, Archive:
		in := Input{Path: args.Path, Archive: res.Kind == Archive, Ancestor: anc, Ours: ours, Theirs: theirs, Text: text, MarkerSize: args.MarkerSize,
			OursLabel: oursLabel, TheirsLabel: theirsLabel, OursName: "HEAD", TheirsName: "the incoming commit", AncestorOffOurs: true}
		r, err := Merge(in)
		if err != nil {
			return res, err
		}
		// What the incoming side archived that HEAD still had, which
		// the derived files' driver adds to HEAD's archive: HEAD's view,
		// whichever way the log is laid out.
		archived := r.Archived
		if renumbers(r) && incomingIsTrunk(g, args.Incoming) {
			// The trunk's events keep their IDs; HEAD's follow. Only a
			// clean merge is turned round: conflict markers keep
			// HEAD's side first, as git writes them.
			in.Ours, in.Theirs = theirs, ours
			in.AncestorOffOurs = false
			if t, err := Merge(in); err == nil && len(t.Conflicts) == 0 && !t.TextOnly {
				r = t
				res.Notes = append(res.Notes, args.Path+": merging the tip of "+trunkName(g, args.Incoming)+": its events keep their IDs and HEAD's new events follow them, renumbered")
			}
		}
		res.Merge, out = r, r.Data
		for _, c := range r.Conflicts {
			res.Conflicts = append(res.Conflicts, c.String(args.Path))
		}
		if len(r.Conflicts) == 0 {
			if err := stash(ctx, g, args.Path, ours, out); err != nil {
				return res, err
			}
			if res.Kind == Log {
				// Always written, empty too, so one left by an earlier
				// merge onto the same HEAD is never read for this one.
				if err := stash(ctx, g, args.Path+archivedSuffix, ours, bytes.Join(archived, nil)); err != nil {
					return res, err
				}
			}
		}
	case Derived:
		out, res.Notes, err = regenDerived(ctx, g, args.Path)
		if err != nil {
			return res, err
		}
	default:
		merged, conflict, err := textMerge(text, anc, ours, theirs)
		if err != nil {
			return res, err
		}
		out = merged
		if conflict {
			res.Conflicts = append(res.Conflicts, args.Path+": conflicting changes: resolve the conflict markers")
		}
	}
	abs, err := filepath.Abs(args.Ours)
	if err != nil {
		return res, err
	}
	if err := workspace.WriteFile(filepath.Dir(abs), filepath.Base(abs), out); err != nil {
		// WriteFile names the file by its base name, git's temporary
		// .merge_file_XXXXXX, which tells the user nothing: the memory
		// file being merged and the path git gave are named first.
		return res, fmt.Errorf("%s: cannot write the merged result to %s, git's file for it: %w", args.Path, args.Ours, err)
	}
	return res, nil
}

// renumbers reports whether a clean merge gave an event of theirs
// another ID.
func renumbers(r Result) bool {
	if len(r.Conflicts) > 0 || r.TextOnly {
		return false
	}
	for _, m := range r.Renumbered {
		if m.From != m.To {
			return true
		}
	}
	return false
}

// trunkName names the trunk whose tip incoming is, for the note.
func trunkName(g Git, incoming string) string {
	for _, t := range trunks {
		if c, err := g.Resolve(t); err == nil && c == incoming {
			if t == "@{upstream}" {
				return "the branch's upstream"
			}
			return strings.TrimPrefix(strings.TrimPrefix(t, "refs/heads/"), "refs/remotes/")
		}
	}
	return "the trunk"
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func stashName(repoPath string) string {
	return stashDir + "/" + hash([]byte(repoPath))[:16]
}

// stash records the merged file under the hash of ours' version, so a
// reader can tell it belongs to the merge onto the current HEAD.
func stash(ctx context.Context, g Git, repoPath string, ours, merged []byte) error {
	dir, err := g.GitDir(ctx)
	if err != nil {
		return err
	}
	data := append([]byte(hash(ours)+"\n"), merged...)
	return workspace.WriteFile(dir, stashName(repoPath), data)
}

// unstash returns the merged version of repoPath from the merge onto
// HEAD, ok false when there is none. ours is HEAD's version.
func unstash(ctx context.Context, g Git, repoPath string, ours []byte) ([]byte, bool) {
	dir, err := g.GitDir(ctx)
	if err != nil {
		return nil, false
	}
	data, err := workspace.ReadFile(dir, stashName(repoPath))
	if err != nil {
		return nil, false
	}
	sum, merged, ok := bytes.Cut(data, []byte("\n"))
	if !ok || string(sum) != hash(ours) {
		return nil, false
	}
	return merged, true
}

// regenDerived renders the derived file at repoPath from its root's
// merged log and archive: the versions the log driver stashed for this
// merge, or HEAD's where git had nothing to merge. A derived file never
// conflicts: it is a function of the log.
func regenDerived(ctx context.Context, g Git, repoPath string) ([]byte, []string, error) {
	root := path.Dir(path.Dir(repoPath)) // <root>/.memory/graph.md
	if root == "." {
		root = ""
	} else {
		root += "/"
	}
	head, err := g.Resolve("HEAD")
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	merged := map[string]bool{} // the files read from this merge's stash
	version := func(name string) ([]byte, error) {
		ours, ok, err := g.ReadFile(head, root+name)
		if err != nil || !ok {
			return nil, err
		}
		if m, ok := unstash(ctx, g, root+name, ours); ok {
			merged[name] = true
			return m, nil
		}
		if name == parse.LogFile {
			notes = append(notes, repoPath+": no merged "+root+name+" from this merge (git had none to merge, or its merge stopped on a conflict): rendered from HEAD's log; run memsys regen once the merge is finished")
		}
		return ours, nil
	}
	log, err := version(parse.LogFile)
	if err != nil {
		return nil, nil, err
	}
	if log == nil {
		return nil, nil, fmt.Errorf("%s: no %s beside it at HEAD: cannot regenerate it", repoPath, root+parse.LogFile)
	}
	var archive []byte
	archiveName := ""
	for _, n := range parse.ArchiveFiles {
		if archive, err = version(n); err != nil {
			return nil, nil, err
		}
		if archive != nil {
			archiveName = n
			break
		}
	}
	// Events the incoming side archived left the merged log; when git
	// merged no archive (HEAD left its own alone, so git takes the
	// incoming one as it is), HEAD's archive lacks them: they follow
	// its events, where the incoming archive has them. The stash is
	// read with the log's, from the same run of the log's driver.
	if merged[parse.LogFile] && !merged[archiveName] {
		if oursLog, ok, err := g.ReadFile(head, root+parse.LogFile); err == nil && ok {
			if moved, ok := unstash(ctx, g, root+parse.LogFile+archivedSuffix, oursLog); ok && len(moved) > 0 {
				if archiveName == "" {
					archiveName = parse.ArchiveFiles[0]
				}
				archive = append(append(slices.Clip(archive), "\n"...), moved...)
			}
		}
	}
	top, err := g.TopLevel(ctx)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := memory.LoadConfig(filepath.Join(top, filepath.FromSlash(strings.TrimSuffix(root, "/"))))
	if err != nil {
		return nil, nil, err
	}
	graph, context := Render(parse.LogFile, log, archiveName, archive, lint.RenderOptions(cfg))
	if path.Base(repoPath) == parse.GraphName {
		return graph, notes, nil
	}
	return context, notes, nil
}
