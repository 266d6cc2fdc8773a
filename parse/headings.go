package parse

import (
	"strings"

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
