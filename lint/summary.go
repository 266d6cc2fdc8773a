package lint

import (
	"crypto/sha256"
	"encoding/json"

	"github.com/memsys/memsys/parse"
)

// BlobIDs is what a Git may do besides Blob: name the blob at rev and
// path (relative to the memory root) without reading it. Blob IDs are
// hashes of the content, so what was learnt of one blob holds for
// every blob with its ID.
type BlobIDs interface {
	BlobID(rev, path string) (oid string, ok bool, err error)
}

// Store keeps small entries by key across runs (Input.Summaries); a
// missing or damaged entry only means more work.
type Store interface {
	Get(key string) ([]byte, bool)
	Put(key string, data []byte)
}

// sideSummary is what the comparison needs of a version of the log it
// has parsed to use it as the base of a later head without reading or
// parsing it: a head whose log starts with these bytes (by length and
// SHA-256), followed by events that parse alone (appendsEvents), with
// the same archive, holds the base's events first, unchanged (the
// version's end is closed: ClosedEnd), so they are the first Events
// the head's parse gives. Only versions with a closed end are kept.
type sideSummary struct {
	Version       int
	LogLen        int
	LogSum        [32]byte
	LogEvents     int
	ArchiveName   string
	ArchiveSum    [32]byte
	ArchiveEvents int
}

const sideSummaryVersion = 1

// sideKey names the version of the history at rev by its blob IDs, ""
// when it cannot (the working tree, no Summaries, a Git that does not
// name blobs, no log, an error: the side is then read as before).
func (p *Pass) sideKey(rev string) string {
	ids, ok := p.Git().(BlobIDs)
	if rev == "" || p.shared.in.Summaries == nil || !ok {
		return ""
	}
	log, ok, err := ids.BlobID(rev, parse.LogFile)
	if err != nil || !ok {
		return ""
	}
	key := "side1 " + log
	for _, name := range parse.ArchiveFiles {
		oid, ok, err := ids.BlobID(rev, name)
		if err != nil {
			return ""
		}
		if ok {
			return key + " " + name + " " + oid
		}
	}
	return key
}

// summary returns the summary kept under key.
func (p *Pass) summary(key string) (sideSummary, bool) {
	var s sideSummary
	if key == "" {
		return s, false
	}
	data, ok := p.shared.in.Summaries.Get(key)
	if !ok || json.Unmarshal(data, &s) != nil || s.Version != sideSummaryVersion {
		return s, false
	}
	return s, true
}

// keepSummary keeps the summary of s, parsed from b, under key when its
// log has a closed end and none is kept yet.
func (p *Pass) keepSummary(key string, s side, b sideBytes) {
	if key == "" || s.Log == nil || !b.hasLog || len(b.log) == 0 || b.log[len(b.log)-1] != '\n' {
		return
	}
	evs := s.Log.Events
	if !s.Log.HasEventLog || len(evs) == 0 || !evs[len(evs)-1].InLog || !ClosedEnd(s.Log, b.log) {
		return
	}
	if _, ok := p.summary(key); ok {
		return
	}
	sum := sideSummary{Version: sideSummaryVersion, LogLen: len(b.log), LogSum: sha256.Sum256(b.log), LogEvents: len(evs), ArchiveName: b.archiveName}
	if s.Archive != nil {
		sum.ArchiveSum, sum.ArchiveEvents = sha256.Sum256(b.archive), len(s.Archive.Events)
	}
	if data, err := json.Marshal(sum); err == nil {
		p.shared.in.Summaries.Put(key, data)
	}
}

// sides returns the base the summary describes and the head whose
// files are hb, when hb extends the base (see sideSummary): the head is
// parsed, the base is its first events. ok is false in any other case.
func (sum sideSummary) sides(hb sideBytes) (base, head side, ok bool) {
	if !hb.hasLog || len(hb.log) < sum.LogLen || sha256.Sum256(hb.log[:sum.LogLen]) != sum.LogSum ||
		hb.archiveName != sum.ArchiveName || sum.ArchiveName != "" && sha256.Sum256(hb.archive) != sum.ArchiveSum {
		return side{}, side{}, false
	}
	if rest := hb.log[sum.LogLen:]; len(rest) > 0 && !appendsEvents(rest) {
		return side{}, side{}, false
	}
	head = hb.parse()
	k := sum.ArchiveEvents + sum.LogEvents
	all := head.all
	if head.Log == nil || len(head.Log.Events) < sum.LogEvents || len(all) < k || sum.LogEvents == 0 ||
		all[k-1].Range.File != parse.LogFile || all[k-1].Range.EndOffset > sum.LogLen ||
		k < len(all) && all[k].Range.Offset < sum.LogLen {
		return side{}, side{}, false
	}
	if head.Archive != nil && len(head.Archive.Events) != sum.ArchiveEvents || head.Archive == nil && sum.ArchiveEvents != 0 {
		return side{}, side{}, false
	}
	base = side{Archive: head.Archive, Log: &parse.Log{File: parse.LogFile, HasEventLog: true}, all: all[:k:k]}
	return base, head, true
}
