package memory

import (
	"bytes"
	"fmt"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

// DefaultArchiveName is the archive file the seed names, used when no
// archive exists yet.
const DefaultArchiveName = parse.ArchiveFile

// ArchivePlan is what one archival moves.
type ArchivePlan struct {
	// Due reports whether the log is past the threshold.
	Due bool
	// Count is the number of events in the log's Event Log section.
	Count int
	// Moved are the log events that move to the archive, oldest first.
	Moved []parse.Event
	// Boundary is the first event that stays, the seed's "archive
	// boundary".
	Boundary parse.Event
	// Reason says why the boundary is where it is.
	Reason string
}

// PlanArchive applies the seed's Archival Protocol to log as memsys
// reads it (docs/lifecycle.md, "Archival"): when the log holds more
// than threshold events, the boundary is the oldest event that is
// within the last keep events or is the event that set an active
// node's current state (pinned maps such event IDs to the node), but
// never more than keep-1 events before those last keep: the log keeps
// at most 2×keep events, the archive event included, whatever the
// graph looks like. Every event before the boundary moves. A pin the
// cap leaves behind stays a valid ref, as the seed's Archival Rules
// say: the archive is replayed before the log, so the graph does not
// change (Archive verifies it). A plan with no Moved events means
// nothing to do; Reason says why.
func PlanArchive(log *parse.Log, pinned map[string]string, keep, threshold int) ArchivePlan {
	var evs []parse.Event
	for _, e := range log.Events {
		if e.InLog {
			evs = append(evs, e)
		}
	}
	p := ArchivePlan{Count: len(evs)}
	if len(evs) <= threshold {
		p.Reason = fmt.Sprintf("%s in the log, not more than the threshold of %d", words.Plural(len(evs), "event"), threshold)
		return p
	}
	p.Due = true
	// At least one event stays: the boundary. The flag and the
	// configuration refuse keep 0; this keeps the plan total.
	keep = max(keep, 1)
	b := max(len(evs)-keep, 0)
	p.Reason = "keeping the last " + words.Plural(keep, "event")
	floor := max(len(evs)-2*keep+1, 0) // the pins' cap
	for i := floor; i < b; i++ {
		if node, ok := pinned[evs[i].ID]; ok {
			b = i
			p.Reason = fmt.Sprintf("%s set the current state of active node %q", evs[i].ID, node)
			break
		}
	}
	if b == 0 {
		p.Boundary = evs[0]
		return p
	}
	p.Moved, p.Boundary = evs[:b], evs[b]
	return p
}

// Span names the moved events: "evt-001 through evt-030", or
// "evt-045" when one moves (SpanOf).
func (p ArchivePlan) Span() string {
	if len(p.Moved) == 0 {
		return ""
	}
	return SpanOf(p.Moved[0].ID, p.Moved[len(p.Moved)-1].ID)
}

// SpanOf names the run of events from first to last as archive writes
// it in its output, the archive marker, the log's comment and the
// archive event: "evt-001 through evt-030", or the ID alone when first
// is last. Nothing reads a span back (parse knows an archive section by
// its "## Archive" heading, the merge driver the comment by " archived
// to "), so markers earlier versions wrote as "evt-045 through evt-045"
// read and lint as before.
func SpanOf(first, last string) string {
	if first == last {
		return first
	}
	return first + " through " + last
}

// Marker is the archive section heading the seed prescribes.
func (p ArchivePlan) Marker(date string) string {
	return "## Archive: " + p.Span() + " | Archived " + date
}

// Comment is the reference comment left in CHANGELOG.md where the
// moved events were.
func (p ArchivePlan) Comment(archiveName string) string {
	return "<!-- memsys: " + p.Span() + " archived to " + archiveName + " -->"
}

// BuildArchive returns the new archive and log bytes for plan. The
// moved bytes run from the first moved event's heading to the end of
// the last moved event's body (separators between them included),
// copied from logSrc unchanged; the separator after the last moved
// event is dropped. The log keeps every byte before the first moved
// event and from the boundary on, with the reference comment between.
// The archive event is not added here: the caller appends it with
// AppendEvent, so it gets the same format and separator as any other.
func BuildArchive(logSrc, archSrc []byte, archiveName, date string, p ArchivePlan) (newLog, newArch []byte) {
	first, last := p.Moved[0], p.Moved[len(p.Moved)-1]
	// Text after the last moved event, up to the boundary, is no event
	// but hand-kept all the same (a "### Sprint 2 retro" section, the
	// fields after a heading that cut the event, MS133): it moves with
	// the events. The log kept only what follows the boundary, so such
	// text was in neither file. Only the separators before the boundary
	// are dropped, as they always were.
	end := max(last.Range.EndOffset, parse.TrimSeparators(logSrc, last.Range.EndOffset, p.Boundary.Range.Offset))
	chunk := logSrc[first.Range.Offset:end]
	nl := Newline(logSrc)

	newArch = append([]byte(nil), archSrc...)
	anl := nl
	if len(archSrc) > 0 {
		anl = Newline(archSrc)
	} else {
		newArch = append(newArch, "# Changelog Archive"+anl+anl+
			"Events moved out of CHANGELOG.md by `memsys archive`, byte for byte. Archived events are still valid refs."+anl...)
	}
	if len(newArch) > 0 && newArch[len(newArch)-1] != '\n' {
		newArch = append(newArch, anl...)
	}
	newArch = blank(newArch, anl)
	newArch = append(newArch, p.Marker(date)+anl+anl...)
	newArch = append(newArch, chunk...)
	newArch = append(newArch, anl...)

	newLog = make([]byte, 0, len(logSrc)-len(chunk)+128)
	newLog = append(newLog, logSrc[:first.Range.Offset]...)
	newLog = append(newLog, p.Comment(archiveName)+nl+nl...)
	newLog = append(newLog, logSrc[p.Boundary.Range.Offset:]...)
	return newLog, newArch
}

// Raw returns the bytes of e in src, exactly as stored (BOM excluded,
// CRs included): the unit archival must preserve.
func Raw(src []byte, e parse.Event) []byte {
	return src[e.Range.Offset:e.Range.EndOffset]
}

// Source is one parsed file together with its bytes.
type Source struct {
	Src []byte
	Log *parse.Log
}

// Events returns the events a memory reads from files, archive first,
// each with its raw bytes.
func rawEvents(files ...Source) (ids []string, raws [][]byte) {
	for _, f := range files {
		if f.Log == nil {
			continue
		}
		for _, e := range f.Log.Events {
			if e.InLog {
				ids = append(ids, e.ID)
				raws = append(raws, Raw(f.Src, e))
			}
		}
	}
	return ids, raws
}

// VerifyMove proves that after holds exactly the events of before, in
// the same order and byte for byte, followed by the extra events
// (the archive event). before and after list files in read order:
// archive, then log. The one byte sequence an event may gain is the
// line ending of its last line, when it was the last event of a file
// that did not end its last line (sameRaw).
func VerifyMove(before, after []Source, extra int) error {
	bids, braw := rawEvents(before...)
	aids, araw := rawEvents(after...)
	if len(aids) != len(bids)+extra {
		return fmt.Errorf("archive check failed: %s before, %d after (want %d): nothing was written", words.Plural(len(bids), "event"), len(aids), len(bids)+extra)
	}
	for i := range bids {
		if aids[i] != bids[i] || !sameRaw(braw[i], araw[i]) {
			return fmt.Errorf("archive check failed: event %d (%s) differs after the move (now %s): nothing was written", i+1, bids[i], aids[i])
		}
	}
	return nil
}

// sameRaw reports whether after is the event before, byte for byte, or
// before with the line ending its last line lacked. An editor that
// drops the file's final newline leaves the last event of the log or
// the archive unterminated, and a move must end that line before it
// writes after it (the archive event in the log, a new section in the
// archive), as append does: refusing it made archival impossible until
// a hand edit of a committed event's file.
func sameRaw(before, after []byte) bool {
	if bytes.Equal(before, after) {
		return true
	}
	if len(before) > 0 && before[len(before)-1] == '\n' || !bytes.HasPrefix(after, before) {
		return false
	}
	switch string(after[len(before):]) {
	case "\n", "\r\n", "\r":
		return true
	}
	return false
}
