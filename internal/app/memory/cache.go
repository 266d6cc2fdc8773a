package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// The history cache for replays (regen, regen --check, append --regen).
//
// After a replay of the whole history, memsys stores a checkpoint: the
// replay state (materialize.Replayer.MarshalBinary: graph and context
// digest), the parser's findings so far, and the length and SHA-256 of
// the log's bytes up to the end of its last event. The entry's name is
// a hash of everything else the result depends on: the memsys build,
// the memory root, the render options and the archive's bytes. The
// next replay verifies the log's prefix against the hash and parses
// only the bytes after it; any mismatch (an edit anywhere, a rewrite,
// a new archive) is a cold run. So the cache changes the cost, never
// the result (TestReplayCachedEqualsCold, FuzzReplayCache).
//
// A checkpoint comes in two entries so that the cost of keeping it
// follows the change: the heavy one holds the replay state (megabytes
// at 100k events), the head (a few hundred bytes plus the parser's
// findings) holds everything else about the latest replay: its prefix
// (length, SHA-256 and the hash's state), the counts, the sums of the
// files it renders, and which heavy checkpoint it extends. A replay
// that resumed over a few new events writes only a new head; the heavy
// entry is rewritten once the log has grown past it by more than
// heavyBound. An unchanged log is answered from the head alone
// (regenerateCurrent, status); a grown one resumes from the heavy
// state and replays the bytes after it, the head's events included.

// checkpointVersion changes whenever replayCheckpoint does.
const checkpointVersion = 10

// replayCheckpoint is one cache entry: a head, or a heavy checkpoint
// (Replayer set).
type replayCheckpoint struct {
	Version     int
	PrefixLen   int                  // log bytes covered: up to the end of the last event
	PrefixLines int                  // line feeds in them (normalised), = that event's last line
	PrefixSum   [32]byte             // SHA-256 of those bytes
	Prefix      workspace.PrefixHash // the same hash as its state, to extend over appended bytes
	Events      int                  // events replayed (archive and log)
	// LogEvents and ArchiveEvents count the events status reports: the
	// log's in its Event Log, all of the archive's. Last is the last
	// event replayed, headers, Scope and Summary.
	LogEvents, ArchiveEvents int
	Last                     *parse.Event
	// LogOrder is the order of the log's event IDs up to the prefix's
	// end, which status continues over the events after it: archive
	// refuses a log out of order, and status says so without reading
	// the log again (parse.Order, orderErr).
	LogOrder parse.Order
	// Counts is what memsys report counts of the events up to the
	// prefix's end (historyCounts), nil when the replay did not count
	// them.
	Counts *historyCounts
	// Edges are the Supersedes fields of the events up to the prefix's
	// end (archive, then log), in history order, as the parsed events
	// carry them (materialize.Replayer.Seen of an exact replay): with
	// those of the events after the prefix, the whole history's, which
	// append --supersedes checks a new correction against
	// (cachedEdges) without parsing the history. A resumed replay
	// carries them over: it resumes only past events without one.
	Edges []parse.Supersession
	// GraphSum and ContextSum are the SHA-256 of graph.md and context.md
	// as rendered from this state: when no event came since and the
	// files on disk hash the same, regen has nothing to do
	// (regenerateCurrent) and need not decode the state at all.
	GraphSum, ContextSum [32]byte
	// HasGraph and HasContext tell which sums are set: a replay sums
	// only the files its tier writes, to render no other.
	HasGraph, HasContext bool
	// Source is the state of the digest of the events (the seal's
	// source, materialize.SourceHasher) after them, for status.
	Source []byte
	// Earlier holds the digests of the heads this one replaced, at
	// their last events (earlierOf): regen and append --regen leave a
	// head at the horizon of the files they write, and a later replay
	// (status's, regen --check's) moves the head past it; with these,
	// regen and status still check such a file's seal without a replay
	// to its horizon (sealedAt).
	Earlier []earlierSum
	Log     parse.Log
	Archive *parse.Log
	// Heavy is the prefix of the heavy checkpoint a head extends (its
	// own, in a heavy one): the head's events after it are replayed
	// from there.
	Heavy workspace.Mark
	// Replayer is the replay state, in the heavy checkpoint only, where
	// it follows the encoding of the rest (loadHeavy).
	Replayer []byte
}

// earlierSum is the seal's source digest through the event ID.
type earlierSum struct {
	ID  string
	Sum []byte
}

// maxEarlier bounds Earlier: the derived files on disk are rarely more
// than a few replays behind.
const maxEarlier = 8

// earlierOf is the Earlier of a head that replaces c's: c's own digest
// at its last event first, then c's Earlier, the oldest dropped past
// maxEarlier. A digest of a history since rewritten stays true of what
// memsys wrote then, which is all a seal check asks.
func earlierOf(c *checkpointed) []earlierSum {
	if c == nil || c.head == nil {
		return nil
	}
	cp := c.head
	out := make([]earlierSum, 0, maxEarlier)
	if cp.Last != nil {
		if src, err := materialize.UnmarshalSourceHasher(cp.Source); err == nil {
			out = append(out, earlierSum{cp.Last.ID, src.Sum()})
		}
	}
	for _, e := range cp.Earlier {
		if len(out) == maxEarlier {
			break
		}
		if len(out) == 0 || !parse.SameEvent(e.ID, out[0].ID) {
			out = append(out, e)
		}
	}
	return out
}

// headSuffix names the head entry beside its heavy checkpoint.
const headSuffix = ".head"

// heavyBound is how far the log may grow past the heavy checkpoint
// before a replay rewrites it rather than only the head: at least a
// megabyte, or 5% of the prefix it covers. So an append followed by a
// check costs a decode of the state, a replay of at most that many
// bytes and a small write, and rewriting the state (about a third of
// a cold replay) happens once every few thousand events on a long log.
func heavyBound(prefix int) int { return max(1<<20, prefix/20) }

// resumes counts replays resumed from a checkpoint, for the tests to
// see that the cache was used; pastHead those resumed from a heavy
// checkpoint its head had moved past; heavyWrites counts heavy
// checkpoints written.
var resumes, pastHead, heavyWrites int

// tailPre stands for the log before a resumed suffix: the suffix
// starts after an event of the Event Log (see resumable).
const tailPre = "## Event Log\n\n"

// cacheName names the cache entry of a replay of root with opt over the
// archive of mem.
func cacheName(root string, opt materialize.Options, mem *workspace.Memory) string {
	h := sha256.New()
	for _, s := range []string{strconv.Itoa(checkpointVersion), workspace.BuildID(), root,
		materialize.OptionsKey(opt), mem.ArchivePath} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(mem.ArchiveBytes)
	return "replay-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// checkpointed is a head checkpoint found to match the log.
type checkpointed struct {
	mem  *workspace.Memory // the archive read; the log not
	head *replayCheckpoint
	name string // of the heavy entry
	// rest is the log after the heavy checkpoint's prefix; at holds the
	// prefix hashes at the heavy checkpoint and at the head.
	rest []byte
	at   []workspace.PrefixHash
	// held is true when mem holds the log's bytes too (ReplayRead): a
	// cold replay then parses them rather than read the log again. A
	// held checkpointed without a head is no checkpoint, only that.
	held bool
	// fed, when it kept a replay, is the cold replay of those bytes
	// already made (memsys report's cold lint): taken instead of
	// replaying them again.
	fed *replayFeed
	// cold is set for a head that was not checked against the log
	// because the replay could not resume from it (loadReplayCheckpoint):
	// rest and at are empty, and only the head's digests serve.
	cold bool
}

// suffix is the log after the head's prefix.
func (c *checkpointed) suffix() []byte { return c.rest[c.head.PrefixLen-int(c.head.Heavy.Len):] }

// rendered holds the files of a replay, each rendered once and only
// when needed, so that the cache's sums and regen's output come from
// one render, and a tier that writes one file renders only that one.
type rendered struct {
	x          *materialize.Replayer
	graph, ctx []byte // nil until rendered
	// counts is what memsys report counts of the history replayed,
	// nil when the replay could not count it (historyCounts).
	counts *historyCounts
}

// files renders both files.
func (r *rendered) files() (graph, context []byte) {
	if r.graph == nil && r.ctx == nil {
		r.graph, r.ctx = r.x.Files()
	}
	return r.graphFile(), r.contextFile()
}

func (r *rendered) graphFile() []byte {
	if r.graph == nil {
		r.graph = r.x.GraphFile()
	}
	return r.graph
}

func (r *rendered) contextFile() []byte {
	if r.ctx == nil {
		r.ctx = r.x.ContextFile()
	}
	return r.ctx
}

// derive is Derive from the rendered files.
func (r *rendered) derive(tier parse.Tier) []Derived {
	switch tier {
	case parse.Full:
		g, c := r.files()
		return []Derived{{parse.GraphFile, g}, {parse.ContextFile, c}}
	case parse.Core:
		return []Derived{{parse.ContextFile, r.contextFile()}}
	}
	return nil
}

// tierFunc tells replayCached which files its caller will use, once it
// has read the memory: the cache sums those and renders no other.
type tierFunc func(*workspace.Memory) parse.Tier

// allFiles is the tierFunc of a caller that uses both files.
func allFiles(*workspace.Memory) parse.Tier { return parse.Full }

// replayCached is Replay of the whole history through the cache. c is
// the checkpoint loadCheckpoint found, nil for none.
//
// A Supersedes field can undo an earlier event's effects, so a replay
// state saved after a prefix can be resumed only by a suffix without
// one (materialize.Replayer.MarshalBinary): a suffix with a Supersedes
// field is a cold run, which checkpoints the whole history again.
func replayCached(root string, opt materialize.Options, c *checkpointed, tier tierFunc) (*workspace.Memory, *rendered, error) {
	if c != nil && c.head != nil && !c.cold && resumesOver(c.rest) && resumable(c.rest) {
		if heavy := loadHeavy(root, c); heavy != nil {
			defer holdGC(len(c.rest))()
			if x, last, n, ok, err := resume(c.mem, heavy, c.rest); err != nil {
				return nil, nil, err
			} else if ok && x.Exact() && len(x.Seen()) == 0 {
				r := &rendered{x: x, counts: last.counts.view()}
				if c.head.Heavy.Len < int64(c.head.PrefixLen) {
					pastHead++
				}
				// A new head when events came, or when the tier now
				// uses a file whose sum the head lacks.
				t := tier(c.mem)
				if last.EndOffset > c.head.PrefixLen || t == parse.Full && !c.head.HasGraph || t != parse.MVP && !c.head.HasContext {
					saveResumed(root, c, r, t, last, n)
				}
				return c.mem, r, nil
			}
		}
	}
	if c != nil && c.held {
		if c.fed != nil && c.fed.x != nil {
			return c.mem, c.fed.use(root, opt, tier(c.fed.mem), earlierOf(c)), nil
		}
		return replayRead(root, opt, c.mem, tier, earlierOf(c))
	}
	mem, err := workspace.Read(root)
	if err != nil {
		return nil, nil, err
	}
	return replayRead(root, opt, mem, tier, earlierOf(c))
}

// ReplayRead is Replay of the whole history of a memory already read
// (workspace.Read), through the history cache: the checkpoint is
// checked against the bytes mem holds and a cold replay parses them,
// so a command that reads the log for itself (recall) does not read it
// twice.
func ReplayRead(root string, opt materialize.Options, mem *workspace.Memory) (*materialize.Replayer, error) {
	c, ok := loadCheckpointFrom(root, opt, mem)
	if !ok {
		c = &checkpointed{mem: mem, held: true}
	}
	_, r, err := replayCached(root, opt, c, allFiles)
	if err != nil {
		return nil, err
	}
	return r.x, nil
}

// replayRead is the cold path of replayCached over a memory already read
// (workspace.Read, or the stream status made): it parses the bytes mem
// holds, so the log is not read again, and saves a checkpoint, with
// the digests earlier (earlierOf the checkpoint it could not resume).
func replayRead(root string, opt materialize.Options, mem *workspace.Memory, tier tierFunc, earlier []earlierSum) (*workspace.Memory, *rendered, error) {
	name := cacheName(root, opt, mem)
	a := materialize.NewAsync(opt)
	predicted := mem.Supersessions()
	a.Expect(predicted)
	last := lastEvent{counts: &historyTally{}}
	if len(predicted) > 0 {
		// The superseded events, for memsys report: right when the
		// replay is Exact, the only case counts are used in.
		last.counts.track = materialize.NewSupersedeTracker(predicted)
	}
	n := 0
	// last keeps only the last event, which parse.Reuse leaves alone.
	err := mem.Stream(func(e *parse.Event) {
		n++
		a.Add(e)
		last.counts.add(e)
		last.ev = e
		if e.Range.File == workspace.LogName {
			if e.InLog {
				last.set(e)
				last.logN++
				last.order.Add(e)
			}
		} else {
			last.archN++
		}
	}, parse.Reuse(a))
	x := a.Wait()
	if err != nil {
		return nil, nil, err
	}
	if err := readWhole(mem); err != nil {
		return nil, nil, err
	}
	if !x.Exact() {
		// The bytes hid a Supersedes field the events have, or
		// showed one they do not: replay the same bytes again with
		// the fields the events have (not the files on disk, which
		// for regen --check --staged are not what was read).
		a := materialize.NewAsync(opt)
		a.Expect(x.Seen())
		err := mem.Stream(func(e *parse.Event) { a.Add(e) }, parse.Reuse(a))
		x = a.Wait()
		if err != nil {
			return nil, nil, err
		}
		return mem, &rendered{x: x}, nil
	}
	r := &rendered{x: x, counts: last.counts.view()}
	last.edges = x.Seen() // every event's, the replay being exact
	if saveable(mem, last) {
		if p, err := workspace.HashPrefix(mem.LogBytes[:last.EndOffset]); err == nil {
			save(root, name, mem, r, tier(mem), last, n, p, nil, earlier)
		}
	}
	return mem, r, nil
}

// loadCheckpoint finds the head checkpoint of a replay of root with opt
// and checks the log against it and its heavy checkpoint's prefix; ok
// means the log starts with the bytes the head covers and what follows
// them parses alone (resumable). It reads the archive (the entry's name
// hashes it), streams the log's prefix through the hash, and holds only
// the bytes after the heavy checkpoint. Any error means no checkpoint:
// the cold path then reports it as an uncached run would.
func loadCheckpoint(root string, opt materialize.Options) (*checkpointed, bool) {
	return loadCheckpointFrom(root, opt, nil)
}

// loadReplayCheckpoint is loadCheckpoint for a replay (replayCached),
// which resumes only over bytes without a Supersedes field (resumesOver):
// when the bytes after the checkpoint hold one, the log's prefix is not
// hashed, since the cold replay that follows reads the whole log
// anyway, and the checkpoint comes back unverified (cold set) with its
// head, whose digests the new head keeps (earlierOf).
func loadReplayCheckpoint(root string, opt materialize.Options) *checkpointed {
	if !workspace.CacheEnabled() {
		return nil
	}
	mem, err := workspace.ReadArchive(root)
	if err != nil {
		return nil
	}
	c, _ := checkCheckpoint(root, opt, mem, func(want func([]byte) bool, marks ...workspace.Mark) ([]byte, []workspace.PrefixHash, bool, error) {
		return workspace.ReadAfterMarksIf(root, workspace.LogName, want, marks...)
	}, resumesOver, false)
	return c
}

// resumesOver reports whether a replay checkpoint may resume over rest,
// the log after it: a Supersedes field there names an event the
// checkpoint replayed as live, and must be known before it (Expect).
func resumesOver(rest []byte) bool { return len(parse.ScanSupersedes(workspace.LogName, rest)) == 0 }

// loadCheckpointFrom is loadCheckpoint checking held, a memory already
// read (workspace.Read), instead of reading the archive and the log.
func loadCheckpointFrom(root string, opt materialize.Options, held *workspace.Memory) (*checkpointed, bool) {
	if !workspace.CacheEnabled() {
		return nil, false
	}
	mem := held
	if mem == nil {
		var err error
		if mem, err = workspace.ReadArchive(root); err != nil {
			return nil, false
		}
	}
	after := func(_ func([]byte) bool, marks ...workspace.Mark) ([]byte, []workspace.PrefixHash, bool, error) {
		if held != nil {
			return workspace.AfterMarks(held.LogBytes, marks...)
		}
		return workspace.ReadAfterMarks(root, workspace.LogName, marks...)
	}
	return checkCheckpoint(root, opt, mem, after, nil, held != nil)
}

// checkCheckpoint finds the head checkpoint of a replay of root with
// opt over mem's archive and checks the log against it through after
// (workspace.ReadAfterMarksIf or one of its forms), handing it want;
// held is checkpointed.held. When want refuses the bytes after the
// checkpoint, the head comes back unverified (cold), with ok false.
func checkCheckpoint(root string, opt materialize.Options, mem *workspace.Memory, after func(want func([]byte) bool, marks ...workspace.Mark) ([]byte, []workspace.PrefixHash, bool, error), want func([]byte) bool, held bool) (*checkpointed, bool) {
	name := cacheName(root, opt, mem)
	data, ok := workspace.CacheGet(root, name+headSuffix)
	if !ok {
		return nil, false
	}
	cp := &replayCheckpoint{}
	if snapshot.Decode(data, cp) != nil || cp.Version != checkpointVersion ||
		cp.Heavy.Len < 0 || cp.Heavy.Len > int64(cp.PrefixLen) || cp.Prefix.Len != int64(cp.PrefixLen) {
		return nil, false
	}
	refused := false
	var wantRest func([]byte) bool
	if want != nil {
		wantRest = func(rest []byte) bool {
			refused = !want(rest)
			return !refused
		}
	}
	rest, at, ok, err := after(wantRest, cp.Heavy, workspace.Mark{Len: int64(cp.PrefixLen), Sum: cp.PrefixSum})
	if err == nil && refused {
		return &checkpointed{mem: mem, head: cp, name: name, held: held, cold: true}, false
	}
	if err != nil || !ok {
		return nil, false
	}
	c := &checkpointed{mem: mem, head: cp, name: name, rest: rest, at: at, held: held}
	if !resumable(c.suffix()) {
		return nil, false
	}
	return c, true
}

// loadHeavy returns the heavy checkpoint c's head extends, nil if it is
// missing, damaged or another one (a concurrent run replaced it).
func loadHeavy(root string, c *checkpointed) *replayCheckpoint {
	data, ok := workspace.CacheView(root, c.name)
	if !ok {
		return nil
	}
	// The entry is the checkpoint without its state, then the state
	// (see save): decoded once, in place, not copied out first.
	k, n := binary.Uvarint(data)
	if n <= 0 || k > uint64(len(data)-n) {
		return nil
	}
	cp := &replayCheckpoint{}
	if snapshot.Decode(data[n:n+int(k)], cp) != nil || cp.Version != checkpointVersion {
		return nil
	}
	cp.Replayer = data[n+int(k):]
	if len(cp.Replayer) == 0 ||
		int64(cp.PrefixLen) != c.head.Heavy.Len || cp.PrefixSum != c.head.Heavy.Sum {
		return nil
	}
	return cp
}

// lastEvent is what a checkpoint needs of the log's last event.
type lastEvent struct {
	Offset, EndOffset, EndLine int
	// clean is set for a checkpoint resumed; for an event set, text
	// holds its text and isClean decides when asked: lint, regen and
	// status see every event of the log pass through set, and deciding
	// for each (a copy of its text and a parse of its blocks) was a
	// tenth of what a first lint allocates at 1k events.
	clean bool
	text  string
	// ev is the last event of the history (archive or log); logN and
	// archN count the events status reports.
	ev          *parse.Event
	logN, archN int
	order       parse.Order // the log's event IDs in file order, for status
	// counts is memsys report's count of the events so far, nil when
	// not counted.
	counts *historyTally
	// edges are the Supersedes fields of the history so far
	// (replayCheckpoint.Edges).
	edges []parse.Supersession
}

// set records e as the log's last event in its Event Log.
func (l *lastEvent) set(e *parse.Event) {
	l.clean, l.text = false, e.Text
	l.Offset, l.EndOffset, l.EndLine = e.Range.Offset, e.Range.EndOffset, e.Range.EndLine
}

// isClean reports whether a checkpoint may follow the last event: its
// text ends its last line and holds no block that could stay open, so
// bytes appended after it cannot change how it parses (parse.CutsAt).
// The text is the parser's view of the log's bytes, which the memory
// keeps, so it is still there when the stream has moved on.
func (l *lastEvent) isClean() bool {
	return l.clean || len(l.text) > 0 && l.text[len(l.text)-1] == '\n' && parse.CutsAt([]byte(l.text))
}

// saveable reports whether a replay that saw every event may leave a
// checkpoint after its last event: clean, and no problem that may
// depend on what follows (an unclosed block, a line too long to read
// on).
func saveable(mem *workspace.Memory, last lastEvent) bool {
	if !workspace.CacheEnabled() || !last.isClean() || mem.Log == nil || mem.Incomplete() != nil {
		return false
	}
	return resumableProblems(mem.Log, mem.Archive, last.EndOffset)
}

// resumableProblems reports whether the parse problems of log (up to
// end, the end of its last event) and archive let a later run resume
// after end: none that a resumed parse of the bytes after end would
// report differently. An unclosed block or a line too long to read on
// depends on what follows; a problem at or after end is the suffix's;
// and the parser reports only the first encoding error of a file, so
// after one in the prefix a resumed parse would report a second one
// (FuzzLintCache found it). The replay cache and lint's checkpoint
// share this verdict.
func resumableProblems(log, archive *parse.Log, end int) bool {
	for _, l := range []*parse.Log{log, archive} {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if p.Kind == parse.KindUnclosed || p.Kind == parse.KindLineLength ||
				l == log && (p.Range.Offset >= end || p.Kind == parse.KindEncoding) {
				return false
			}
		}
	}
	return true
}

// saveResumed stores the checkpoint of a replay resumed from c that
// replayed new events: a new head, whose prefix hash continues the old
// head's over the new bytes, and the heavy state only if the log has
// grown past the heavy checkpoint by more than heavyBound.
func saveResumed(root string, c *checkpointed, r *rendered, tier parse.Tier, last lastEvent, n int) {
	if !saveable(c.mem, last) {
		return
	}
	heavy := c.head.Heavy
	p, err := c.at[len(c.at)-1].Extend(c.rest[c.head.PrefixLen-int(heavy.Len) : last.EndOffset-int(heavy.Len)])
	if err != nil {
		return
	}
	keep := &heavy
	if int64(last.EndOffset)-heavy.Len > int64(heavyBound(int(heavy.Len))) {
		keep = nil
	}
	save(root, c.name, c.mem, r, tier, last, n, p, keep, earlierOf(c))
}

// save stores the checkpoint of a replay that saw every event and may
// leave one (saveable), whose log prefix up to its last event hashes to
// prefix, with the sums of the files of tier. keep is the heavy
// checkpoint the head is to extend, nil to write the replay state as a
// new one. earlier is the head's Earlier.
func save(root, name string, mem *workspace.Memory, r *rendered, tier parse.Tier, last lastEvent, n int, prefix workspace.PrefixHash, keep *workspace.Mark, earlier []earlierSum) {
	sum, err := prefix.Sum()
	if err != nil || sum.Len != int64(last.EndOffset) {
		return
	}
	source, err := r.x.SourceState()
	if err != nil {
		return
	}
	cp := replayCheckpoint{
		Version: checkpointVersion, PrefixLen: last.EndOffset, PrefixLines: last.EndLine,
		PrefixSum: sum.Sum, Prefix: prefix, Events: n,
		LogEvents: last.logN, ArchiveEvents: last.archN, Last: briefEvent(last.ev), LogOrder: last.order, Counts: last.counts.view(),
		Source: source, Earlier: earlier, Log: *mem.Log, Archive: mem.Archive, Edges: last.edges,
	}
	if tier == parse.Full || r.graph != nil {
		cp.GraphSum, cp.HasGraph = sha256.Sum256(r.graphFile()), true
	}
	if tier != parse.MVP || r.ctx != nil {
		cp.ContextSum, cp.HasContext = sha256.Sum256(r.contextFile()), true
	}
	cp.Log.Events = nil
	if keep == nil {
		if r.x.Saveable() != nil {
			return
		}
		cp.Heavy = sum
		meta, err := snapshot.Encode(&cp)
		if err != nil {
			return
		}
		// The replay state is streamed into the entry as it is
		// encoded (materialize.Replayer.EncodeTo), never held whole.
		if !workspace.CachePutFunc(root, name, func(w io.Writer) error {
			if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(meta)))); err != nil {
				return err
			}
			if _, err := w.Write(meta); err != nil {
				return err
			}
			return r.x.EncodeTo(w)
		}) {
			return
		}
		heavyWrites++
	} else {
		cp.Heavy = *keep
	}
	// The head goes last: it names the heavy checkpoint by its prefix,
	// so a head never leads to a state it does not extend (loadHeavy).
	if data, err := snapshot.Encode(&cp); err == nil {
		workspace.CachePut(root, name+headSuffix, data)
	}
}

// resume replays from the checkpoint if what follows its prefix can be
// parsed alone; ok is false otherwise (a cold run follows). last is the
// log's last event afterwards. mem.LogBytes stays nil: the log was not
// read whole.
// The caller has checked the prefix; suffix is what follows it.
func resume(mem *workspace.Memory, cp *replayCheckpoint, suffix []byte) (x *materialize.Replayer, last lastEvent, n int, ok bool, err error) {
	x, err = materialize.UnmarshalReplayer(cp.Replayer)
	cp.Replayer = nil
	if err != nil {
		return nil, last, 0, false, nil
	}
	last = lastEvent{Offset: cp.PrefixLen, EndOffset: cp.PrefixLen, EndLine: cp.PrefixLines, clean: true,
		ev: cp.Last, logN: cp.LogEvents, archN: cp.ArchiveEvents, order: cp.LogOrder, counts: cp.Counts.resume(),
		// The caller accepts the replay only when the suffix held no
		// Supersedes field: the history's are the checkpoint's.
		edges: cp.Edges}
	a := materialize.ResumeAsync(x)
	log, n := resumeLog(cp, suffix, func(e *parse.Event) {
		a.Add(e)
		// The suffix holds no Supersedes field (the caller accepts the
		// replay only then), so it supersedes nothing, nor can an event
		// after every Supersedes field be superseded.
		last.counts.add(e)
		last.ev = e
		if e.InLog {
			last.set(e)
			last.logN++
			last.order.Add(e)
		}
	})
	x = a.Wait()
	if err := workspace.CheckCount(n); err != nil {
		return nil, last, 0, false, err
	}
	mem.Log, mem.Archive = &log, cp.Archive
	resumes++
	return x, last, n, true, readWhole(mem)
}

// resumeLog parses the suffix after a checkpoint, handing each event to
// each with its position in the whole log, and returns the log's
// parse (without events) and the number of events in the history.
func resumeLog(cp *replayCheckpoint, suffix []byte, each func(*parse.Event), opts ...parse.Option) (parse.Log, int) {
	log := cp.Log
	n := cp.Events
	// A section after the last event (AfterLog) lies after the prefix:
	// the checkpoint's is the log's when it was taken, the suffix's is
	// the log's now.
	log.AfterLogLine, log.AfterLogHeading = 0, ""
	if len(suffix) > 0 {
		body := make([]byte, 0, len(tailPre)+len(suffix))
		body = append(append(body, tailPre...), suffix...)
		dl, doff := cp.PrefixLines-2, cp.PrefixLen-len(tailPre)
		sl := parse.Stream(workspace.LogName, body, func(e *parse.Event) {
			n++
			e.Range.Line += dl
			e.Range.EndLine += dl
			e.Range.Offset += doff
			e.Range.EndOffset += doff
			each(e)
		}, opts...)
		for _, p := range sl.Problems {
			p.Range.Line += dl
			p.Range.EndLine += dl
			p.Range.Offset += doff
			p.Range.EndOffset += doff
			log.Problems = append(log.Problems, p)
		}
		log.Lines = cp.PrefixLines + sl.Lines - 2
		if sl.AfterLogLine > 0 {
			log.AfterLogLine, log.AfterLogHeading = sl.AfterLogLine+dl, sl.AfterLogHeading
		}
	}
	log.Problems = append([]parse.Problem(nil), log.Problems...)
	return log, n
}

// briefEvent is what a checkpoint keeps of the last event: what status
// prints of it.
func briefEvent(e *parse.Event) *parse.Event {
	if e == nil {
		return nil
	}
	return &parse.Event{ID: e.ID, Num: e.Num, Time: e.Time, Agent: e.Agent, Type: e.Type, Scope: e.Scope, Summary: e.Summary, InLog: e.InLog, Range: e.Range}
}

// resumable reports whether the bytes after a checkpoint's last event
// parse alone as they do after it: nothing but blank lines, or a blank
// line, then blank lines and "---" separators, then an event heading
// from which the rest is clean (parse.CutsAt). A blank line first means
// nothing continues the last event's paragraphs or lists; a column-0
// heading or break closes every block.
func resumable(suffix []byte) bool {
	if len(bytes.TrimSpace(suffix)) == 0 {
		return true
	}
	if suffix[0] != '\n' && !bytes.HasPrefix(suffix, []byte("\r\n")) {
		return false
	}
	for pos := 0; pos < len(suffix); {
		end := bytes.IndexByte(suffix[pos:], '\n')
		next := len(suffix)
		if end < 0 {
			end = len(suffix)
		} else {
			end += pos
			next = end + 1
		}
		line := bytes.TrimRight(suffix[pos:end], " \t\r")
		switch {
		case len(line) == 0, isBreak(line):
		default:
			return parse.CutsAt(suffix[pos:])
		}
		pos = next
	}
	return true
}

// isBreak reports whether line is a "---" separator at column 0.
func isBreak(line []byte) bool {
	return len(line) >= 3 && len(bytes.Trim(line, "-")) == 0
}

// regenerateCurrent answers regen and regen --check from the history
// cache's head when nothing is to be done: no event came since the
// checkpoint c and the derived files of the tier on disk hash as the
// checkpoint's state renders them. The result is then regen's (no
// diff, nothing written, the parser's findings as warnings) without
// reading or decoding the replay state or rendering. ok is false in
// every other case.
func regenerateCurrent(root string, cfg config.Config, c *checkpointed) (*RegenResult, []parse.Problem, bool) {
	if c == nil || c.cold || len(bytes.TrimSpace(c.suffix())) > 0 {
		return nil, nil, false
	}
	cp := c.head
	want := map[string][32]byte{}
	switch workspace.TierAt(root, cfg.Tier) {
	case parse.Full:
		if !cp.HasGraph || !cp.HasContext {
			return nil, nil, false
		}
		want[parse.GraphFile] = cp.GraphSum
		want[parse.ContextFile] = cp.ContextSum
	case parse.Core:
		if !cp.HasContext {
			return nil, nil, false
		}
		want[parse.ContextFile] = cp.ContextSum
	}
	for f, sum := range want {
		if got, err := textSum(root, f); err != nil || got != sum {
			return nil, nil, false
		}
	}
	currentHits++
	// as WriteDerived says nothing written
	return &RegenResult{Wrote: []string{}}, historyProblems(cp.Archive, &cp.Log), true
}

// currentHits counts regens answered by regenerateCurrent, for the tests.
var currentHits int

// holdGC turns the garbage collector off until the function it returns
// is called, for a resumed run that parses suffix bytes after its
// checkpoint. A resumed run decodes a checkpoint of tens of megabytes
// at 100,000 events, all of it live: a collection during the decode
// frees nothing and marks what was decoded so far, once more at every
// doubling of the heap. Besides the state it allocates for the suffix
// it parses and the files it renders; the hold is taken only for a
// suffix of at most holdMax bytes (the log may have grown by any amount
// since the checkpoint), so memory stays a small multiple of the
// state's. The setting is the process's: holds from concurrent calls
// (the MCP server's) nest, and the last release restores what the
// first found.
func holdGC(suffix int) (release func()) {
	if suffix > holdMax {
		return func() {}
	}
	gcHold.Lock()
	if gcHold.n == 0 {
		gcHold.old = debug.SetGCPercent(-1)
	}
	gcHold.n++
	gcHold.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			gcHold.Lock()
			if gcHold.n--; gcHold.n == 0 {
				debug.SetGCPercent(gcHold.old)
			}
			gcHold.Unlock()
		})
	}
}

// holdMax is the longest suffix a resumed run parses with the garbage
// collector held: a few times heavyBound's megabyte, ten thousand
// events.
const holdMax = 4 << 20

// gcHold counts the holds of holdGC and keeps the setting they replaced.
var gcHold struct {
	sync.Mutex
	n, old int
}
