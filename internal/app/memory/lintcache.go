package memory

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"sort"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// The lint cache: two entries per memory root and rule settings.
//
// The checkpoint (lintCheckpoint, the heavy entry) holds a lint Session
// stopped after the last event of the log (lint.Session.Checkpoint:
// every visiting rule's State, the index of IDs, the findings so far,
// the drift rules' replay), the parse of the log without its events,
// and the length, line count and SHA-256 of the log's bytes up to the
// end of that event. A lint after an append verifies that prefix, parses
// only the bytes after it (resumeLog, as the replay cache does), feeds
// their events to the resumed Session and finishes it: the rules that
// look at the memory as a whole run as in a cold lint, on the files as
// they are now.
//
// The result (lintManifest, the small entry) records the findings with
// every input the run read: the log (as the checkpoint's prefix plus
// the hash of the bytes after it), the archive, each file a rule read
// or looked for, the tier. A lint where none of them changed is
// answered from it without resuming anything.
//
// Write policy: a checkpoint of a long log is megabytes, so it is not
// rewritten after every append; a resumed lint writes only the small
// result, and the bytes since the checkpoint are parsed again by each
// lint until they exceed lintSuffixBound, when the resumed Session is
// checkpointed again after its last event.
//
// A history with a Supersedes field is never checkpointed (a later
// event can undo an earlier one's effects on the replay: see
// replayCached), nor is a suffix with one resumed: such lints are cold,
// with the result cache still answering an unchanged memory. Runs with
// --fix are never cached. A lint with git revisions (--base, --staged)
// judges its files through the cache (the staged ones checked by hash
// against the same entries: memFiles.after), then the history rules
// apart (lint.Linter.WithHistory), which the cache never answers. Either
// entry, damaged or not matching, means a cold run, which rewrites
// both: the cache decides what to parse, never what is found
// (TestLintCachedEqualsCold, FuzzLintCache).

// lintManifest is the lint result entry.
type lintManifest struct {
	Version int
	Tier    string
	// The log: its first PrefixLen bytes hash to PrefixSum (the
	// checkpoint's prefix, or the whole log), the rest to SuffixSum.
	PrefixLen int
	PrefixSum [32]byte
	SuffixSum [32]byte
	Archive   string   // its name, "" if none
	ArchSum   [32]byte // its bytes
	Reads     []lintRead
	// Findings ride as the entry's tail (putLint), decoded only when
	// the result answers: after an append it does not, and a long log
	// has thousands of findings.
	Findings diag.Diagnostics
	Events   int
}

// lintCheckpoint is the heavy lint entry: a Session after the log's
// last event.
type lintCheckpoint struct {
	Version     int
	Tier        string
	PrefixLen   int      // log bytes covered: up to the end of the last event
	PrefixLines int      // its last line
	PrefixSum   [32]byte // SHA-256 of those bytes
	// PrefixHash is the SHA-256 state after them, so that a later
	// checkpoint's prefix is hashed from the bytes after this one.
	PrefixHash []byte
	Events     int        // events in the history up to there
	Log        parse.Log  // the log's parse up to there, without events
	Archive    *parse.Log // the archive's, without events
	// Reads is what the Session read before the checkpoint (the probes
	// deciding whether it replays); they must read the same to resume.
	Reads []lintRead
	// The Session's state (lint.Session.WriteCheckpoint) follows as
	// the entry's tail (snapshot.EncodeTail's layout), decoded where it
	// lies.
	session []byte
}

// lintRead is one file a rule read or looked for: its content hash, or
// the error, or whether it exists.
type lintRead struct {
	Rel    string
	Exists bool // an Exists call; Sum and Err are unused
	Probe  bool
	Sum    [32]byte
	Err    string
}

const lintManifestVersion = 3

// lintSuffixBound is how many bytes after a checkpoint a lint parses
// before it writes a new checkpoint: about 800 events, a few
// milliseconds of parsing, against tens of milliseconds to write the
// checkpoint of a 100,000-event log.
var lintSuffixBound = 256 << 10

// lintCacheName names the lint entries of the memory files holds under
// the given overrides and configuration file bytes (as files holds
// them), and, with staged, of a staged lint. A staged lint has entries
// of its own, so that it never replaces the working tree's result when
// the files on disk are ahead of the index; the last commit's staged
// log starts the next one's (the log is append-only), so its
// checkpoint serves the next commit's hook. Every input is checked by
// content all the same, so a staged lint may resume from the working
// tree's checkpoint (lintCached's alt): a configuration lint could
// load is read or absent, and the name does not depend on how the
// file is missing, nor on where it was read.
func lintCacheName(files memFiles, overrides []config.RuleSetting, staged bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%v\x00%t\x00", lintManifestVersion, workspace.BuildID(), files.root, overrides, staged)
	b, err := files.configSrc, error(nil)
	if !files.configRead {
		b, err = files.readFile(config.FileName)
	}
	if err == nil && b != nil {
		h.Write(b)
	} else {
		h.Write([]byte("\x00absent"))
	}
	return "lint-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// lintCheckpointName names the checkpoint beside the result entry name,
// for the archive of mem.
func lintCheckpointName(name string, mem *workspace.Memory) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", name, mem.ArchivePath)
	h.Write(mem.ArchiveBytes)
	return "lintcp-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// lintRecorder wraps a lint.Input so that every file read or looked for
// is recorded.
type lintRecorder struct {
	reads map[string]lintRead
}

func (r *lintRecorder) wrap(in lint.Input) lint.Input {
	read, exists := in.ReadFile, in.Exists
	in.ReadFile = func(rel string) ([]byte, error) {
		b, err := read(rel)
		rec := lintRead{Rel: rel, Sum: sha256.Sum256(b)}
		if err != nil {
			rec.Err = err.Error()
		}
		r.reads["r\x00"+rel] = rec
		return b, err
	}
	in.Exists = func(rel string) bool {
		ok := exists(rel)
		r.reads["e\x00"+rel] = lintRead{Rel: rel, Probe: true, Exists: ok}
		return ok
	}
	return in
}

// list returns the reads so far with extra, sorted, without repeats.
func (r *lintRecorder) list(extra ...lintRead) []lintRead {
	all := map[string]lintRead{}
	for _, x := range extra {
		k := "r\x00" + x.Rel
		if x.Probe {
			k = "e\x00" + x.Rel
		}
		all[k] = x
	}
	for k, x := range r.reads {
		all[k] = x
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]lintRead, 0, len(keys))
	for _, k := range keys {
		out = append(out, all[k])
	}
	return out
}

// readsSame reports whether every read reads the same through in.
func readsSame(in lint.Input, reads []lintRead) bool {
	for _, r := range reads {
		if r.Probe {
			if in.Exists(r.Rel) != r.Exists {
				return false
			}
			continue
		}
		b, err := in.ReadFile(r.Rel)
		e := ""
		if err != nil {
			e = err.Error()
		}
		if e != r.Err || sha256.Sum256(b) != r.Sum {
			return false
		}
	}
	return true
}

// lintHits counts lints answered from the result entry, lintResumes
// those resumed from a checkpoint, and lintSaves the checkpoints
// written, for the tests.
var lintHits, lintResumes, lintSaves int

// lintCached is a lint of files (the working tree, or the staged
// files) through the cache: the last findings when no input changed,
// else a Session resumed from the checkpoint when the log only grew
// after it, else a cold lint. It stores what the next run needs. name
// is lintCacheName's; alt, when not "", names entries whose checkpoint
// may serve too when name's does not (a staged lint's: the working
// tree's, written by the lints of the files on disk), never written.
// in has no revisions (the history rules are
// judged apart, lint.Linter.WithHistory).
func lintCached(l *lint.Linter, files memFiles, name, alt string, in lint.Input, exiting bool) (diag.Diagnostics, int, error) {
	root := files.root
	arch, err := files.readArchive()
	if err != nil {
		return lintCold(l, files, name, in)
	}
	var suffix []byte
	var m lintManifest
	mOK, prefixOK, refused := false, false, false
	if data, ok := workspace.CacheView(root, name); ok {
		if findings, err := snapshot.DecodeTail(data, &m); err == nil && m.Version == lintManifestVersion &&
			m.Tier == string(arch.Tier) && m.Archive == arch.ArchivePath && m.ArchSum == sha256.Sum256(arch.ArchiveBytes) {
			mOK = true
			same, asked := false, false
			// Bytes after the prefix that neither are the manifest's
			// suffix nor let a checkpoint there resume mean a cold lint,
			// which reads the whole log: the prefix is then not hashed
			// first (workspace.ReadAfterMarksIf).
			suffix, prefixOK = files.afterIf(arch, m.PrefixLen, m.PrefixSum, func(rest []byte) bool {
				same, asked = sha256.Sum256(rest) == m.SuffixSum, true
				refused = !same && !lintResumesOver(rest)
				return !refused
			})
			if prefixOK && !asked {
				same = sha256.Sum256(suffix) == m.SuffixSum
			}
			if prefixOK && same && readsSame(in, m.Reads) && snapshot.Decode(findings, &m.Findings) == nil {
				lintHits++
				if exiting {
					holdGC(0) // never released: LintOptions.Exiting
				}
				return m.Findings, m.Events, nil
			}
		}
	}
	cpName := lintCheckpointName(name, arch)
	froms := []string{cpName}
	if alt != "" {
		froms = append(froms, lintCheckpointName(alt, arch))
	}
	for _, from := range froms {
		var cp lintCheckpoint
		if data, ok := workspace.CacheView(root, from); ok && decodeCheckpoint(data, &cp) == nil && cp.Version == lintManifestVersion && cp.Tier == string(arch.Tier) {
			samePrefix := from == cpName && mOK && m.PrefixLen == cp.PrefixLen && m.PrefixSum == cp.PrefixSum
			if samePrefix && refused {
				continue
			}
			if !samePrefix || !prefixOK {
				suffix, prefixOK = files.after(arch, cp.PrefixLen, cp.PrefixSum)
			}
			if prefixOK && lintResumesOver(suffix) && readsSame(in, cp.Reads) {
				if ds, n, ok := lintResume(l, files, name, cpName, in, arch, &cp, suffix); ok {
					return ds, n, nil
				}
			}
		}
	}
	return lintCold(l, files, name, in)
}

// readArchive reads the archive of the memory f holds and, from a View
// or a held memory, the log too (LogBytes): that log is in memory
// already, and the cache checks it against the checkpoint where it
// lies (after).
func (f memFiles) readArchive() (*workspace.Memory, error) {
	if f.view != nil {
		return f.view.Read()
	}
	if f.held != nil {
		return f.heldCopy(), nil
	}
	return workspace.ReadArchive(f.root)
}

// after returns the log's bytes after its first n if those hash to sum
// (ok), from the bytes mem holds (readArchive of a View) or the file.
func (f memFiles) after(mem *workspace.Memory, n int, sum [32]byte) (rest []byte, ok bool) {
	return f.afterIf(mem, n, sum, nil)
}

// afterIf is after for a caller that may refuse the bytes after the
// prefix before the prefix is hashed (workspace.ReadAfterMarksIf); ok
// is then false. A log already in memory is checked whole, want unasked.
func (f memFiles) afterIf(mem *workspace.Memory, n int, sum [32]byte, want func(rest []byte) bool) (rest []byte, ok bool) {
	mark := workspace.Mark{Len: int64(n), Sum: sum}
	if mem.LogBytes != nil {
		rest, _, ok, _ = workspace.AfterMarks(mem.LogBytes, mark)
		return rest, ok
	}
	rest, _, ok, _ = workspace.ReadAfterMarksIf(f.root, workspace.LogName, want, mark)
	return rest, ok
}

// lintResumesOver reports whether a lint checkpoint may resume over
// rest, the log after it: as a replay's (resumesOver), and the bytes
// must parse alone (resumable).
func lintResumesOver(rest []byte) bool { return resumable(rest) && resumesOver(rest) }

// lintCold lints files from the first event and stores the result and,
// when the log allows one, the checkpoint after its last event.
func lintCold(l *lint.Linter, files memFiles, name string, in lint.Input) (diag.Diagnostics, int, error) {
	root := files.root
	rec := &lintRecorder{reads: map[string]lintRead{}}
	var cp *lintCheckpoint
	ds, events, _, mem, err := lintOnce(l, files, rec.wrap(in), false, func(s *lint.Session, mem *workspace.Memory, last lastEvent, n int) {
		if mem.Log == nil || !checkpointable(mem.Log, mem.Archive, last) {
			return
		}
		h := sha256.New()
		h.Write(mem.LogBytes[:last.EndOffset])
		cp = saveCheckpoint(root, lintCheckpointName(name, mem), s, rec, h, mem, last, n)
	})
	if err != nil {
		return nil, 0, err
	}
	if mem == nil || mem.LogBytes == nil {
		return ds, events, nil
	}
	m := lintManifest{Version: lintManifestVersion, Tier: string(mem.Tier), Archive: mem.ArchivePath, ArchSum: sha256.Sum256(mem.ArchiveBytes),
		Reads: rec.list(), Findings: ds, Events: events}
	if cp != nil {
		// The checkpoint has hashed the prefix: only the rest is hashed.
		m.PrefixLen, m.PrefixSum, m.SuffixSum = cp.PrefixLen, cp.PrefixSum, sha256.Sum256(mem.LogBytes[cp.PrefixLen:])
	} else {
		m.PrefixLen, m.PrefixSum, m.SuffixSum = len(mem.LogBytes), sha256.Sum256(mem.LogBytes), sha256.Sum256(nil)
	}
	putLint(root, name, &m)
	return ds, events, nil
}

// lintResume lints files from the checkpoint cp, whose prefix the log
// starts with; suffix is the rest. ok is false when the checkpoint
// cannot serve (a cold run follows).
func lintResume(l *lint.Linter, files memFiles, name, cpName string, in lint.Input, arch *workspace.Memory, cp *lintCheckpoint, suffix []byte) (diag.Diagnostics, int, bool) {
	root := files.root
	defer holdGC(len(suffix))()
	rec := &lintRecorder{reads: map[string]lintRead{}}
	rin := rec.wrap(in)
	rin.Restream = files.restream()
	s, err := l.Resume(rin, cp.session)
	if err != nil {
		return nil, 0, false
	}
	last := lastEvent{Offset: cp.PrefixLen, EndOffset: cp.PrefixLen, EndLine: cp.PrefixLines, clean: true}
	dl := cp.PrefixLines - lineCount(tailPre)
	log, n := resumeLog(&replayCheckpoint{Log: cp.Log, Events: cp.Events, PrefixLen: cp.PrefixLen, PrefixLines: cp.PrefixLines}, suffix, func(e *parse.Event) {
		shiftLines(e, dl)
		s.Event(e)
		last.ev = e
		if e.InLog {
			last.set(e)
		}
	})
	for _, p := range log.Problems {
		if p.Kind == parse.KindLineLength && p.Range.Offset >= cp.PrefixLen {
			// The parser stopped in the suffix: let a cold run say so.
			s.Finish(&log, cp.Archive)
			return nil, 0, false
		}
	}
	if workspace.CheckCount(n) != nil {
		s.Finish(&log, cp.Archive)
		return nil, 0, false
	}
	next := cp
	if len(suffix) > lintSuffixBound && checkpointable(&log, cp.Archive, last) {
		if h, err := resumeHash(cp.PrefixHash); err == nil {
			h.Write(suffix[:last.EndOffset-cp.PrefixLen])
			mem := &workspace.Memory{Tier: arch.Tier, Log: &log, Archive: cp.Archive}
			if c := saveCheckpoint(root, cpName, s, rec, h, mem, last, n, cp.Reads...); c != nil {
				next = c
			}
		}
	}
	ds := s.Finish(&log, cp.Archive)
	if s.Err() != nil {
		return nil, 0, false
	}
	lintResumes++
	m := lintManifest{Version: lintManifestVersion, Tier: string(arch.Tier), PrefixLen: next.PrefixLen, PrefixSum: next.PrefixSum,
		SuffixSum: sha256.Sum256(suffix[next.PrefixLen-cp.PrefixLen:]), Archive: arch.ArchivePath, ArchSum: sha256.Sum256(arch.ArchiveBytes),
		Reads: rec.list(cp.Reads...), Findings: ds, Events: s.Events()}
	putLint(root, name, &m)
	return ds, s.Events(), true
}

// shiftLines moves the lines of e's fields and details by dl: resumeLog
// moves the event's Range to its place in the whole log, and the rules
// also report at the line of a field or a detail (the replay reads
// neither, which is why resumeLog leaves them).
func shiftLines(e *parse.Event, dl int) {
	for i := range e.Fields {
		if e.Fields[i].Line > 0 {
			e.Fields[i].Line += dl
		}
	}
	var details func([]parse.Detail)
	details = func(ds []parse.Detail) {
		for i := range ds {
			if ds[i].Line > 0 {
				ds[i].Line += dl
			}
			details(ds[i].Children)
		}
	}
	details(e.Details)
}

// lineCount is the number of line feeds in s.
func lineCount(s string) int { return strings.Count(s, "\n") }

// checkpointable reports whether a Session that has seen every event
// of log (and archive) may be checkpointed after last, the log's last
// event: it is the last event of the history, clean (see
// lastEvent.set), and no problem of the log may depend on what follows
// it, as save requires for the replay cache, nor may one change what
// the parser reports after it.
func checkpointable(log, archive *parse.Log, last lastEvent) bool {
	if !last.isClean() || last.ev == nil || !last.ev.InLog || last.ev.Range.File != workspace.LogName {
		return false
	}
	return resumableProblems(log, archive, last.EndOffset)
}

// saveCheckpoint stores the checkpoint of s after last, n events, h
// holding the SHA-256 of the log up to last's end, as the entry name of
// root's cache, and returns it; nil when the Session cannot be
// checkpointed (Session.WriteCheckpoint says why; the next lint is
// cold) or the entry could not be written. rec's reads so far, with
// extra, are what the Session has read. The entry is the checkpoint,
// then the Session's state as its tail, streamed into the file as it
// is encoded: held whole, the replay state of a long log was megabytes
// of fresh heap (a page fault every 4 KB) and copies of it.
func saveCheckpoint(root, name string, s *lint.Session, rec *lintRecorder, h hash.Hash, mem *workspace.Memory, last lastEvent, n int, extra ...lintRead) *lintCheckpoint {
	mid, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil
	}
	cp := &lintCheckpoint{Version: lintManifestVersion, Tier: string(mem.Tier), PrefixLen: last.EndOffset, PrefixLines: last.EndLine,
		PrefixSum: [32]byte(h.Sum(nil)), PrefixHash: mid, Events: n, Log: *mem.Log, Archive: mem.Archive,
		Reads: rec.list(extra...)}
	cp.Log.Events = nil
	cp.Log.Problems = append([]parse.Problem(nil), cp.Log.Problems...)
	if cp.Archive != nil {
		a := *cp.Archive
		a.Events = nil
		cp.Archive = &a
	}
	head, err := snapshot.Encode(cp)
	if err != nil {
		return nil
	}
	if !workspace.CachePutFunc(root, name, func(w io.Writer) error {
		if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(head)))); err != nil {
			return err
		}
		if _, err := w.Write(head); err != nil {
			return err
		}
		return s.WriteCheckpoint(w)
	}) {
		return nil
	}
	lintSaves++
	return cp
}

// decodeCheckpoint reads a checkpoint entry that saveCheckpoint wrote.
func decodeCheckpoint(data []byte, cp *lintCheckpoint) error {
	tail, err := snapshot.DecodeTail(data, cp)
	cp.session = tail
	return err
}

// resumeHash restores a SHA-256 state saved by checkpointOf.
func resumeHash(state []byte) (hash.Hash, error) {
	h := sha256.New()
	return h, h.(encoding.BinaryUnmarshaler).UnmarshalBinary(state)
}

// putLint stores a result entry: the manifest without its findings,
// then the findings as the entry's tail (snapshot.EncodeTail's layout),
// streamed to the file rather than encoded into one buffer first. An
// entry the codec refuses is not written (the next run is cold).
func putLint(root, name string, m *lintManifest) {
	head := *m
	head.Findings = nil
	h, err := snapshot.Encode(&head)
	if err != nil {
		return
	}
	workspace.CachePutFunc(root, name, func(w io.Writer) error {
		if _, err := w.Write(binary.AppendUvarint(nil, uint64(len(h)))); err != nil {
			return err
		}
		if _, err := w.Write(h); err != nil {
			return err
		}
		return snapshot.EncodeTo(w, &m.Findings)
	})
}
