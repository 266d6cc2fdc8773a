package parse

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"

	"github.com/memsys/memsys/internal/base/diag"
)

// Heading is one top-level heading of a markdown document.
type Heading struct {
	Level int
	Text  string // the heading's text, without the # markers
	Line  int    // 1-based line of its first line
}

// Headings returns the top-level headings (ATX and setext) of any
// markdown document, such as AGENTS.md or the tail of a log, read
// through goldmark's block structure like the events are: a heading
// inside fenced or indented code, an HTML block or a comment is text.
// CRLF and a BOM read like clean LF input.
func Headings(src []byte) []Heading {
	norm, _, _ := normalize(src)
	idx := diag.NewLineIndex(norm)
	doc := blockParser().Parse(text.NewReader(norm))
	var out []Heading
	for _, b := range goldmarkBlocks(doc, norm, 0) {
		if b.kind != bHeading {
			continue
		}
		parts := make([]string, len(b.lines))
		for i, l := range b.lines {
			parts[i] = string(norm[l.off:l.end])
		}
		line, _ := idx.Position(b.lines[0].off)
		out = append(out, Heading{Level: b.level, Text: strings.Join(parts, " "), Line: line})
	}
	return out
}

// OpenBlockLine returns the 1-based line where a fenced code block or
// an HTML block of kinds 1-5 (a comment, say) opens that is still open
// at the end of src, or 0 when there is none. Anything added after src
// would be inside that block: an event heading appended there would be
// code, not an event (the block is KindUnclosed once it hides one).
// Kinds 6 and 7 end at a blank line, which an append writes first, so
// they do not count. src should start at a top-level block, such as an
// event heading.
func OpenBlockLine(src []byte) int {
	norm, _, _ := normalize(src)
	if !hasOpener(norm) {
		return 0
	}
	doc := blockParser().Parse(text.NewReader(norm))
	last := doc.LastChild()
	if last == nil || !endsOpen(doc, norm) {
		return 0
	}
	if h, ok := last.(*ast.HTMLBlock); ok {
		if h.HTMLBlockType > ast.HTMLBlockType5 {
			return 0
		}
		// goldmark records no closure when the ender is on the opening
		// line ("<!-- note -->"): such a block is closed.
		if l := h.Lines(); l.Len() == 1 && htmlBlockEnds(int(h.HTMLBlockType), norm[l.At(0).Start:l.At(0).Stop]) {
			return 0
		}
	}
	line, _ := diag.NewLineIndex(norm).Position(max(last.Pos(), 0))
	return line
}
