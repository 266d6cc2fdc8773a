package parse

import "bytes"

// TailCut returns the offset of the earliest line of src from which
// the rest of src is known to parse alone exactly as it does at the end
// of the whole file, or -1 if there is none. src is the end of a file,
// starting at a line boundary; the bytes before it are not read.
//
// This is what lets append read the last kilobytes of a 100k-event log
// instead of all of it. A cut is offered only before a column-0 event
// heading ("### evt-...") that follows a blank line (so no paragraph
// or HTML block of kinds 6-7 runs into it), and only if no line from
// there to the end could open or close a fenced code block or any
// other HTML block: a fence, a line starting with '<', or a block ender
// such as "-->". A fence or comment opened above the cut must close
// below it (else it hides every later event, which the parser reports
// as KindUnclosed and lint as an error), and its closing line would be
// seen; balanced-looking blocks are refused too, because text inside a
// comment can look like a whole comment. The test is conservative: a
// caller that gets -1 reads more, or the whole file. One gap is
// accepted: a "<!X" declaration block (CommonMark kind 4) ends at any
// '>', which is too common in event text to refuse.
func TailCut(src []byte) int {
	prevBlank := false
	for pos := 0; pos < len(src); {
		end, next := lineBounds(src, pos)
		line := src[pos:end]
		if prevBlank && isEventHeadingLine(line) && cleanFrom(src[pos:]) {
			return pos
		}
		prevBlank = len(bytes.TrimSpace(line)) == 0
		pos = next
	}
	return -1
}

// CutsAt reports whether src, the end of a file from the line after a
// blank line, starts with an event heading from which the rest parses
// alone: TailCut's test for one given cut.
func CutsAt(src []byte) bool {
	end, _ := lineBounds(src, 0)
	return isEventHeadingLine(src[:end]) && cleanFrom(src)
}

// ClosesEvent reports whether line, without its line ending, is a
// column-0 ATX heading that ends the event above it (as state.heading
// decides): an event heading, or a heading of level 1 to 3. "#tag" is
// text and "#### Notes" a sub-heading: both continue the event.
func ClosesEvent(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	level := len(line) - len(bytes.TrimLeft(line, "#"))
	return level <= 3 || isEventHeadingLine(line)
}

// IsArchiveSection reports whether line, without its line ending, is
// a column-0 ATX heading of level 1 or 2 whose text starts with
// "archive": in an archive (Archive) it keeps the events after it in
// the log, as state.heading decides.
func IsArchiveSection(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	text := bytes.TrimLeft(line, "#")
	if len(line)-len(text) > 2 {
		return false
	}
	text = bytes.TrimSpace(text)
	return len(text) >= 7 && bytes.EqualFold(text[:7], []byte("archive"))
}

// lineBounds returns the end of the line at pos (without its '\n') and
// the start of the next one.
func lineBounds(src []byte, pos int) (end, next int) {
	if i := bytes.IndexByte(src[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(src), len(src)
}

// isEventHeadingLine reports whether line is a column-0 ATX heading
// whose text starts with "evt-".
func isEventHeadingLine(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	t := bytes.TrimLeft(bytes.TrimLeft(line, "#"), " \t")
	return len(t) >= 4 && bytes.EqualFold(t[:4], []byte("evt-"))
}

// cleanFrom reports whether no line of src could open or close a
// fenced code block or an HTML block (kind 4 aside, see TailCut).
func cleanFrom(src []byte) bool {
	if !bytes.Contains(src, []byte("``")) && !bytes.Contains(src, []byte("~~")) && bytes.IndexByte(src, '<') < 0 && bytes.IndexByte(src, '>') < 0 {
		return true // the common case: one pass of memchr-speed scans
	}
	for pos := 0; pos < len(src); {
		end, next := lineBounds(src, pos)
		line := src[pos:end]
		pos = next
		if bytes.Contains(line, []byte("```")) || bytes.Contains(line, []byte("~~~")) || closesUnopened(line) {
			return false
		}
		if _, rest := indent(line); len(rest) > 0 && rest[0] == '<' {
			return false
		}
	}
	return true
}

// closesUnopened reports whether line holds an ender of an HTML block
// of kinds 1-3 or 5 (kind 4, "<!X", is left out: its ender is any
// '>'); outside such a block, one means the text may have started
// inside it.
func closesUnopened(line []byte) bool {
	if bytes.IndexByte(line, '>') < 0 {
		return false
	}
	for _, k := range []int{1, 2, 3, 5} {
		if htmlBlockEnds(k, line) {
			return true
		}
	}
	return false
}

// A LogPrefix reads the lines of a file from its start to a TailCut
// cut and tells whether at the cut the parser is inside the Event Log
// section with no block open. Then the events after the cut are the
// file's exactly as the rest parsed alone after an "## Event Log"
// heading gives them, which is what lets memsys log read the last
// events of a 30 MB log: TailCut settles the block structure from the
// cut on, and a LogPrefix what the lines above can do to it, that is
// which section the events are in (a "## Notes" can put every later
// event outside the log, KindOutside) and whether a block still open
// hides them (a fence, a comment or the "<!X" block TailCut lets
// through). On the way it bounds the events the lines hold and finds
// a line too long to parse, so one pass over a file tells its reader
// what would make a parse of it fail (Events, Long). It costs a look
// at each line's first bytes.
//
// The test is conservative: any line that could open a fenced code or
// HTML block, and any level 1 or 2 heading but an exact
// "## Event Log" or "## Events" at column 0 (an ATX heading with odd
// spacing, one a setext underline could make, one after a BOM), counts
// against it, and a lone CR (a line break to the parser, not to a line
// count) stops it. A caller told false parses the whole file.
// The zero value is ready to use at the start of a file.
//
// With Each set it also hands on the events the lines hold, read from
// their heading lines alone, for a caller that counts the events above
// a cut that pass a filter of their headers (memsys_log's matched
// count) without parsing them; Exact tells whether it could prove them
// the parse's.
type LogPrefix struct {
	// Archive reads the lines as an archive's (the Archive option):
	// every event there is in the log, whatever section holds it, so
	// only the block structure decides which headings are events.
	Archive bool
	// Each, when not nil, is handed the events the lines read hold, in
	// file order, with what their heading line gives (ID, Num, Time,
	// Agent, Type, Level; no fields), as Parse reads them. An event and
	// its strings are valid only during the call: their memory is
	// reused for the next ones.
	Each func(*Event)

	inLog    bool // the last section heading is the Event Log's
	blocked  bool // a line was seen after which nothing can be known
	nonBlank bool // the previous line could be part of a paragraph
	long     bool
	events   int
	inexact  bool   // a line may hold an event that Each was not handed
	heads    []byte // event heading lines for Each, after logHeading
	nheads   int    // how many
}

// headBatch is how many heading lines LogPrefix parses at a time: fewer
// than pipelineMin, so the parse stays on the caller's goroutine and
// allocates no pipeline, and few enough that the buffer stays small.
const headBatch = 1024

// logHeading starts the document of heading lines a LogPrefix parses,
// so that each event is in the log as it is handed on (not held back
// until the parser knows whether the file has an Event Log section)
// and the stream can reuse its memory.
const logHeading = "## Event Log\n\n"

var (
	fenceBackticks = []byte("```")
	fenceTildes    = []byte("~~~")
)

// Read reads the next lines of the file: src ends at the end of a line
// ("\n") or of the file, and the next Read starts where it stops.
func (s *LogPrefix) Read(src []byte) {
	// A fence marker cannot span lines: one test for all of them.
	if !s.blocked && (bytes.Contains(src, fenceBackticks) || bytes.Contains(src, fenceTildes)) {
		s.blocked = true
	}
	cr := bytes.IndexByte(src, '\r') >= 0
	for pos := 0; pos < len(src); {
		end, next := lineBounds(src, pos)
		line := src[pos:end]
		pos = next
		if len(line) > MaxLineLength {
			s.long = true // with its CR, if any: the parser's line is no longer
		}
		var n int // the lines the parser reads here that may be event headings
		if cr {
			n = eventHeadings(line)
		} else {
			n = eventHeading(line)
		}
		s.events += n
		if !s.blocked {
			s.line(line, cr)
		}
		if n > 0 && s.Each != nil && !s.inexact {
			s.heading(line)
		}
	}
	s.flush()
}

// heading keeps line, which starts like an event heading's text, for
// Each when it is sure to be an event heading where the parse keeps
// what it opens, else gives up on exactness. It is sure when no fence
// or HTML block can be open (not blocked: no line above could open one)
// and the line is a column-0 ATX heading: such a line is a top-level
// heading whatever came before it (it closes every container and
// interrupts a paragraph, CommonMark 4.2), and its text, hence the
// event it opens, depends on the line alone. The parse keeps that
// event when its ID is valid and, outside an archive, the Event Log
// section is open at it: where inLog holds, the parser's does too
// (line sets it only at an exact "## Event Log" and clears it at every
// line the parser may read as another section heading). Any other
// line that starts like an event heading's text (a setext heading, an
// indented one, one where inLog cannot vouch for the section) may be
// an event whose header no line alone gives, or one the parse drops.
func (s *LogPrefix) heading(line []byte) {
	line = bytes.TrimSuffix(line, []byte("\r")) // CRLF: a lone CR has blocked s
	if s.blocked || s.long || !s.inLog && !s.Archive || !isEventHeadingLine(line) {
		s.inexact = true
		return
	}
	if s.nheads == 0 {
		s.heads = append(s.heads[:0], logHeading...)
	}
	s.heads = append(append(s.heads, line...), '\n')
	if s.nheads++; s.nheads == headBatch {
		s.flush()
	}
}

// flush hands the events of the heading lines kept to Each. The lines,
// each a column-0 ATX heading, parse alone as they do in the file;
// after logHeading, the parse keeps every event whose ID is valid, as
// the file's parse does at those lines (heading).
func (s *LogPrefix) flush() {
	if s.nheads == 0 {
		return
	}
	if !s.inexact {
		var r doneWith
		Stream("", s.heads, func(e *Event) {
			s.Each(e)
			r.n++
		}, Reuse(&r))
	}
	s.nheads = 0
}

// doneWith is the Returner of a consumer that is done with each event
// when it returns from the call that hands it over.
type doneWith struct{ n int }

func (r *doneWith) Taken() int    { return r.n }
func (r *doneWith) Returned() int { return r.n }

// line reads one line, without its "\n"; cr tells whether the lines
// read with it hold a CR.
func (s *LogPrefix) line(line []byte, cr bool) {
	if cr {
		if i := bytes.IndexByte(line, '\r'); i >= 0 {
			if i != len(line)-1 {
				s.blocked = true
				return
			}
			line = line[:i] // CRLF: the parser drops the CR
		}
	}
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if i == len(line) {
		s.nonBlank = false
		return
	}
	underlines := s.nonBlank
	s.nonBlank = true
	rest := line[i:]
	switch rest[0] {
	case '<', 0xef:
		s.blocked = true // an HTML block, or a BOM the parser may read past
	case '#':
		// Any '#' run of one or two ended by a space or control byte
		// may be a section heading to goldmark, whatever isATXHeading
		// says; an event heading of any level leaves the section.
		n := 0
		for n < len(rest) && rest[n] == '#' {
			n++
		}
		if n > 2 || n < len(rest) && rest[n] > ' ' || isEventHeadingLine(rest) {
			return
		}
		s.inLog = i == 0 && isLogHeading(rest[n:])
	case '=', '-':
		// A setext underline makes the paragraph above a heading.
		if underlines && isUnderline(rest) {
			s.inLog = false
		}
	}
}

// InLog reports whether, after the lines read, the parser is inside
// the Event Log section with no fence or HTML block open.
func (s *LogPrefix) InLog() bool { return s.inLog && !s.blocked && !s.long }

// Events returns at least how many events the lines read hold: the
// parser opens an event only at a heading whose text starts with
// "evt-" (ATX or setext), and such a text comes first on its line but
// for '#' marks and blanks.
func (s *LogPrefix) Events() int { return s.events }

// Long reports whether a line read is over MaxLineLength, where the
// parser stops (KindLineLength).
func (s *LogPrefix) Long() bool { return s.long }

// Exact reports whether Each was handed exactly the events a parse of
// the lines read keeps (in an archive, when Archive is set): no line
// that could hold another event was read, and none was too long.
// It is false when Each is nil.
func (s *LogPrefix) Exact() bool { return s.Each != nil && !s.inexact && !s.long }

// eventHeading is 1 when line starts like an event heading's text
// (Events), else 0.
func eventHeading(line []byte) int {
	i := 0
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		i = 3 // a file's BOM, which the parser drops
	}
	for i < len(line) && (line[i] == '#' || line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if len(line)-i >= 4 && bytes.EqualFold(line[i:i+4], []byte("evt-")) {
		return 1
	}
	return 0
}

// eventHeadings is eventHeading over the parts of a line with lone CRs,
// each a line to the parser.
func eventHeadings(line []byte) int {
	n := 0
	for {
		part, rest, more := bytes.Cut(line, []byte("\r"))
		n += eventHeading(part)
		if !more {
			return n
		}
		line = rest
	}
}

// isLogHeading reports whether text, an ATX heading's after its '#'
// run, names the Event Log section as state.heading compares it. Only
// ASCII counts: strings.ToLower and bytes.EqualFold disagree elsewhere
// ("ſ" folds to "s" but does not lower to it).
func isLogHeading(text []byte) bool {
	if len(text) == 0 || text[0] != ' ' && text[0] != '\t' {
		return false
	}
	text = bytes.Trim(text, " \t")
	for _, c := range text {
		if c >= 0x80 || c == '#' || c == '\\' {
			return false
		}
	}
	t := string(bytes.ToLower(text))
	return t == "event log" || t == "events"
}

// isUnderline reports whether line could be a setext heading underline:
// a run of '=' or of '-' with nothing after it but spaces and control
// bytes (a superset, so "- -" counts too).
func isUnderline(line []byte) bool {
	for _, c := range line {
		if c != line[0] && c > ' ' {
			return false
		}
	}
	return true
}
