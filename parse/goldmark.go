package parse

import (
	"bytes"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// This file is the goldmark path: a chunk the fast recogniser
// (fast.go) does not take is parsed by goldmark, grown until it does not
// end inside a fenced code or HTML block.

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
		// "evt-" in any case, as an event heading is read (assemble).
		if t = bytes.TrimLeft(t, " "); len(t) < len(bytes.TrimLeft(line, " ")) && len(t) >= 4 && bytes.EqualFold(t[:4], []byte("evt-")) {
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

// hidesHeading reports whether a line of chunk after its first may be
// a heading that reading the first line alone misses: chunks are cut
// only before column-0 headings, so it is an ATX heading indented by
// one to three spaces ("  ### evt-003 | ..."), or a setext underline,
// a run of '=' or '-' (isUnderline) right below a line that is not
// blank ("Notes" over "-----"). A headers-only parse must then read the
// chunk's body: it ran the event before on past an indented event
// heading, so append numbered that event's ID again and status counted
// one event less, and past a setext heading inside an event (KindCut),
// so status, which hashes the events for the seal, called the files
// regen had just written stale. A thematic break after a blank line
// (the "---" between events) is no underline.
func hidesHeading(chunk []byte) bool {
	prev, pos := 0, 0 // the previous line's start, the line's
	for pos < len(chunk) {
		i := bytes.IndexByte(chunk[pos:], '\n')
		if i < 0 {
			i = len(chunk) - pos
		}
		line := chunk[pos : pos+i]
		k := 0
		for k < len(line) && k < 3 && line[k] == ' ' {
			k++
		}
		// Only a line that starts so is looked at again: most lines of
		// a log do not, and status reads them all.
		if pos > 0 && k < len(line) {
			switch c := line[k]; {
			case c == '#' && k > 0:
				return true
			case (c == '=' || c == '-') && isUnderline(bytes.TrimRight(line[k:], "\r")) && len(bytes.TrimSpace(chunk[prev:pos])) > 0:
				return true
			}
		}
		prev, pos = pos, pos+i+1
	}
	return false
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
