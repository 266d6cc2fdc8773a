package parse

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/memsys/memsys/internal/base/diag"
)

// Option configures Parse.
type Option func(*config)

type config struct {
	archive     bool
	headersOnly bool
	whole       bool // tests: parse the file as one goldmark document
	sequential  bool // tests: never use the pipeline
	reuse       Returner
}

// Archive marks the file as an archive (changelog-archive.md): archive
// files hold events under "## Archive: ..." sections, so every event
// section counts as part of the log.
func Archive() Option { return func(c *config) { c.archive = true } }

// HeadersOnly reads event headings and sections but not event bodies:
// Events carry ID, Num, Time, Agent, Type, Level, InLog, Range and
// Text, with no fields or details. It is what append uses to find the
// next ID and check refs without paying for a full parse. Chunks that
// contain no fence or HTML opener cannot hide a heading in code, and
// with no indented ATX heading or setext underline (hidesHeading) hold
// no heading but their first line, so only that line is read; any
// other chunk is parsed as in a full parse, and every event ends where
// a full parse ends it.
func HeadersOnly() Option { return func(c *config) { c.headersOnly = true } }

// MaxLineLength is the longest line Parse reads. Longer lines are
// reported (KindLineLength) and the file is not parsed further, so a
// hostile 10 MB line cannot make goldmark allocate without bound.
const MaxLineLength = 1 << 20

// Parse reads one log file. It never fails: problems are collected in
// Log.Problems and parsing goes on. file names the file in every Range.
// The strings in the result share memory with src, which the caller
// must not modify afterwards.
func Parse(file string, src []byte, opts ...Option) *Log {
	return parse(file, src, nil, opts)
}

// Stream parses like Parse but hands each event to each as soon as the
// event is complete, in file order, and keeps none: Log.Events of the
// result is empty. Replaying while parsing this way holds one event at
// a time instead of the whole log, which is what keeps regen's memory
// near the size of the file. The event and its slices may be retained
// by each, unless opts include Reuse; like Parse's results, its strings
// share memory with src.
// Events written before the Event Log section are held back until the
// parser knows whether such a section exists, exactly as Parse decides
// which events count.
func Stream(file string, src []byte, each func(*Event), opts ...Option) *Log {
	return parse(file, src, each, opts)
}

func parse(file string, src []byte, each func(*Event), opts []Option) *Log {
	var c config
	for _, o := range opts {
		o(&c)
	}
	p := &state{file: file, archive: c.archive, headersOnly: c.headersOnly, whole: c.whole, sequential: c.sequential, log: &Log{File: file}, each: each}
	if each != nil {
		p.reuse = c.reuse
	}
	p.src, p.bom, p.crlf = normalize(src)
	// One string over the normalised bytes, shared by every text in the
	// result: no copy of the 30 MB a large log holds. Parse owns p.src
	// from here on (normalize copied it if it had to change anything;
	// otherwise the caller's slice is used and must not be modified,
	// as documented on Parse).
	p.s = unsafe.String(unsafe.SliceData(p.src), len(p.src))
	p.lc = lineCursor{src: p.src, line: 1}
	p.log.Lines = bytes.Count(p.src, []byte{'\n'})
	if len(p.src) > 0 && p.src[len(p.src)-1] != '\n' {
		p.log.Lines++
	}
	starts, long := chunkStarts(p.src)
	if long >= 0 {
		// Read what comes before the long line: the partial result, with
		// the problem saying where the file stops being read.
		p.problem(KindLineLength, long, long, "",
			"line is "+itoa(lineEnd(p.src, long)-long-1)+" bytes, over the "+itoa(MaxLineLength)+"-byte limit: split it or move the content out of the log")
		p.src = p.src[:long]
		p.s = p.s[:long]
		p.lc.src = p.src
	}
	if p.whole {
		starts = []int{0}
	}
	p.encoding()
	p.conflictMarkers()
	p.run(starts)
	if c := p.cut; c != nil && !p.inLog && !bytes.HasPrefix(p.src[c.start:], conflictMarker) {
		// No event followed the heading that ended the log: a section
		// after it, where append would write (AfterLog). A conflict
		// marker read as a setext heading is MS134's, not a section.
		p.log.AfterLogLine = p.line(c.start)
		p.log.AfterLogHeading = strings.Repeat("#", c.level) + " " + c.text
	}
	return p.log
}

// conflictMarker opens each side of a git merge conflict (at the
// default marker size): the line that starts one is git's, never
// markdown's, unlike "=======" (a setext underline) or ">>>>>>>".
var conflictMarker = []byte("<<<<<<<")

// conflictMarkers finds every line that opens a git conflict: a merge
// without memsys's driver stopped on the log and the markers were left
// (or committed). Every such line is reported, not the first, so a
// file read in parts gives the same problems as read whole; those in a
// code block or comment are dropped as the blocks are read (quote), and
// the rest reported at the end (reportConflicts).
func (p *state) conflictMarkers() {
	for off := 0; ; {
		i := bytes.Index(p.src[off:], conflictMarker)
		if i < 0 {
			return
		}
		at := off + i
		off = at + len(conflictMarker)
		if at > 0 && p.src[at-1] != '\n' {
			continue
		}
		if off < len(p.src) && p.src[off] != ' ' && p.src[off] != '\n' {
			continue
		}
		p.conflicts = append(p.conflicts, conflict{at: at, r: p.rangeOf(at, lineEnd(p.src, at))})
	}
}

// ConflictLine returns the 1-based line of the first git conflict
// marker ("<<<<<<<" opening a line) in src, 0 if none: a derived file
// git could not merge (no merge driver) holds both sides' rows between
// such markers, which are no hand-kept content.
func ConflictLine(src []byte) int {
	for off := 0; ; {
		i := bytes.Index(src[off:], conflictMarker)
		if i < 0 {
			return 0
		}
		at := off + i
		off = at + len(conflictMarker)
		if at > 0 && src[at-1] != '\n' || off < len(src) && src[off] != ' ' && src[off] != '\n' && src[off] != '\r' {
			continue
		}
		return bytes.Count(src[:at], []byte{'\n'}) + 1
	}
}

// conflict is a conflict marker line found by conflictMarkers, with its
// range computed then, while the line cursor is still at the start.
type conflict struct {
	at int
	r  diag.Range
}

// reportConflicts reports the conflict markers that no code block or
// comment quoted.
func (p *state) reportConflicts() {
	for _, c := range p.conflicts {
		p.log.Problems = append(p.log.Problems, Problem{Kind: KindConflict, Range: c.r, Message: conflictMessage.String()})
	}
}

// encoding reports the first invalid UTF-8 sequence, NUL byte and
// byte-order mark after the start: each means the file was damaged or
// written with the wrong encoding. Parsing goes on; names compare
// byte-wise either way.
func (p *state) encoding() {
	if bom, ok := utf16BOM(p.src); ok {
		// Every other byte is NUL and nothing reads as markdown: one
		// problem that says what happened, not a stray byte and a NUL.
		p.problem(KindEncoding, 0, 2, "", utf16Prefix+" (byte-order mark "+bom+"), which memsys does not read: re-save it as UTF-8")
		return
	}
	if !utf8.Valid(p.src) {
		off := 0
		for off < len(p.src) {
			r, n := utf8.DecodeRune(p.src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		p.problem(KindEncoding, off, off+1, "", "invalid UTF-8 (byte 0x"+strconv.FormatUint(uint64(p.src[off]), 16)+"): re-save the file as UTF-8")
	}
	if i := bytes.IndexByte(p.src, 0); i >= 0 {
		p.problem(KindEncoding, i, i+1, "", "NUL byte in the log: the file is damaged or binary; restore it from git")
	}
	if i := bytes.Index(p.src, []byte("\xef\xbb\xbf")); i >= 0 {
		p.problem(KindEncoding, i, i+3, "", "byte-order mark inside the file (two files pasted together?): delete it")
	}
}

// utf16Prefix starts the one problem of a file saved as UTF-16 (Windows
// "Unicode", PowerShell 5's Out-File), which Log.UTF16 looks for.
const utf16Prefix = "the file is UTF-16"

// utf16BOM reports whether src starts with a UTF-16 byte-order mark,
// and the mark as a message shows it.
func utf16BOM(src []byte) (string, bool) {
	switch {
	case bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		return "0xff 0xfe", true
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}):
		return "0xfe 0xff", true
	}
	return "", false
}

// HasUTF16BOM reports whether src starts with a UTF-16 byte-order mark,
// which Parse reads as a file saved as UTF-16 (Log.UTF16): for a reader
// that holds the bytes and parses them later, or never (recall's events).
func HasUTF16BOM(src []byte) bool {
	_, ok := utf16BOM(src)
	return ok
}

// UTF16 reports whether the file was saved as UTF-16: the parser read
// nothing from it, so it has no "## Event Log" section to speak of, and
// the advice is to re-save it as UTF-8 (its one problem says so), not
// to add the section.
func (l *Log) UTF16() bool {
	for _, p := range l.Problems {
		if p.Kind == KindEncoding && strings.HasPrefix(p.Message, utf16Prefix) {
			return true
		}
	}
	return false
}
