package memory

import (
	"bytes"
	"errors"
	"io"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// A LogFile is a log or an archive as append reads it: its size and
// reads at offsets, so append can read the end of a 30 MB log without
// the rest. The caller opens it (workspace.File); memory never touches
// the file system.
type LogFile interface {
	io.ReaderAt
	Size() int64
}

// A Tail is the end of a log, parsed alone (headers only).
type Tail struct {
	// Src holds the bytes read; when the read stopped short of the
	// start of the file, they follow a made-up "## Event Log" heading
	// (Pre bytes) so that the parser counts their events as in the log.
	Src  []byte
	Pre  int
	Base int64 // offset in the file of Src[Pre]
	Log  *parse.Log
}

// Whole reports whether the tail is the whole file.
func (t *Tail) Whole() bool { return t.Base == 0 && t.Pre == 0 }

// tailPrefix stands for everything before a tail cut: the cut is made
// only before an event heading inside the Event Log (parse.TailCut), so
// the events after it belong to the log.
const tailPrefix = "## Event Log\n\n"

// Sizes of the window ReadTail reads: it starts small and grows until
// it holds two whole events after a safe cut, and gives up (the caller
// reads the whole file) past the largest.
// They are variables so the tests can make a small log take the tail
// path.
var (
	tailFirst int64 = 16 << 10
	tailMax   int64 = 4 << 20
)

// ReadTail reads the end of f: from a cut that parse.TailCut shows the
// rest parses alone from, holding at least the last two events (what
// AppendLead needs to pick the separator), or the whole file when it is
// small. ok is false when no such cut lies in the last few megabytes
// (an event with a fence or comment spanning far, say); the caller
// then reads the whole file. The cost is the size of the last events,
// not of the log.
func ReadTail(file string, f LogFile) (t *Tail, ok bool, err error) {
	return readTail(file, f, func(l *parse.Log) bool { return inLogCount(l) >= 2 }, parse.HeadersOnly())
}

// readTail is ReadTail with the test of a large enough window (enough,
// given the tail's parse) and the parser's options as arguments: log
// wants the last N matching events, and their fields.
func readTail(file string, f LogFile, enough func(*parse.Log) bool, opts ...parse.Option) (t *Tail, ok bool, err error) {
	size := f.Size()
	for w := tailFirst; ; w *= 4 {
		off := max(size-w, 0)
		buf := make([]byte, size-off)
		if _, err := f.ReadAt(buf, off); err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		if off == 0 {
			return &Tail{Src: buf, Log: parse.Parse(file, buf, opts...)}, true, nil
		}
		// Start at a line boundary: the first byte may be mid-line.
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			lb := nl + 1
			if cut := parse.TailCut(buf[lb:]); cut >= 0 {
				body := buf[lb+cut:]
				src := make([]byte, 0, len(tailPrefix)+len(body))
				src = append(append(src, tailPrefix...), body...)
				log := parse.Parse(file, src, opts...)
				if enough(log) {
					base := off + int64(lb+cut)
					if in, err := sectionAbove(file, f, base); err != nil || !in {
						return nil, false, err // the whole read decides
					}
					return &Tail{Src: src, Pre: len(tailPrefix), Base: base, Log: log}, true, nil
				}
			}
		}
		if w >= tailMax {
			return nil, false, nil
		}
	}
}

// sectionAbove reports whether the file's first n bytes, read as the
// parser reads them, open the Event Log section with no event heading
// above it: then every event after byte n is in the log (a section
// heading below only cuts an event, MS133), as tailPrefix claims, and
// none outside it can hold a higher ID. Without it, a log with no
// section took an appended event once it was longer than the first
// window while a shorter one was refused, and a log whose section
// heading follows its events was numbered from the tail's; the caller
// now reads the whole file, which answers both as append always did.
// It reads the head of the file, growing as the tail does, and stops
// at the section heading: 16 KB for a log that starts with it.
func sectionAbove(file string, f LogFile, n int64) (bool, error) {
	for w := tailFirst; ; w *= 4 {
		end := min(w, n)
		buf := make([]byte, end)
		if _, err := f.ReadAt(buf, 0); err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if end < n {
			// Whole lines only: a heading cut short reads as another.
			buf = buf[:bytes.LastIndexByte(buf, '\n')+1]
		}
		if l := parse.Parse(file, buf, parse.HeadersOnly()); l.HasEventLog {
			for _, p := range l.Problems {
				if p.Kind == parse.KindOutside {
					return false, nil
				}
			}
			return true, nil
		}
		if end == n {
			return false, nil
		}
	}
}

// numbered reports whether l has an event with a valid ID, one NextID
// can number after.
func numbered(l *parse.Log) bool {
	for i := range l.Events {
		if l.Events[i].Num > 0 {
			return true
		}
	}
	return false
}

func inLogCount(l *parse.Log) int {
	n := 0
	for i := range l.Events {
		if l.Events[i].InLog {
			n++
		}
	}
	return n
}

// FindHeading searches f backwards, from offset end, for the heading
// of event num written the usual way ("### evt-NNN " at the start of a
// line after a blank line) and returns the ID as written there and the
// type the heading line gives (parsed alone, as the whole parse reads
// it: the heading carries the type, so closes is checked without the
// event's body or the history). It is
// how append checks a ref to an event older than the tail without
// parsing the history: the cost grows with how far back the event is,
// and a ref to a recent event, the common case, costs a few reads.
// A heading found is checked with parse.CutsAt from there to end, so a
// line inside a fence or comment does not count. Headings in other
// forms, or that fail the check, are not found; the caller then parses
// the whole log (the exact answer, at the old cost).
func FindHeading(f LogFile, end int64, num int) (id, typ string, ok bool, err error) {
	id, at, ok, err := findHeading(f, end, num)
	if err != nil || !ok {
		return "", "", false, err
	}
	rest := make([]byte, end-at)
	if _, err := f.ReadAt(rest, at); err != nil && !errors.Is(err, io.EOF) {
		return "", "", false, err
	}
	if !parse.CutsAt(rest) {
		return "", "", false, nil
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	h := parse.Parse("", append([]byte(tailPrefix), line...), parse.HeadersOnly())
	if len(h.Events) != 1 || h.Events[0].Num != num {
		return "", "", false, nil // not read as that event's heading: let the whole parse decide
	}
	return id, h.Events[0].Type, true, nil
}

func findHeading(f LogFile, end int64, num int) (string, int64, bool, error) {
	const chunk = 1 << 20
	const overlap = 64 // longer than any "\n\n### evt-NNNNNNNNN " match
	needle := []byte("\n### evt-")
	for hi := end; hi > 0; {
		lo := max(hi-chunk, 0)
		buf := make([]byte, hi-lo)
		if _, err := f.ReadAt(buf, lo); err != nil && !errors.Is(err, io.EOF) {
			return "", 0, false, err
		}
		for i := len(buf); i > 0; {
			j := bytes.LastIndex(buf[:i], needle)
			if j < 0 {
				break
			}
			i = j
			// A blank line before: the previous line is empty.
			if j == 0 || buf[j-1] != '\n' && !(buf[j-1] == '\r' && j >= 2 && buf[j-2] == '\n') {
				continue
			}
			d := j + len(needle)
			k := d
			for k < len(buf) && buf[k] >= '0' && buf[k] <= '9' {
				k++
			}
			if k == d || k >= len(buf) || (buf[k] != ' ' && buf[k] != '|' && buf[k] != '\r' && buf[k] != '\n') {
				continue
			}
			id := string(buf[j+len("\n### ") : k])
			if n, ok := parse.EventNum(id); ok && n == num {
				return id, lo + int64(j) + 1, true, nil
			}
		}
		if lo == 0 {
			break
		}
		hi = lo + overlap
	}
	return "", 0, false, nil
}

// A Planned append: the bytes to add at the end of the log (separator
// and event) and what append reports.
type Planned struct {
	ID   string
	Data []byte
	// Line is the 1-based line of the event's heading, counted only
	// when asked (it means reading the whole log), else 0.
	Line int
}

// PlanAppend checks d against the log and the archive (arch may be
// nil) and returns what to append, without writing. It reads the end
// of the log (ReadTail): the last events give the next ID and the
// separator, the text after them shows no section follows, and refs
// are looked up in the tail, then by FindHeading. Whenever that is not
// enough to be sure (no safe cut, no event in the log, a ref not found
// that way, any error to report) it reads and parses both files whole,
// as append always did, so the answer and every error message are the
// same; only the cost differs. countLine asks for Planned.Line.
func PlanAppend(file string, log LogFile, archName string, arch LogFile, d *Draft, countLine bool) (Planned, error) {
	return planAppendEdges(file, log, archName, arch, d, countLine, nil)
}

// planAppendEdges is PlanAppend taking the Supersedes fields of the
// history from cached when it can answer (ok), as the history cache
// can (cachedEdges); cached may be nil.
func planAppendEdges(file string, log LogFile, archName string, arch LogFile, d *Draft, countLine bool, cached func() ([]parse.Supersession, bool)) (Planned, error) {
	p, err := planAppend(file, log, archName, arch, d, countLine)
	if err != nil || len(d.Supersedes) == 0 {
		return p, err
	}
	// A correction is checked against every Supersedes of the history
	// (MS126), which the tail does not hold: from the history cache's
	// checkpoint and the events after it, else both files read whole.
	var edges []parse.Supersession
	ok := false
	if cached != nil {
		edges, ok = cached()
	}
	if !ok {
		if edges, err = historyEdges(file, log, archName, arch); err != nil {
			return Planned{}, err
		}
	}
	if err := CheckSupersedes(edges, p.ID, d.Supersedes); err != nil {
		return Planned{}, err
	}
	return p, nil
}

func planAppend(file string, log LogFile, archName string, arch LogFile, d *Draft, countLine bool) (Planned, error) {
	t, ok, err := ReadTail(file, log)
	if err != nil {
		return Planned{}, err
	}
	// A log that ends mid-line may end in a torn event (TornEnd): the
	// whole read checks it, with the line counted from the top.
	if ok && !t.Whole() && inLogCount(t.Log) > 0 && bytes.HasSuffix(t.Src, []byte("\n")) {
		if p, done, err := planTail(file, log, arch, t, *d, countLine); err != nil || done {
			if done {
				*d = p.draft
			}
			return p.Planned, err
		}
	}
	var src []byte
	if ok && t.Whole() {
		src = t.Src // a small log: read once
	}
	return planWhole(file, log, src, archName, arch, d, countLine)
}

type tailPlan struct {
	Planned
	draft Draft
}

// planTail plans from the tail alone; done is false when it cannot be
// sure and the whole files must be read.
func planTail(file string, log, arch LogFile, t *Tail, d Draft, countLine bool) (tailPlan, bool, error) {
	if (&workspace.Memory{Log: t.Log}).Incomplete() != nil {
		return tailPlan{}, false, nil // the whole read refuses it, with the line counted from the top
	}
	missing := false
	known := func(num int) (string, string, bool) {
		for i := len(t.Log.Events) - 1; i >= 0; i-- {
			if t.Log.Events[i].Num == num {
				return t.Log.Events[i].ID, t.Log.Events[i].Type, true
			}
		}
		for _, f := range []LogFile{log, arch} {
			if f == nil {
				continue
			}
			if id, typ, ok, err := FindHeading(f, f.Size(), num); err == nil && ok {
				return id, typ, true
			}
		}
		missing = true
		return "", "", false
	}
	if err := Normalize(&d, known); err != nil {
		if missing {
			return tailPlan{}, false, nil // let the whole read decide
		}
		return tailPlan{}, true, err
	}
	lead, err := AppendLead(file, t.Src, t.Log)
	if err != nil {
		return tailPlan{}, false, nil // the whole read words it with the right line
	}
	if !numbered(t.Log) {
		return tailPlan{}, false, nil // nothing in the tail to number after
	}
	if o := parse.OrderOf(t.Log); !o.Ascending() {
		// IDs fall somewhere in the tail (a log kept newest first): the
		// highest ID may lie above the window, and numbering after the
		// tail's would write one already in the log.
		return tailPlan{}, false, nil
	}
	id, err := NextID(t.Log)
	if err != nil {
		return tailPlan{}, false, nil // the whole read words it with the right line
	}
	text := Render(id, d, Newline(t.Src[t.Pre:]))
	if err := CheckRoundTrip(id, d, text); err != nil {
		return tailPlan{}, true, err
	}
	p := tailPlan{Planned: Planned{ID: id, Data: append(lead, text...)}, draft: d}
	if countLine {
		n, err := countLines(log, log.Size())
		if err != nil {
			return tailPlan{}, true, err
		}
		p.Line = n + bytes.Count(lead, []byte("\n")) + 1
	}
	return p, true, nil
}

// planWhole is append as it always was: both files read and parsed
// (headers only) in full. src is the log when already read, else nil.
func planWhole(file string, log LogFile, src []byte, archName string, arch LogFile, d *Draft, countLine bool) (Planned, error) {
	if src == nil {
		var err error
		if src, err = readAll(log); err != nil {
			return Planned{}, err
		}
	}
	l := parse.Parse(file, src, parse.HeadersOnly())
	// The parser stops at a line over the limit, so the events after it
	// are unknown: an event heading there would be numbered again.
	// Refuse, as regen does (workspace.Memory.Incomplete).
	if err := (&workspace.Memory{Log: l}).Incomplete(); err != nil {
		return Planned{}, err
	}
	// Before anything else: a torn event is why whatever else fails.
	if err := TornEnd(file, src, l); err != nil {
		return Planned{}, err
	}
	var a *parse.Log
	if arch != nil {
		asrc, err := readAll(arch)
		if err != nil {
			return Planned{}, err
		}
		a = parse.Parse(archName, asrc, parse.Archive(), parse.HeadersOnly())
	}
	if err := Normalize(d, KnownIn(l, a)); err != nil {
		return Planned{}, err
	}
	id, err := NextID(l, a)
	if err != nil {
		return Planned{}, err
	}
	text := Render(id, *d, Newline(src))
	if err := CheckRoundTrip(id, *d, text); err != nil {
		return Planned{}, err
	}
	lead, err := AppendLead(file, src, l)
	if err != nil {
		return Planned{}, err
	}
	p := Planned{ID: id, Data: append(lead, text...)}
	if countLine {
		p.Line = bytes.Count(src, []byte("\n")) + bytes.Count(lead, []byte("\n")) + 1
	}
	return p, nil
}

func readAll(f LogFile) ([]byte, error) {
	b := make([]byte, f.Size())
	if _, err := f.ReadAt(b, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// countLines counts the line feeds in the first n bytes of f, a
// megabyte at a time (a shorter prefix in a buffer of its size: the MCP
// server would clear a megabyte for every append to a small log).
func countLines(f LogFile, n int64) (int, error) {
	buf := make([]byte, min(max(n, 0), 1<<20))
	lines := 0
	for off := int64(0); off < n; {
		k := min(int64(len(buf)), n-off)
		if _, err := f.ReadAt(buf[:k], off); err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		lines += bytes.Count(buf[:k], []byte("\n"))
		off += k
	}
	return lines, nil
}
