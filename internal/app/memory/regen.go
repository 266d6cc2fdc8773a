package memory

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// ErrNotEventID is the error for an event named on the command line
// (what is the flag or argument) that is not an event ID.
func ErrNotEventID(what front.Word, id string) error {
	return front.Errorf("%s %q is not an event ID: %s", what, words.Clip(id), parse.NotIDHint(id))
}

// ErrNoSuchEvent is the error for an event named on the command line
// that neither the log nor the archive holds.
func ErrNoSuchEvent(what front.Word, id string) error {
	return front.Errorf("%s %q: no such event in %s or the archive: %s lists the events", what, words.Clip(id), workspace.LogName, front.Log.Word())
}

// Replay replays root's history (archive, then log) as the parser reads
// it, without keeping the events, up to and including the first event
// with the number of the ID atID ("": all of it; IDs match by number, so
// evt-7 finds evt-007). Like LoadHistory it refuses a history cut short
// by an over-long line. The whole history goes through the history
// cache (cache.go) unless --no-cache or MEMSYS_NO_CACHE turned it off.
func Replay(root string, opt materialize.Options, atID string) (*workspace.Memory, *materialize.Replayer, error) {
	if atID == "" && workspace.CacheEnabled() {
		c := loadReplayCheckpoint(root, opt)
		mem, r, err := replayCached(root, opt, c, allFiles)
		if err != nil {
			return nil, nil, err
		}
		return mem, r.x, nil
	}
	return replayStream(root, opt, atID)
}

// replayStream is Replay without the history cache.
func replayStream(root string, opt materialize.Options, atID string) (*workspace.Memory, *materialize.Replayer, error) {
	return replayFrom(func(before func(*workspace.Memory), each func(*parse.Event), opts ...parse.Option) (*workspace.Memory, error) {
		return workspace.StreamWith(root, before, each, opts...)
	}, opt, atID)
}

// streamFunc streams a history: workspace.StreamWith over the working
// tree, or memFiles.stream, which reads the staged one for lint
// --staged.
type streamFunc func(before func(*workspace.Memory), each func(*parse.Event), opts ...parse.Option) (*workspace.Memory, error)

// replayFrom is replayStream of the history stream reads.
func replayFrom(stream streamFunc, opt materialize.Options, atID string) (*workspace.Memory, *materialize.Replayer, error) {
	at := -1
	if atID != "" {
		n, ok := parse.ArgNum(atID)
		if !ok {
			return nil, nil, ErrNotEventID(inAt.Name(), atID)
		}
		at = n
	}
	// The replay runs beside the parser, on its own goroutine. It is
	// told beforehand which events later ones supersede, predicted from
	// the bytes; if the events disagree, it replays again with the
	// Supersedes fields it saw (materialize.Replayer.Exact).
	var expect []parse.Supersession
	predicted := true
	for {
		a := materialize.NewAsync(opt)
		done := false
		var places atPlaces
		mem, err := stream(func(m *workspace.Memory) {
			if predicted {
				expect = m.Supersessions()
			}
			a.Expect(expect)
			a.Reserve(len(m.LogBytes) + len(m.ArchiveBytes))
		}, func(e *parse.Event) {
			if at >= 0 && e.Num == at {
				places.see(e.Range)
			}
			if done {
				return
			}
			a.Add(e)
			done = at >= 0 && e.Num == at
		}, parse.Reuse(a))
		x := a.Wait()
		if err != nil {
			return nil, nil, err
		}
		if err := readWhole(mem); err != nil {
			return nil, nil, err
		}
		if at >= 0 && !done {
			return nil, nil, ErrNoSuchEvent(inAt.Name(), atID)
		}
		if err := places.twice(atID); err != nil {
			return nil, nil, err
		}
		if x.Exact() || !predicted {
			return mem, x, nil
		}
		expect, predicted = x.Seen(), false
	}
}

// LoadHistory reads the log and archive of root and refuses a history
// cut short by an over-long line: acting on half the events would write
// wrong files.
func LoadHistory(root string) (*workspace.Memory, error) {
	mem, err := workspace.Load(root)
	if err != nil {
		return nil, err
	}
	if err := readWhole(mem); err != nil {
		return nil, err
	}
	return mem, nil
}

// readWhole refuses a history the parser could not read whole: cut short
// by an over-long line (Incomplete), or not read at all, saved as UTF-16
// (Unread). Commands that answer or write from the events call it; lint
// and status report both instead.
func readWhole(mem *workspace.Memory) error {
	if err := mem.Incomplete(); err != nil {
		return err
	}
	return mem.Unread()
}

// Derived is one file regen writes: its path relative to the root and
// its bytes.
type Derived struct {
	File string
	Data []byte
}

// Derive returns the derived files of tier, rendered from a replay
// exactly as lint's drift rules expect them.
func Derive(x *materialize.Replayer, tier parse.Tier) []Derived {
	return (&rendered{x: x}).derive(tier)
}

// RegenOptions are memsys regen's flags.
type RegenOptions struct {
	At     string // replay only up to this event ID ("": all)
	Stdout string // "graph" or "context": render that file only, write nothing
	Check  bool   // write nothing; report the files that are out of date
	// Force replaces a derived file memsys did not write even when it
	// holds what no replay produces (refuseHandKept).
	Force bool
}

// RegenResult is what Regenerate did.
type RegenResult struct {
	// Problems are the history's parse problems, archive first, as
	// the findings lint reports for them (each under its rule's ID):
	// regen still materializes (a malformed event is skipped the same
	// way every time), so they are warnings. Those lint would not
	// print are left out (lintedProblems): a finding the baseline file
	// accepts, which Accepted counts, or whose rule .memsys.json turns
	// off. On an adopted log regen is then as quiet as lint.
	Problems diag.Diagnostics
	Accepted int
	Output   []byte   // with Stdout: the rendered file
	Diff     string   // with Check: a unified diff per out-of-date file
	Wrote    []string // without Stdout or Check: the files written
	// Refused, with Check and a Diff, is why regen without --force
	// would refuse to write (a file kept by hand: run memsys adopt),
	// nil when it would write.
	Refused error
}

// Regenerate is memsys regen: it replays root's history and writes the
// derived files of the tier whose bytes change (under the lock), or,
// with o.Stdout or o.Check, renders or compares them without writing.
// On an error, Wrote still lists what was written before it.
func Regenerate(root string, o RegenOptions) (*RegenResult, error) {
	if o.Stdout == "" && !o.Check {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	if o.At, err = ResolveAt(root, o.At); err != nil {
		return nil, err
	}
	opt := lint.RenderOptions(cfg)
	var mem *workspace.Memory
	var x *rendered
	var c *checkpointed
	if o.At == "" && workspace.CacheEnabled() {
		// One pass over the log checks the checkpoint for both the
		// answer from the head and the resumed replay.
		c = loadReplayCheckpoint(root, opt)
		if o.Stdout == "" {
			if r, problems, ok := regenerateCurrent(root, cfg, c); ok {
				r.Problems, r.Accepted = lintedProblems(cfg, problems, func() ([]byte, error) { return readBaseline(root) }, supersededIn(func() (*workspace.Memory, error) { return LoadHistory(root) }))
				return r, nil
			}
		}
		tier := allFiles
		if o.Stdout == "" {
			tier = func(*workspace.Memory) parse.Tier { return workspace.TierAt(root, cfg.Tier) }
		}
		mem, x, err = replayCached(root, opt, c, tier)
	} else {
		var xr *materialize.Replayer
		mem, xr, err = replayStream(root, opt, o.At)
		x = &rendered{x: xr}
	}
	if err != nil {
		return nil, err
	}
	r := &RegenResult{}
	r.Problems, r.Accepted = lintedProblems(cfg, historyProblems(mem.Archive, mem.Log), func() ([]byte, error) { return readBaseline(root) }, supersededIn(func() (*workspace.Memory, error) { return mem, nil }))
	switch {
	case o.Stdout != "":
		r.Output = x.graphFile()
		if o.Stdout == "context" {
			r.Output = x.contextFile()
		}
	case o.Check:
		files := x.derive(workspace.TierAt(root, cfg.Tier))
		var cur map[string][]byte
		if r.Diff, cur, err = diffDerived(root, files); err == nil && r.Diff != "" {
			// The bytes the diff read: each file is read once.
			read := func(rel string) ([]byte, bool, error) { b, ok := cur[rel]; return b, ok, nil }
			r.Refused = handKept(files, read, sealedAt{root: root, opt: opt, digest: headDigest(c)})
		}
	default:
		r.Wrote, err = writeDerived(root, x.derive(workspace.TierAt(root, cfg.Tier)), o.Force, sealedAt{root: root, opt: opt, digest: headDigest(c)})
	}
	return r, err
}

// ErrHandKept is in the chain of the error regen returns when it
// refuses to replace a hand-kept derived file (refuseHandKept).
var ErrHandKept = errors.New("a derived file kept by hand holds what no replay produces")

// quiet wraps an error into another's chain without adding to its text.
type quiet struct{ err error }

func (quiet) Error() string   { return "" }
func (q quiet) Unwrap() error { return q.err }

// refuseHandKept refuses, before anything is written, to replace a
// derived file that holds what no replay of the log draws (nodes,
// edges, attributes, Active Constraints) and that memsys did not write
// as it is (sealedAt.handEdits): one without a seal (a graph or context
// kept by hand before the team adopted memsys), or a sealed one edited
// by hand since (an agent following older prose rules added a row).
// Agents boot with "memsys status || memsys regen", and regen would
// drop those in silence; memsys adopt records them as events first. A
// sealed file that is exactly what memsys wrote at its horizon is
// replaced: what it lacks against the replay is what later events
// superseded.
func refuseHandKept(f Derived, cur []byte, at sealedAt) error {
	items := at.handEdits(f.File, cur, f.Data)
	if len(items) == 0 {
		return nil
	}
	if at.logRewritten(cur) {
		h, _ := materialize.FindHorizon(cur)
		return front.Errorf("%s%w", logRewrittenAdvice(f.File, h), quiet{ErrHandKept})
	}
	if n := parse.ConflictLine(cur); n > 0 {
		return front.Errorf("%s:%d: git's conflict markers: %s%w", f.File, n, lint.ConflictedAdvice, quiet{ErrHandKept})
	}
	how := "was not written by memsys"
	if materialize.HasSeal(cur) {
		how = "was changed since memsys wrote it (edited by hand, or the log rewritten)"
	}
	if advice, edge := lint.HandKeptAdvice(items); edge {
		// Edge attributes adopt cannot record: lint's advice.
		return front.Errorf("%s holds %s no replay of the log produces (%s) and %s: %s%w",
			f.File, words.Plural(len(items), "item"), words.Clip(strings.Join(items, ", ")), how, advice, quiet{ErrHandKept})
	}
	return front.Errorf("%s holds %s no replay of the log produces (%s) and %s: run %s to record them as events, or %s to drop them%w",
		f.File, words.Plural(len(items), "item"), words.Clip(strings.Join(items, ", ")), how, front.Adopt.Word(), inRegenForce.Word(), quiet{ErrHandKept})
}

// handKept is why regen without --force would refuse to replace files
// (refuseHandKept), each read through read: nil when it would write
// them all. regen --check and the hook's regen --check --staged say so
// rather than "run memsys regen", which would refuse, while lint and
// status say "run memsys adopt" about the same file.
func handKept(files []Derived, read func(rel string) ([]byte, bool, error), at sealedAt) error {
	for _, f := range files {
		cur, found, err := read(f.File)
		if err != nil || !found || sameText(cur, f.Data) {
			continue // a file regen would write (or one it cannot read, which the diff has reported)
		}
		if err := refuseHandKept(f, cur, at); err != nil {
			return err
		}
	}
	return nil
}

// sameText reports whether the derived file's bytes cur say what want
// (LF, as regen renders it) says, line endings aside: a CRLF checkout
// (core.autocrlf on Windows) of a current file is current, as lint's
// drift rules, status and regen --check judge it, so regen leaves it
// alone instead of rewriting it at every run.
func sameText(cur, want []byte) bool {
	return bytes.Equal(cur, want) || bytes.Equal(asLF(cur), want)
}

// asLF returns the derived file's bytes cur with CRLF line endings made
// LF, the text sameText compares: cur itself when it has none.
func asLF(cur []byte) []byte {
	if !bytes.Contains(cur, []byte("\r\n")) {
		return cur
	}
	return bytes.ReplaceAll(cur, []byte("\r\n"), []byte("\n"))
}

// textSum returns the SHA-256 of the derived file rel as sameText reads
// it (CRLF made LF), to compare with the history cache's sums of the
// files as rendered (LF): a CRLF checkout of a current file matches, so
// regen --check and recall take the cache's shortcut there as in an LF
// checkout instead of decoding the whole entry. An LF file is hashed
// streamed (workspace.HashFile), not held; a CRLF one is read whole.
func textSum(root, rel string) ([32]byte, error) {
	if Newline(fileHead(root, rel)) != "\r\n" {
		return workspace.HashFile(root, rel)
	}
	cur, err := workspace.ReadFile(root, rel)
	if err != nil {
		return [32]byte{}, err
	}
	return sha256.Sum256(asLF(cur)), nil
}

// fileHead returns the first bytes of rel inside root, enough to hold
// the first line ending of a derived file (whose first line is a
// heading) for Newline, nil when it cannot be read. It is not a whole
// read: the file is read whole later, if at all.
func fileHead(root, rel string) []byte {
	f, err := workspace.Open(root, rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	b := make([]byte, min(f.Size(), 4096))
	n, _ := f.ReadAt(b, 0)
	return b[:n]
}

// inLineEndings returns the rendered file want (LF) with the line
// endings of cur, the file it replaces: CRLF when cur has CRLF (see
// Newline), else want itself. A checkout with core.autocrlf or
// `* text eol=crlf` has CRLF derived files; an LF file written over one
// made git warn "LF will be replaced by CRLF" at every add, and with
// core.safecrlf=true refuse to add it ("fatal: LF would be replaced by
// CRLF"), so the pre-commit hook's regen could not be committed. The
// text is the same either way, as sameText and lint judge it. A file
// over lone CRs is written LF (sameText would not take it as current,
// so every regen would write it again). A file regen creates has the
// line endings git would check it out with (newFileEndings).
func inLineEndings(want, cur []byte) []byte {
	if Newline(cur) != "\r\n" {
		return want
	}
	return withNewline(want, "\r\n")
}

// newFileEndings returns the rendered file want (LF) with the line
// endings git would check the derived file rel out with, for a file
// memsys creates (a first regen, or after graph.md or context.md was
// deleted): CRLF under core.autocrlf=true or a .gitattributes
// eol=crlf rule for it (gitx.WritesCRLF), where an LF file made git add
// fail under core.safecrlf=true ("fatal: LF would be replaced by
// CRLF"). The log's line endings do not tell: a log kept in CRLF in a
// repository without either setting still gets LF derived files, the
// same bytes as an LF log's. git runs only when a file is created.
func newFileEndings(root, rel string, want []byte) []byte {
	if !(&gitx.Git{Dir: root}).WritesCRLF(context.Background(), rel) {
		return want
	}
	return withNewline(want, "\r\n")
}

// readDerived reads the derived file rel before a writer replaces it:
// found is false when there is none (then it is written). Any other
// error is returned, and the writer stops before writing anything: a
// file memsys cannot read may hold rows kept by hand that
// refuseHandKept never saw, and what it is (a folder, a file without
// permission) WriteFile would either drop or fail on after other files
// were written. regen, append --regen, adopt, memsys_regen and
// lint --fix all decide through it.
func readDerived(root, rel string) (cur []byte, found bool, err error) {
	cur, err = workspace.ReadFile(root, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return cur, true, nil
}

// diffDerived compares files with the disk: a unified diff for each that
// differs (a missing file is empty), and the bytes of those found.
func diffDerived(root string, files []Derived) (string, map[string][]byte, error) {
	var b strings.Builder
	read := map[string][]byte{}
	for _, f := range files {
		cur, found, err := readDerived(root, f.File)
		if err != nil {
			return "", nil, err
		}
		if found {
			read[f.File] = cur
		}
		b.WriteString(udiff.Unified(f.File, f.File+" (regen)", cur, f.Data))
	}
	return b.String(), read, nil
}

// Regen rewrites the derived files of root's tier from its events, as
// memsys regen does (same tier), and returns the files it wrote, for
// append --regen. cfg is root's configuration (LoadConfig), which the
// caller has read already to refuse before it writes. Unless force, it
// refuses as regen does to replace a hand-kept file (refuseHandKept);
// adopt, which has listed what no event could carry, and renumber,
// which has rewritten the log already, force it. The caller holds the
// lock.
func Regen(root string, cfg config.Config, force bool) ([]string, error) {
	return regenFrom(root, cfg, force, nil, nil)
}

// regenFrom is Regen of held, the history already read (append
// --regen --supersedes), when it is not nil: the log is not read again.
// c is the history cache's checkpoint already checked against held,
// nil when there is none or it was not looked up.
func regenFrom(root string, cfg config.Config, force bool, held *workspace.Memory, c *checkpointed) ([]string, error) {
	var err error
	opt := lint.RenderOptions(cfg)
	tier := workspace.TierAt(root, cfg.Tier)
	x := &rendered{}
	switch {
	case workspace.CacheEnabled():
		if held != nil {
			if c == nil {
				c = &checkpointed{mem: held, held: true}
			}
		} else {
			c = loadReplayCheckpoint(root, opt)
		}
		_, x, err = replayCached(root, opt, c, func(*workspace.Memory) parse.Tier { return tier })
	case held != nil:
		_, x.x, err = replayFrom(func(before func(*workspace.Memory), each func(*parse.Event), opts ...parse.Option) (*workspace.Memory, error) {
			if before != nil {
				before(held)
			}
			return held, held.Stream(each, opts...)
		}, opt, "")
	default:
		_, x.x, err = replayStream(root, opt, "")
	}
	if err != nil {
		return nil, err
	}
	return writeDerived(root, x.derive(tier), force, sealedAt{root: root, opt: opt, digest: headDigest(c)})
}

// WriteDerived writes the files that differ from what is on disk and
// returns their names, never nil.
func WriteDerived(root string, files []Derived) ([]string, error) {
	return writeDerived(root, files, true, sealedAt{})
}

// writeDerived is WriteDerived that, unless force, first refuses to
// replace a hand-kept file (refuseHandKept, reading the history at
// at), before anything is written. Each file is read once, for both.
func writeDerived(root string, files []Derived, force bool, at sealedAt) ([]string, error) {
	differ := make([]bool, len(files))
	data := make([][]byte, len(files))
	for i, f := range files {
		cur, found, err := readDerived(root, f.File)
		if err != nil {
			return []string{}, err
		}
		if !found {
			differ[i], data[i] = true, newFileEndings(root, f.File, f.Data)
			continue
		}
		if differ[i] = !sameText(cur, f.Data); differ[i] && !force {
			if err := refuseHandKept(f, cur, at); err != nil {
				return []string{}, err
			}
		}
		data[i] = inLineEndings(f.Data, cur)
	}
	done := []string{}
	for i, f := range files {
		if !differ[i] {
			continue
		}
		if err := workspace.WriteFile(root, f.File, data[i]); err != nil {
			return done, err
		}
		done = append(done, f.File)
	}
	return done, nil
}
