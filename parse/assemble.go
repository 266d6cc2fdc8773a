package parse

import (
	"bytes"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
)

// This file assembles events from the block model: headings open and
// close events and sections, paragraphs and lists become fields and
// details (fields.go), and finished events are kept or streamed.

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
			if len(p.conflicts) > 0 && b.quoted.end > b.quoted.off {
				p.quote(b.quoted)
			}
		}
	}
}

// quote drops the conflict markers found inside q, the content of a
// code block or comment: they are quoted, not left by a merge.
func (p *state) quote(q srcLine) {
	kept := p.conflicts[:0]
	for _, c := range p.conflicts {
		if c.at < q.off || c.at >= q.end {
			kept = append(kept, c)
		}
	}
	p.conflicts = kept
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
	open := p.cur
	p.closeEvent(start)
	if isEvt {
		if c := p.cut; c != nil && !p.inLog && c.event != "" {
			// The "## heading" that ended the section was text inside
			// an event: one finding at the heading, naming the event it
			// cut, and the log goes on, so later events are not each
			// reported as outside it.
			p.problem(KindCut, c.start, lineEnd(p.src, c.start), c.event,
				"heading "+quote(c.text)+" inside "+c.event+" ends the \"## Event Log\" section, so the events after it are outside the log: make it \"#### "+c.text+"\" or plain text")
			p.inLog = true
		}
		p.cut = nil
		p.openEvent(h.level, textLine, start)
		return
	}
	if h.level <= 2 {
		name := strings.ToLower(strings.TrimSpace(textLine))
		wasIn := p.inLog
		p.inLog = name == "event log" || name == "events" ||
			(p.archive && strings.HasPrefix(name, "archive"))
		if wasIn && !p.inLog && p.log.HasEventLog && p.cut == nil {
			// Maybe the end of the log, maybe a heading written inside
			// an event: decided by whether an event heading follows.
			// A heading that closed no event (a "### Notes" heading or
			// nothing but text came between it and the last event) cut
			// none: it is the end of the log all the same, where append
			// would write if no event follows, but events after it are
			// outside the log, not in an event it cut.
			c := &cutHeading{start: start, text: strings.TrimSpace(textLine), level: h.level}
			if open != nil {
				c.event = open.ID
			}
			p.cut = c
		} else if p.inLog {
			p.cut = nil
		}
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

func (p *state) openEvent(level int, header string, start int) {
	var e *Event
	if p.each != nil {
		e = p.newEvent()
	} else {
		if n := len(p.log.Events); n < cap(p.log.Events) {
			// run made room for every event and nothing has written
			// past the length yet: the room is zero, and appending a
			// zero Event cleared it again, with write barriers.
			p.log.Events = p.log.Events[:n+1]
		} else {
			p.log.Events = append(p.log.Events, Event{})
		}
		e = &p.log.Events[len(p.log.Events)-1]
		if !p.headersOnly {
			if len(p.fieldChunk) >= 5 {
				e.Fields = p.fieldChunk[:0:5] // the template's five fields
				p.fieldChunk = p.fieldChunk[5:]
			} else {
				e.Fields = make([]Field, 0, 5)
			}
		}
	}
	e.Level, e.InLog = level, p.inLog || p.archive
	p.cur, p.field, p.listTo, p.keys = e, -1, "", 0
	e.Range.Offset = start
	e.Range.Line = p.line(start)
	p.parseHeader(e, header, start)
}

// eventCell is a streamed event with room for the template's five
// fields, so that the two come in one allocation.
type eventCell struct {
	e Event
	f [5]Field
}

// cellSlab is how many streamed events are allocated at a time: one
// allocation per slab instead of two per event. A consumer that keeps
// one event keeps its slab alive, which for the consumers that keep
// none (replay, lint) costs nothing.
const cellSlab = 16

// newEvent returns a new empty event for a stream.
func (p *state) newEvent() *Event {
	if p.headersOnly {
		return &Event{}
	}
	if len(p.cells) == 0 {
		p.cells = p.slab().cells[:]
	}
	c := &p.cells[0]
	p.cells = p.cells[1:]
	c.e.Fields = c.f[:0:len(c.f)]
	return &c.e
}

func (p *state) closeEvent(next int) {
	e := p.cur
	if e == nil {
		return
	}
	p.cur = nil
	end := trimTail(p.src, e.Range.Offset, next)
	e.Text = p.s[e.Range.Offset:end]
	last := end
	if end > e.Range.Offset && p.src[end-1] == '\n' {
		last = end - 1 // end the range on the last line, not the next
	}
	// The cursor has counted the lines up to the event's last field or
	// detail: it counts on from there, so each byte is counted once.
	// When it has already moved past the trimmed tail (a problem on the
	// last line), the end is counted from the start instead.
	var endLine int
	if p.lc.off <= last {
		endLine = p.line(last)
	} else {
		endLine = e.Range.Line + bytes.Count(p.src[e.Range.Offset:last], []byte{'\n'})
	}
	e.Range = diag.Range{
		File: p.file, Line: e.Range.Line, Col: 1,
		EndLine:   endLine,
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
		p.hand(e)
	}
}

// hand passes a kept event to each, counting it for Reuse.
func (p *state) hand(e *Event) {
	p.handed++
	p.each(e)
}

// flush decides the held-back events: called when the Event Log section
// appears (they are outside it) and at the end (there is none).
func (p *state) flush() {
	for _, e := range p.pending {
		if p.keep(e) {
			p.hand(e)
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

// TrimSeparators returns end moved back over the blank lines and
// thematic breaks ("---") that close src[start:end], to start when
// there is nothing else: the separators that may follow an event. Any
// line ending (LF, CRLF, a lone CR) ends a line.
func TrimSeparators(src []byte, start, end int) int {
	for end > start {
		e := end
		if src[e-1] == '\n' {
			e--
		}
		if e > start && src[e-1] == '\r' {
			e--
		}
		s := start
		if i := bytes.LastIndexAny(src[start:e], "\r\n"); i >= 0 {
			s = start + i + 1
		}
		if line := bytes.TrimSpace(src[s:e]); len(line) > 0 && !isBreak(line) {
			break
		}
		end = s
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
			if !p.keep(&p.log.Events[i]) {
				continue
			}
			// Until an event is dropped every one stays where it is:
			// copying each onto itself cost 5% of a Parse (the write
			// barriers of a 400-byte struct of strings and slices).
			if len(kept) < i {
				kept = append(kept, p.log.Events[i])
			} else {
				kept = kept[:i+1]
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
