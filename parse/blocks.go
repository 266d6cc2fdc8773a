package parse

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// The event reader consumes a small block model rather than goldmark's
// AST directly, so that the canonical event shape can be recognised
// without building an AST (see fastBlocks) while every other input goes
// through goldmark. Both producers must give identical models; the fuzz
// target FuzzFastPath checks that on arbitrary input.

type blockKind uint8

const (
	bOther    blockKind = iota // code, HTML, quotes: part of an event's text, never fields
	bHeading                   // ATX or setext heading
	bPara                      // paragraph: field lines
	bList                      // bullet or ordered list: details
	bBreak                     // thematic break: separator
	bUnclosed                  // marker: a fence or HTML block open at EOF hides event headings
)

// srcLine is one line of a block: its offset in the normalised source
// (of the first byte of its content) and its text, trimmed.
type srcLine struct {
	off, end int
}

type item struct {
	off      int     // offset of the item's content (or marker, if empty)
	first    srcLine // the first line of its text; end == 0 when empty
	more     []srcLine
	children []item
}

type block struct {
	kind   blockKind
	level  int
	setext bool
	lines  []srcLine
	items  []item
	// quoted spans the content of a fenced code block or an HTML block
	// of kinds 1-5 (a comment, say), whose lines are text however they
	// look: a "<<<<<<<" line there quotes a conflict, it is not one.
	quoted srcLine
}

// goldmarkBlocks converts the top-level blocks of a goldmark document
// parsed from src[base:...] into the block model.
func goldmarkBlocks(doc ast.Node, src []byte, base int) []block {
	var out []block
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ast.Heading:
			bl := block{kind: bHeading, level: b.Level, lines: nodeLines(b, src, base)}
			start := base + max(b.Pos(), 0)
			if len(bl.lines) > 0 {
				start = bl.lines[0].off
			}
			ls := bytes.LastIndexByte(src[:start], '\n') + 1
			bl.setext = !bytes.HasPrefix(bytes.TrimLeft(src[ls:], " \t"), []byte("#"))
			if len(bl.lines) == 0 {
				bl.lines = []srcLine{{off: ls, end: ls}}
			}
			out = append(out, bl)
		case *ast.Paragraph:
			out = append(out, block{kind: bPara, lines: nodeLines(b, src, base)})
		case *ast.List:
			out = append(out, block{kind: bList, items: listItems(b, src, base)})
		case *ast.ThematicBreak:
			out = append(out, block{kind: bBreak})
		case *ast.FencedCodeBlock:
			out = append(out, block{kind: bOther, quoted: span(b, base)})
		case *ast.HTMLBlock:
			bl := block{kind: bOther}
			if b.HTMLBlockType <= ast.HTMLBlockType5 {
				bl.quoted = span(b, base)
			}
			out = append(out, bl)
		default:
			out = append(out, block{kind: bOther})
		}
	}
	return out
}

// span is the extent of n's lines in the source, empty when it has none.
func span(n ast.Node, base int) srcLine {
	l := n.Lines()
	if l.Len() == 0 {
		return srcLine{}
	}
	return srcLine{off: base + l.At(0).Start, end: base + l.At(l.Len()-1).Stop}
}

func listItems(l *ast.List, src []byte, base int) []item {
	var out []item
	for it := l.FirstChild(); it != nil; it = it.NextSibling() {
		var x item
		x.off = base + max(it.Pos(), 0)
		first := true
		for c := it.FirstChild(); c != nil; c = c.NextSibling() {
			switch b := c.(type) {
			case *ast.List:
				x.children = append(x.children, listItems(b, src, base)...)
			case *ast.Paragraph, *ast.TextBlock:
				ls := nodeLines(b, src, base)
				if first && len(ls) > 0 {
					x.off = ls[0].off
					x.first, ls = ls[0], ls[1:]
					first = false
				}
				x.more = append(x.more, ls...)
			}
		}
		out = append(out, x)
	}
	return out
}

func nodeLines(n ast.Node, src []byte, base int) []srcLine {
	l := n.Lines()
	out := make([]srcLine, 0, l.Len())
	for i := 0; i < l.Len(); i++ {
		s := l.At(i)
		out = append(out, segLine(src, base, s))
	}
	return out
}

func segLine(src []byte, base int, s text.Segment) srcLine {
	off, end := base+s.Start, base+s.Stop
	for off < end && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	for end > off && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r' || src[end-1] == '\n') {
		end--
	}
	return srcLine{off: off, end: end}
}
