package memory

import (
	"context"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// sealedAt tells handEdits what it needs of the history at a derived
// file's horizon: a digest known without reading anything more, and
// where to replay to it when none is.
type sealedAt struct {
	root string
	opt  materialize.Options
	// digest returns the seal's source digest of the events through the
	// event id when the caller has it at hand (the history cache's head,
	// the hash status takes as it streams); nil or false for none.
	digest func(id string) ([]byte, bool)
	// stream reads the history to replay to the horizon: nil for the
	// working tree at root, the staged files' for lint --staged, whose
	// derived files are the index's (memFiles.stream).
	stream streamFunc
}

// handEdits lists what the derived file rel (cur: on disk, or staged)
// holds that memsys did not write and that what regen writes now (want,
// which differs from cur) would drop: nil when regen may replace it.
//
// A file without a seal was kept by hand (lint.Curated against want).
// A sealed one was written by memsys, from the events through its
// horizon: when its seal still verifies against them, it is exactly what
// memsys wrote then, and what it holds that want lacks is what later
// events superseded, legitimately dropped. When it does not verify, it
// was edited since (or the options or the renderer changed): what it
// holds that neither the replay at its horizon nor the current one draws
// was added by hand. A file at the current horizon needs neither: the
// current replay is the one at its horizon. A sealed file whose horizon
// no event of the history has (the log was cut back or rewritten) cannot
// be checked and is replaced.
//
// The common stale file (behind the log after an append) costs a
// comparison with want, or a seal check when digest knows the horizon;
// a replay to the horizon happens only when rows would be lost and the
// seal is not known to verify.
func (s sealedAt) handEdits(rel string, cur, want []byte) []string {
	if !materialize.HasSeal(cur) {
		return lint.Curated(rel, cur, want)
	}
	h, line := materialize.FindHorizon(cur)
	now, _ := materialize.FindHorizon(want)
	if line == 0 || h == "" || parse.SameEvent(h, now) {
		// No horizon to replay to (a sealed file whose horizon line was
		// edited away, or an empty history's), or the current one.
		return lint.Curated(rel, cur, want)
	}
	if s.digest != nil {
		if d, ok := s.digest(h); ok && materialize.Sealed(cur, d) {
			return nil
		}
	}
	sealMisses++
	items := lint.Curated(rel, cur, want)
	if len(items) == 0 {
		return nil
	}
	var x *materialize.Replayer
	var err error
	if s.stream != nil {
		_, x, err = replayFrom(s.stream, s.opt, h)
	} else {
		_, x, err = replayStream(s.root, s.opt, h)
	}
	if err != nil {
		// The horizon names no event of the history: the log was cut
		// back (a checkout of an older one) or rewritten. The seal
		// cannot be checked, and the file is one memsys wrote: it is
		// replaced, as before seals were checked at the horizon.
		return nil
	}
	if materialize.Sealed(cur, x.SourceSum()) {
		return nil
	}
	then := x.GraphFile()
	if rel == parse.ContextFile {
		then = x.ContextFile()
	}
	return lint.CuratedAll(rel, cur, want, then)
}

// logRewritten reports whether the sealed derived file cur, which
// handEdits found holding what no replay of the log draws, is exactly
// what memsys wrote from the log as committed at HEAD: its seal, which
// does not verify against the events through its horizon as they are
// now, verifies against them as HEAD has them. Nothing in the file was
// then edited by hand: the events before its horizon were (or removed),
// since the commit, and adopt would record the edit's effect as new
// events. The seal hashes the events and the file's text together, so
// the file alone cannot tell the two apart; the committed log can, and
// only says yes when it proves it. Outside a git work tree, without a
// HEAD, or when the edit was committed too, it says no and the caller
// keeps its general wording.
func (s sealedAt) logRewritten(cur []byte) bool {
	h, line := materialize.FindHorizon(cur)
	num, ok := parse.EventNum(h)
	if line == 0 || !ok || !materialize.HasSeal(cur) {
		return false
	}
	ctx := context.Background()
	g, err := gitx.Open(ctx, s.root)
	if err != nil {
		return false
	}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return false
	}
	blobs, err := g.NewBlobs(ctx, prefix)
	if err != nil {
		return false
	}
	defer blobs.Close()
	mem := &workspace.Memory{Root: s.root}
	data, ok, err := blobs.Blob("HEAD", workspace.LogName)
	if err != nil || !ok {
		return false
	}
	mem.LogBytes = data
	for _, name := range parse.ArchiveFiles {
		if data, ok, err := blobs.Blob("HEAD", name); err == nil && ok {
			mem.ArchivePath, mem.ArchiveBytes = name, data
			break
		}
	}
	// The digest through the first event with the horizon's number, as
	// status and regen --at take it (horizonDigests.see).
	src := materialize.NewSourceHasher(s.opt)
	var sum []byte
	if err := mem.Stream(func(e *parse.Event) {
		if sum != nil {
			return
		}
		src.Add(e)
		if e.Num == num {
			sum = src.Sum()
		}
	}, parse.HeadersOnly()); err != nil || sum == nil {
		return false
	}
	return materialize.Sealed(cur, sum)
}

// inLintBaseHead is the lint that shows each committed event changed
// since HEAD (MS301): no tool compares with git history.
var inLintBaseHead = front.Command{CLI: "memsys lint --base HEAD"}

// logRewrittenAdvice is what to do about a derived file (file: its
// name, or "it" after it) that memsys wrote from the committed log when
// the log was changed before its horizon since (sealedAt.logRewritten):
// the fault is in the log, so the advice is to restore it, not to adopt
// what the edit changed.
func logRewrittenAdvice(file, horizon string) front.Text {
	return front.Sprintf("%s is what memsys wrote from the log as committed at HEAD, and events through its horizon %s have changed since (committed events are never edited): restore them (%s shows each change, MS301) and record corrections as new events, or run %s to derive it from the log as it is",
		file, horizon, inLintBaseHead.Word(), inRegenForce.Word())
}

// sealMisses counts the sealed files behind the log whose seal handEdits
// could not check without reading them against the replay, for the
// tests to see that the history cache's digests were used.
var sealMisses int

// headDigest is the sealedAt digest of the history cache's checkpoint
// c: the source digest through its last event, or through the last
// events of the heads it replaced (earlierOf); nil without one.
func headDigest(c *checkpointed) func(id string) ([]byte, bool) {
	if c == nil || c.head == nil {
		return nil
	}
	return func(id string) ([]byte, bool) {
		for _, e := range earlierOf(c) {
			if parse.SameEvent(id, e.ID) {
				return e.Sum, true
			}
		}
		return nil, false
	}
}
