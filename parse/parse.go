package parse

import (
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/memsys/memsys/internal/base/diag"
)

// Option configures Parse.
type Option func(*config)

type config struct {
	archive     bool
	headersOnly bool
	whole       bool // tests: parse the file as one goldmark document
	sequential  bool // tests: never use the pipeline
}

// Archive marks the file as an archive (changelog-archive.md): archive
// files hold events under "## Archive: ..." sections, so every event
// section counts as part of the log.
func Archive() Option { return func(c *config) { c.archive = true } }

// HeadersOnly reads event headings and sections but not event bodies:
// Events carry ID, Num, Time, Agent, Type, Level, InLog, Range and
// Text, with no fields or details. It is what append uses to find the
// next ID and check refs without paying for a full parse. Chunks that
// contain no fence or HTML opener cannot hide a heading in code, so
// only their first line is read; any other chunk goes to goldmark as
// in a full parse.
func HeadersOnly() Option { return func(c *config) { c.headersOnly = true } }

// MaxLineLength is the longest line Parse reads. Longer lines are
// reported (KindLineLength) and the file is not parsed further, so a
// hostile 10 MB line cannot make goldmark allocate without bound.
const MaxLineLength = 1 << 20

// blockParser is shared: goldmark parsers are safe for concurrent use
// once initialised. It is built on first use, not at package init, so
// commands that never reach goldmark (--version, status, append) do
// not pay for its tables. Only block parsers run. Inline parsing would turn
// "**Scope**" into emphasis nodes we would have to flatten again, and
// link reference definitions would swallow lines such as "[x]: y";
// fields are read from each block's raw lines instead.
var blockParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(),
		parser.WithParagraphTransformers(),
	)
})

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
// by each; like Parse's results, its strings share memory with src.
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
	p.run(starts)
	return p.log
}

// encoding reports the first invalid UTF-8 sequence, NUL byte and
// byte-order mark after the start: each means the file was damaged or
// written with the wrong encoding. Parsing goes on; names compare
// byte-wise either way.
func (p *state) encoding() {
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

// lineCursor turns offsets into line numbers by counting newlines from
// the last offset asked for. The parser asks in file order, so a whole
// parse counts every byte once; no line index of the file is built.
type lineCursor struct {
	src       []byte
	off, line int
	idx       *diag.LineIndex // built only if an offset before the cursor is asked for
}

func (c *lineCursor) at(off int) (line, col int) {
	off = min(max(off, 0), len(c.src))
	if off < c.off {
		if c.idx == nil {
			c.idx = diag.NewLineIndex(c.src)
		}
		return c.idx.Position(off)
	}
	c.line += bytes.Count(c.src[c.off:off], []byte{'\n'})
	c.off = off
	return c.line, off - (bytes.LastIndexByte(c.src[:off], '\n') + 1) + 1
}

// state is one run of Parse. It walks the top-level blocks of every
// chunk in order; an event is open from its heading to the next heading
// of level 3 or less.
type state struct {
	file    string
	archive bool
	// headersOnly and whole mirror the options of the same names.
	headersOnly, whole, sequential bool
	src                            []byte
	s                              string // src as one string: every text in the result is a substring of it, not a copy
	bom                            int
	crlf                           []int
	lc                             lineCursor
	log                            *Log
	scratch                        []block

	inLog bool   // inside an Event Log section
	cur   *Event // event being read, nil between events
	field int    // index in cur.Fields of the last field, -1 if none
	// each receives every kept event when streaming (see Stream); nil
	// when the events are collected in log.Events.
	each func(*Event)
	// pending holds streamed events seen before any Event Log section:
	// whether they count depends on whether such a section comes later.
	pending []*Event
	// listTo names where the next bullet list goes: "details", "refs",
	// "tags" after a field with an empty value, "" otherwise.
	listTo string
}

func (p *state) run(starts []int) {
	// Every event starts a chunk, so this never grows; cur can point
	// into the slice safely. A stream allocates events one by one.
	if p.each == nil {
		p.log.Events = make([]Event, 0, len(starts))
	}
	if len(starts) < pipelineMin || runtime.GOMAXPROCS(0) < 2 || p.sequential {
		for i := 0; i < len(starts); {
			var blocks []block
			blocks, i = p.blocksAt(starts, i, p.scratch[:0])
			p.consume(blocks)
			p.scratch = blocks[:0]
		}
	} else {
		p.pipeline(starts)
	}
	p.closeEvent(len(p.src))
	p.finish()
}

// pipelineMin is the number of chunks from which block recognition runs
// on its own goroutine, ahead of event extraction. Below it the
// goroutine costs more than it saves.
const pipelineMin = 256

// batch carries the blocks of consecutive chunk groups from the
// recogniser goroutine to the event reader, in file order.
type batch struct {
	arena  []block
	groups [][]block
}

// pipeline overlaps block recognition (pure: it reads only p.src) with
// event extraction, which must run in order. Batches are recycled so
// steady state allocates nothing for blocks.
func (p *state) pipeline(starts []int) {
	full := make(chan *batch, 2)
	free := make(chan *batch, 3)
	for range 3 {
		free <- &batch{arena: make([]block, 0, 8*256)}
	}
	go func() {
		defer close(full)
		for i := 0; i < len(starts); {
			b := <-free
			b.arena, b.groups = b.arena[:0], b.groups[:0]
			for n := 0; n < 256 && i < len(starts); n++ {
				var blocks []block
				tail := b.arena[len(b.arena):]
				blocks, i = p.blocksAt(starts, i, tail)
				if len(blocks) > 0 && len(blocks) <= cap(tail) && &blocks[0] == &tail[:1][0] {
					b.arena = b.arena[:len(b.arena)+len(blocks)] // stayed in the arena
				}
				b.groups = append(b.groups, blocks)
			}
			full <- b
		}
	}()
	for b := range full {
		for _, g := range b.groups {
			p.consume(g)
		}
		free <- b
	}
}

// blocksAt returns the blocks of the chunk group starting at starts[i]
// and the index of the next group. It appends into out when it can. It
// reads only p.src and p.headersOnly, so it may run on another
// goroutine than consume.
func (p *state) blocksAt(starts []int, i int, out []block) ([]block, int) {
	end := len(p.src)
	if i+1 < len(starts) {
		end = starts[i+1]
	}
	if i > 0 && p.headersOnly && !hasOpener(p.src[starts[i]:end]) {
		if blocks, ok := fastBlocks(out, p.src, starts[i], lineEnd(p.src, starts[i])); ok {
			return blocks, i + 1
		}
	}
	if i > 0 {
		if blocks, ok := fastBlocks(out, p.src, starts[i], end); ok {
			return blocks, i + 1
		}
	}
	// A chunk is parsed alone. If it ends inside a fenced code or HTML
	// block the cut after it was wrong (the heading there is code), so
	// the chunk grows, doubling each time, until it ends cleanly: the
	// result equals a whole-file parse and stays linear even when an
	// unterminated fence swallows the rest.
	j, grow := i+1, 1
	var doc ast.Node
	for {
		end = len(p.src)
		if j < len(starts) {
			end = starts[j]
		}
		doc = blockParser().Parse(text.NewReader(p.src[starts[i]:end]))
		if j >= len(starts) || !endsOpen(doc, p.src[starts[i]:end]) {
			break
		}
		j = min(j+grow, len(starts))
		grow *= 2
	}
	blocks := goldmarkBlocks(doc, p.src, starts[i])
	if j >= len(starts) && endsOpen(doc, p.src[starts[i]:]) {
		// A fence or HTML block open at the end of the file is valid
		// CommonMark, but when it swallows event headings it is a
		// mistake that would hide them without a word.
		if at := max(doc.LastChild().Pos(), 0) + starts[i]; hidesEvents(p.src[at:]) {
			blocks = append(blocks, block{kind: bUnclosed, lines: []srcLine{{off: at, end: lineEnd(p.src, at)}}})
		}
	}
	return blocks, j
}

// hidesEvents reports whether text holds a line that would be an event
// heading outside a code block.
func hidesEvents(text []byte) bool {
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		t := bytes.TrimLeft(bytes.TrimLeft(line, " "), "#")
		if len(t) < len(bytes.TrimLeft(line, " ")) && bytes.HasPrefix(bytes.TrimLeft(t, " "), []byte("evt-")) {
			return true
		}
	}
	return false
}

// hasOpener reports whether chunk may contain a fenced code or HTML
// block opener anywhere; without one it cannot end open.
func hasOpener(chunk []byte) bool {
	return bytes.Contains(chunk, []byte("``")) || bytes.Contains(chunk, []byte("~~")) || bytes.IndexByte(chunk, '<') >= 0
}

// endsOpen reports whether the last top-level block of a chunk is a
// fenced code or HTML block still open at the chunk's end.
func endsOpen(doc ast.Node, chunk []byte) bool {
	last := doc.LastChild()
	if last == nil {
		return false
	}
	lastLineEnd := func(n ast.Node) int {
		if l := n.Lines(); l.Len() > 0 {
			return l.At(l.Len() - 1).Stop
		}
		return -1
	}
	switch n := last.(type) {
	case *ast.FencedCodeBlock:
		e := lastLineEnd(n)
		if e < 0 {
			e = lineEnd(chunk, max(n.Pos(), 0))
		}
		// Closed fences have their closing line after the content.
		return len(bytes.TrimSpace(chunk[min(e, len(chunk)):])) == 0
	case *ast.HTMLBlock:
		if n.HasClosure() {
			return false
		}
		if n.HTMLBlockType <= ast.HTMLBlockType5 {
			return true
		}
		e := lastLineEnd(n)
		if e < 0 {
			return true
		}
		// Kinds 6 and 7 end at a blank line.
		return !bytes.Contains(chunk[min(e, len(chunk)):], []byte("\n"))
	}
	return false
}

func lineEnd(b []byte, from int) int {
	if from >= len(b) {
		return len(b)
	}
	if i := bytes.IndexByte(b[from:], '\n'); i >= 0 {
		return from + i + 1
	}
	return len(b)
}

// consume reads the top-level blocks of one chunk in order.
func (p *state) consume(blocks []block) {
	for i := range blocks {
		b := &blocks[i]
		switch b.kind {
		case bHeading:
			p.heading(b)
		case bPara:
			if p.cur != nil && !p.headersOnly {
				p.fieldLines(b.lines)
			}
		case bList:
			if p.cur != nil && !p.headersOnly {
				p.list(b.items)
			}
		case bBreak:
			// a separator between events
		case bUnclosed:
			off := b.lines[0].off
			p.problem(KindUnclosed, off, b.lines[0].end, "",
				"code block or HTML comment opened here is never closed, so every event heading after it is hidden: close it")
		default:
			if p.cur != nil {
				p.listTo = ""
			}
		}
	}
}

func (p *state) heading(h *block) {
	textLine := p.text(h.lines[0])
	for _, l := range h.lines[1:] {
		textLine += " " + p.text(l)
	}
	start := bytes.LastIndexByte(p.src[:h.lines[0].off], '\n') + 1
	if h.setext && p.cur != nil && isFieldLine(p.text(h.lines[0])) {
		// "**Tags**: x" directly followed by "---" is a setext heading
		// to CommonMark but a field and a separator to its writer.
		p.fieldLines(h.lines)
		return
	}
	isEvt := len(textLine) >= 4 && strings.EqualFold(textLine[:4], "evt-")
	if h.level > 3 && !isEvt {
		return // a sub-heading inside an event body
	}
	p.closeEvent(start)
	if isEvt {
		p.openEvent(h.level, textLine, start)
		return
	}
	if h.level <= 2 {
		name := strings.ToLower(strings.TrimSpace(textLine))
		p.inLog = name == "event log" || name == "events" ||
			(p.archive && strings.HasPrefix(name, "archive"))
		if p.inLog && p.log.EventLogLine == 0 {
			p.log.HasEventLog = true
			p.log.EventLogLine = p.line(start)
			p.flush()
		}
		return
	}
	if p.inLog && strings.Contains(textLine, "|") {
		p.problem(KindHeader, start, lineEnd(p.src, start), "",
			"heading "+quote(textLine)+" looks like an event but does not start with evt-NNN: write it as \"### evt-NNN | YYYY-MM-DD HH:MM | agent | type\"")
	}
}

// text returns the text of a line as a substring of the source.
func (p *state) text(l srcLine) string { return p.s[l.off:l.end] }

func (p *state) line(off int) int {
	l, _ := p.lc.at(off)
	return l
}

// rangeOf builds the Range of [start, end) in the normalised source,
// with offsets mapped back to the original bytes.
func (p *state) rangeOf(start, end int) diag.Range {
	l, c := p.lc.at(start)
	el, ec := p.lc.at(end)
	return diag.Range{File: p.file, Line: l, Col: c, EndLine: el, EndCol: ec, Offset: p.orig(start), EndOffset: p.orig(end)}
}

func (p *state) openEvent(level int, header string, start int) {
	var e *Event
	if p.each != nil {
		e = &Event{Level: level, InLog: p.inLog || p.archive}
	} else {
		p.log.Events = append(p.log.Events, Event{Level: level, InLog: p.inLog || p.archive})
		e = &p.log.Events[len(p.log.Events)-1]
	}
	if !p.headersOnly {
		e.Fields = make([]Field, 0, 5) // the template's five fields
	}
	p.cur, p.field, p.listTo = e, -1, ""
	e.Range.Offset = start
	e.Range.Line = p.line(start)
	p.parseHeader(e, header, start)
}

func (p *state) closeEvent(next int) {
	e := p.cur
	if e == nil {
		return
	}
	p.cur = nil
	end := trimTail(p.src, e.Range.Offset, next)
	e.Text = p.s[e.Range.Offset:end]
	// The end is counted from the start, not through the cursor, which
	// has already moved past the trimmed tail.
	last := end
	if end > e.Range.Offset && p.src[end-1] == '\n' {
		last = end - 1 // end the range on the last line, not the next
	}
	e.Range = diag.Range{
		File: p.file, Line: e.Range.Line, Col: 1,
		EndLine:   e.Range.Line + bytes.Count(p.src[e.Range.Offset:last], []byte{'\n'}),
		EndCol:    last - (bytes.LastIndexByte(p.src[:last], '\n') + 1) + 1,
		Offset:    p.orig(e.Range.Offset),
		EndOffset: p.orig(end),
	}
	if p.each != nil {
		p.emit(e)
	}
}

// emit passes a complete streamed event on, or holds it back while it
// is not yet known whether the file has an Event Log section.
func (p *state) emit(e *Event) {
	if !e.InLog && !p.log.HasEventLog {
		p.pending = append(p.pending, e)
		return
	}
	if p.keep(e) {
		p.each(e)
	}
}

// flush decides the held-back events: called when the Event Log section
// appears (they are outside it) and at the end (there is none).
func (p *state) flush() {
	for _, e := range p.pending {
		if p.keep(e) {
			p.each(e)
		}
	}
	clear(p.pending)
	p.pending = p.pending[:0]
}

// trimTail drops trailing blank lines and thematic-break separators
// from [start, end), keeping the final newline.
func trimTail(src []byte, start, end int) int {
	for end > start {
		// find the start of the last line
		e := end
		if src[e-1] == '\n' {
			e--
		}
		s := bytes.LastIndexByte(src[start:e], '\n') + 1 + start
		if s == start {
			break // never trim the heading itself
		}
		line := bytes.TrimSpace(src[s:e])
		if len(line) == 0 || isBreak(line) {
			end = s
			continue
		}
		break
	}
	return end
}

func isBreak(line []byte) bool {
	if len(line) < 3 {
		return false
	}
	c := line[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for _, b := range line {
		switch b {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// orig maps an offset in the normalised source back to the original
// bytes (before the BOM was stripped and CRLF became LF).
func (p *state) orig(off int) int {
	n := 0
	if len(p.crlf) > 0 {
		lo, hi := 0, len(p.crlf)
		for lo < hi {
			m := (lo + hi) / 2
			if p.crlf[m] < off {
				lo = m + 1
			} else {
				hi = m
			}
		}
		n = lo
	}
	return off + n + p.bom
}

func (p *state) problem(k Kind, start, end int, evt, msg string) {
	r := p.rangeOf(start, end)
	p.log.Problems = append(p.log.Problems, Problem{Kind: k, Range: r, Event: evt, Message: msg})
}

// finish decides which evt headings are events: those inside the Event
// Log section, or all of them when the file has no such section (lint
// reports the missing section; replay still sees the events).
func (p *state) finish() {
	if p.each != nil {
		p.flush()
	} else {
		kept := p.log.Events[:0]
		for i := range p.log.Events {
			if p.keep(&p.log.Events[i]) {
				kept = append(kept, p.log.Events[i])
			}
		}
		clear(p.log.Events[len(kept):])
		p.log.Events = kept
	}
	sortProblems(p.log.Problems)
}

// keep reports whether e counts as an event, reporting why not, or a
// heading at the wrong level, as a problem.
func (p *state) keep(e *Event) bool {
	if e.ID == "" {
		return false // a malformed ID, already reported
	}
	if p.log.HasEventLog && !e.InLog {
		p.log.Problems = append(p.log.Problems, Problem{Kind: KindOutside, Range: e.Range, Event: e.ID,
			Message: e.ID + " is outside the \"## Event Log\" section: move it under that heading"})
		return false
	}
	if e.Level != 3 {
		p.log.Problems = append(p.log.Problems, Problem{Kind: KindLevel, Range: e.Range, Event: e.ID,
			Message: e.ID + " heading is level " + itoa(e.Level) + ", not 3: write it as \"### " + e.ID + " | ...\""})
	}
	return true
}
