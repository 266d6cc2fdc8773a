package memory

import (
	"bytes"
	"io"
	"slices"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// LogLines is Log for a caller that does not report how many events
// matched (memsys log prints the events only). With a limit and
// filters an event's header decides alone, it reads the end of the log
// (tailLog) instead of parsing the whole history, so `log -n 10` costs
// the size of the last events plus a scan of the bytes above them for
// what could change them, not a parse of the log. Whenever that is not
// enough to be sure, it is Log: the events, their lines and every
// error are the same either way (TestLogLinesSame, FuzzLogLines).
// memsys_log also reports the count of matches over the whole history:
// it calls LogCounted.
func LogLines(root string, f LogFilter) ([]EventLine, error) {
	if out, _, ok := tailLog(root, f, false); ok {
		return out, nil
	}
	out, _, err := Log(root, f)
	return out, err
}

// LogCounted is Log for memsys_log, whose result carries how many
// events of the whole history matched: it answers from the end of the
// log as LogLines does, and counts the matches above it from their
// heading lines, which the scan of those bytes reads anyway
// (parse.LogPrefix's Each), when it can prove them the events a parse
// gives; else it is Log. The events, the count and every error are
// Log's either way (TestLogLinesSame, FuzzLogLines,
// TestLogLinesMutations).
func LogCounted(root string, f LogFilter) ([]EventLine, int, error) {
	if out, matched, ok := tailLog(root, f, true); ok {
		return out, matched, nil
	}
	return Log(root, f)
}

// tailLog answers f from the end of root's log, or says it cannot
// (ok false: an error to report, a filter that needs the history, too
// few matches in the last megabytes, anything it cannot prove the same
// as Log's answer). With count it also returns how many events of the
// history pass f, as Log does, and says it cannot when it cannot prove
// that number; without, the number is 0.
func tailLog(root string, f LogFilter, count bool) ([]EventLine, int, bool) {
	head, ok := tailFilter(f)
	if !ok {
		return nil, 0, false
	}
	log, err := workspace.Open(root, workspace.LogName)
	if err != nil {
		return nil, 0, false // Log words it
	}
	defer log.Close()
	arch, _, err := workspace.OpenArchive(root)
	if err != nil {
		return nil, 0, false
	}
	var af LogFile // nil, not a nil *workspace.File, when there is none
	if arch != nil {
		defer arch.Close()
		af = arch
	}
	return tailLogOf(log, af, f.Limit, head, count)
}

// tailFilter returns f's header filter when f can be answered from
// the end of the log: a limit, and no filter that needs the history.
// --type is checked against the whole history unless it names seed
// types, so only those qualify.
func tailFilter(f LogFilter) (headerFilter, bool) {
	if f.Limit < 1 || f.At != "" || f.Entity != "" || f.RefsTo != "" || f.Open || f.Superseded {
		return headerFilter{}, false
	}
	since, until, err := f.bounds()
	if err != nil || f.Blank(nil) != nil {
		return headerFilter{}, false // Log words it
	}
	types := typeNames(f.Types)
	for _, t := range types {
		if !slices.Contains(parse.EventTypes, t) {
			return headerFilter{}, false
		}
	}
	return headerFilter{types: types, agent: f.Agent, since: since, until: until}, true
}

// tailLogOf is tailLog on opened files (arch nil when there is none).
// The last limit events that pass head are Log's answer when:
//   - a tail of the log holds that many after a cut TailCut offers
//     (older events, the archive's included, come before them);
//   - the lines above the cut leave the parser in the Event Log with
//     no block open (parse.LogPrefix), so the events after it are the
//     whole file's;
//   - Log would not fail: no line of the log or the archive is over
//     parse.MaxLineLength (LoadHistory's Incomplete), and the two
//     cannot hold more than workspace.MaxEvents events (CheckCount).
//
// The last two read every byte above the tail and the archive, a
// megabyte at a time and without parsing: about 25 ms at 100,000
// events, against a quarter of a second for the parse.
//
// With count, the events above the cut and in the archive that pass
// head are counted on the way from their heading lines (parse.LogPrefix
// hands them to Each), and the answer stands only if the scans prove
// those the events a parse keeps (Exact): then matched is theirs plus
// the tail's, Log's count.
func tailLogOf(log, arch LogFile, limit int, head headerFilter, count bool) (_ []EventLine, matched int, ok bool) {
	matches := func(l *parse.Log) int {
		n := 0
		for i := range l.Events {
			if head.match(&l.Events[i]) {
				n++
			}
		}
		return n
	}
	t, ok, err := readTail(workspace.LogName, log, func(l *parse.Log) bool { return matches(l) >= limit })
	if err != nil || !ok || t.Whole() {
		return nil, 0, false // a small log: the whole history
	}
	tailMatched := matches(t.Log)
	if tailMatched < limit {
		return nil, 0, false // too few matches: the whole history
	}
	for _, p := range t.Log.Problems {
		if p.Kind == parse.KindLineLength {
			return nil, 0, false
		}
	}
	// One pass over the bytes above the cut, and over the archive,
	// tells what a parse of them would: whether the events after the
	// cut are the file's, how many events they can hold at most, and
	// whether a line is too long; with count, which of their events
	// pass head.
	var each func(*parse.Event)
	if count {
		each = func(e *parse.Event) {
			if head.match(e) {
				matched++
			}
		}
	}
	pre := parse.LogPrefix{Each: each}
	above, err := scanLines(log, t.Base, pre.Read)
	if err != nil || !pre.InLog() || count && !pre.Exact() {
		return nil, 0, false
	}
	events := pre.Events() + len(t.Log.Events)
	if arch != nil {
		a := parse.LogPrefix{Archive: true, Each: each}
		if _, err := scanLines(arch, arch.Size(), a.Read); err != nil || a.Long() || count && !a.Exact() {
			return nil, 0, false
		}
		events += a.Events()
	}
	if events > workspace.MaxEvents {
		return nil, 0, false
	}
	// A tail event's line counts from the made-up heading's two lines.
	shift := above - bytes.Count([]byte(tailPrefix), []byte("\n"))
	out := make([]EventLine, 0, limit)
	for i := range t.Log.Events {
		if e := &t.Log.Events[i]; head.match(e) {
			l := LineOf(*e)
			l.Line += shift
			out = append(out, l)
		}
	}
	if count {
		matched += tailMatched
	}
	return out[len(out)-limit:], matched, true
}

// scanLines hands the first n bytes of f (n at the end of a line or
// of f) to each, a megabyte at a time cut at line ends, and returns how
// many line feeds they hold. A line longer than the buffer's spare
// room (over parse.MaxLineLength, which each is to notice) is handed
// on in pieces.
func scanLines(f LogFile, n int64, each func([]byte)) (lines int, err error) {
	const chunk = 1 << 20
	// A prefix that fits in one chunk is read whole: no line carries
	// over, so it needs no room beyond its own size. The long-running
	// MCP server would otherwise clear two megabytes for every small
	// log it lists.
	size := chunk + parse.MaxLineLength + 1
	if n <= chunk {
		size = int(max(n, 0))
	}
	buf := make([]byte, 0, size)
	for off := int64(0); off < n; {
		k := min(int64(chunk), n-off)
		m := len(buf)
		buf = buf[:m+int(k)]
		if got, err := f.ReadAt(buf[m:], off); got < int(k) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return 0, err // cut short: the file changed
		}
		off += k
		end := bytes.LastIndexByte(buf, '\n') + 1
		if off == n || len(buf)-end > parse.MaxLineLength {
			end = len(buf) // the end of f, or a line too long to matter how long
		}
		each(buf[:end])
		lines += bytes.Count(buf[:end], []byte("\n"))
		buf = buf[:copy(buf, buf[end:])]
	}
	return lines, nil
}
