package memory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
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

// checkpointVersion changes whenever replayCheckpoint does.
const checkpointVersion = 4

// replayCheckpoint is one cache entry.
type replayCheckpoint struct {
	Version     int
	PrefixLen   int      // log bytes covered: up to the end of the last event
	PrefixLines int      // line feeds in them (normalised), = that event's last line
	PrefixSum   [32]byte // SHA-256 of those bytes
	Events      int      // events replayed (archive and log)
	// LogEvents and ArchiveEvents count the events status reports: the
	// log's in its Event Log, all of the archive's. Last is the last
	// event replayed, headers, Scope and Summary.
	LogEvents, ArchiveEvents int
	Last                     *parse.Event
	// GraphSum and ContextSum are the SHA-256 of graph.md and context.md
	// as rendered from this state: when no event came since and the
	// files on disk hash the same, regen has nothing to do
	// (regenerateCurrent) and need not decode the state at all.
	GraphSum, ContextSum [32]byte
	// Source is the state of the digest of the events (the seal's
	// source, materialize.SourceHasher) after them, for status.
	Source   []byte
	Log      parse.Log
	Archive  *parse.Log
	Replayer []byte
}

// resumes counts replays resumed from a checkpoint, for the tests to
// see that the cache was used.
var resumes int

// tailPre stands for the log before a resumed suffix: the suffix
// starts after an event of the Event Log (see resumable).
const tailPre = "## Event Log\n\n"

// cacheName names the cache entry of a replay of root with opt over the
// archive of mem.
func cacheName(root string, opt materialize.Options, mem *workspace.Memory) string {
	h := sha256.New()
	for _, s := range []string{strconv.Itoa(checkpointVersion), workspace.BuildID(), root,
		strconv.Itoa(opt.ContextWords), strconv.Itoa(opt.WindowHours), strconv.Itoa(opt.WindowEvents), mem.ArchivePath} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	h.Write(mem.ArchiveBytes)
	return "replay-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// replayCached is Replay of the whole history through the cache.
//
// A history with a Supersedes field is never cached: a later event can
// undo an earlier one's effects, so a replay state saved after a prefix
// is not a state the rest of the history can resume from. Such a
// history replays cold (replayStream) every time; so does one whose
// suffix after a checkpoint holds a Supersedes field.
func replayCached(root string, opt materialize.Options) (*workspace.Memory, *materialize.Replayer, error) {
	if mem, cp, name, suffix, ok := loadCheckpoint(root, opt); ok && len(parse.ScanSupersedes(workspace.LogName, suffix)) == 0 {
		if x, last, n, ok, err := resume(mem, cp, suffix); err != nil {
			return nil, nil, err
		} else if ok && x.Exact() && len(x.Seen()) == 0 {
			if last.Offset > cp.PrefixLen {
				// Read the whole log once more, to hash the new prefix:
				// appends are rare next to reads.
				var err error
				if mem.LogBytes, err = workspace.ReadFile(root, workspace.LogName); err == nil {
					save(root, name, mem, x, last, n)
				}
				mem.LogBytes = nil
			}
			return mem, x, nil
		}
	}
	mem, err := workspace.Read(root)
	if err != nil {
		return nil, nil, err
	}
	if len(mem.Supersessions()) > 0 {
		return replayStream(root, opt, "")
	}
	name := cacheName(root, opt, mem)
	a := materialize.NewAsync(opt)
	var last lastEvent
	n := 0
	err = mem.Stream(func(e *parse.Event) {
		n++
		a.Add(e)
		last.ev = e
		if e.Range.File == workspace.LogName {
			if e.InLog {
				last.set(e)
				last.logN++
			}
		} else {
			last.archN++
		}
	})
	x := a.Wait()
	if err != nil {
		return nil, nil, err
	}
	if err := mem.Incomplete(); err != nil {
		return nil, nil, err
	}
	if !x.Exact() || len(x.Seen()) > 0 {
		// The bytes hid a Supersedes field the events have.
		return replayStream(root, opt, "")
	}
	save(root, name, mem, x, last, n)
	return mem, x, nil
}

// loadCheckpoint finds the checkpoint of a replay of root with opt and
// checks the log against it; ok means the log starts with the bytes the
// checkpoint covers, and suffix holds the rest. It reads the archive
// (the entry's name hashes it) and then only the log's new bytes. Any
// error means no checkpoint: the cold path then reports it as an
// uncached run would.
func loadCheckpoint(root string, opt materialize.Options) (mem *workspace.Memory, cp *replayCheckpoint, name string, suffix []byte, ok bool) {
	mem, err := workspace.ReadArchive(root)
	if err != nil {
		return nil, nil, "", nil, false
	}
	name = cacheName(root, opt, mem)
	data, ok := workspace.CacheGet(root, name)
	if !ok {
		return nil, nil, "", nil, false
	}
	cp = &replayCheckpoint{}
	if snapshot.Decode(data, cp) != nil || cp.Version != checkpointVersion {
		return nil, nil, "", nil, false
	}
	suffix, ok, err = workspace.ReadAfter(root, workspace.LogName, int64(cp.PrefixLen), cp.PrefixSum)
	if err != nil || !ok || !resumable(suffix) {
		return nil, nil, "", nil, false
	}
	return mem, cp, name, suffix, true
}

// lastEvent is what a checkpoint needs of the log's last event.
type lastEvent struct {
	Offset, EndOffset, EndLine int
	clean                      bool
	// ev is the last event of the history (archive or log); logN and
	// archN count the events status reports.
	ev          *parse.Event
	logN, archN int
}

// set records e as the log's last event in its Event Log.
func (l *lastEvent) set(e *parse.Event) {
	// The event's text must end its last line, and hold no block that
	// could stay open: bytes appended after it must not be able to
	// change how it parses (parse.CutsAt).
	l.clean = len(e.Text) > 0 && e.Text[len(e.Text)-1] == '\n' && parse.CutsAt([]byte(e.Text))
	l.Offset, l.EndOffset, l.EndLine = e.Range.Offset, e.Range.EndOffset, e.Range.EndLine
}

// save stores the checkpoint of a replay that saw every event, when
// its last event allows one: clean, and no problem that may depend on
// what follows (an unclosed block, a line too long to read on).
func save(root, name string, mem *workspace.Memory, x *materialize.Replayer, last lastEvent, n int) {
	if !workspace.CacheEnabled() || !last.clean || mem.Log == nil || mem.Incomplete() != nil {
		return
	}
	for _, l := range []*parse.Log{mem.Log, mem.Archive} {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if p.Kind == parse.KindUnclosed || p.Range.Offset >= last.EndOffset && l == mem.Log {
				return
			}
		}
	}
	state, err := x.MarshalBinary()
	if err != nil {
		return
	}
	g, c := x.Files()
	source, err := x.SourceState()
	if err != nil {
		return
	}
	cp := replayCheckpoint{
		Version: checkpointVersion, PrefixLen: last.EndOffset, PrefixLines: last.EndLine,
		PrefixSum: sha256.Sum256(mem.LogBytes[:last.EndOffset]), Events: n,
		LogEvents: last.logN, ArchiveEvents: last.archN, Last: briefEvent(last.ev),
		GraphSum: sha256.Sum256(g), ContextSum: sha256.Sum256(c), Source: source,
		Log: *mem.Log, Archive: mem.Archive, Replayer: state,
	}
	cp.Log.Events = nil
	data, err := snapshot.Encode(&cp)
	if err != nil {
		return
	}
	workspace.CachePut(root, name, data)
}

// resume replays from the checkpoint if what follows its prefix can be
// parsed alone; ok is false otherwise (a cold run follows). last is the
// log's last event afterwards. mem.LogBytes stays nil: the log was not
// read whole.
// The caller has checked the prefix; suffix is what follows it.
func resume(mem *workspace.Memory, cp *replayCheckpoint, suffix []byte) (x *materialize.Replayer, last lastEvent, n int, ok bool, err error) {
	x, err = materialize.UnmarshalReplayer(cp.Replayer)
	if err != nil {
		return nil, last, 0, false, nil
	}
	last = lastEvent{Offset: cp.PrefixLen, EndOffset: cp.PrefixLen, EndLine: cp.PrefixLines, clean: true,
		ev: cp.Last, logN: cp.LogEvents, archN: cp.ArchiveEvents}
	a := materialize.ResumeAsync(x)
	log, n := resumeLog(cp, suffix, func(e *parse.Event) {
		a.Add(e)
		last.ev = e
		if e.InLog {
			last.set(e)
			last.logN++
		}
	})
	x = a.Wait()
	if err := workspace.CheckCount(n); err != nil {
		return nil, last, 0, false, err
	}
	mem.Log, mem.Archive = &log, cp.Archive
	resumes++
	return x, last, n, true, mem.Incomplete()
}

// resumeLog parses the suffix after a checkpoint, handing each event to
// each with its position in the whole log, and returns the log's
// parse (without events) and the number of events in the history.
func resumeLog(cp *replayCheckpoint, suffix []byte, each func(*parse.Event), opts ...parse.Option) (parse.Log, int) {
	log := cp.Log
	n := cp.Events
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
// cache when nothing is to be done: no event came since the checkpoint
// and the derived files of the tier on disk hash as the checkpoint's
// state renders them. The result is then regen's (no diff, nothing
// written, the parser's findings as warnings) without decoding the
// replay state or rendering. ok is false in every other case.
func regenerateCurrent(root string, cfg config.Config) (*RegenResult, bool) {
	if !workspace.CacheEnabled() {
		return nil, false
	}
	mem, cp, _, suffix, ok := loadCheckpoint(root, lint.RenderOptions(cfg))
	if !ok || len(bytes.TrimSpace(suffix)) > 0 {
		return nil, false
	}
	want := map[string][32]byte{}
	switch TierOf(cfg, mem) {
	case parse.Full:
		want[parse.GraphFile] = cp.GraphSum
		want[parse.ContextFile] = cp.ContextSum
	case parse.Core:
		want[parse.ContextFile] = cp.ContextSum
	}
	for f, sum := range want {
		b, err := workspace.ReadFile(root, f)
		if err != nil || sha256.Sum256(b) != sum {
			return nil, false
		}
	}
	r := &RegenResult{}
	for _, l := range []*parse.Log{cp.Archive, &cp.Log} {
		if l != nil {
			r.Problems = append(r.Problems, l.Problems...)
		}
	}
	currentHits++
	return r, true
}

// currentHits counts regens answered by regenerateCurrent, for the tests.
var currentHits int
