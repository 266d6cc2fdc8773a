package parse

import (
	"bytes"

	"github.com/memsys/memsys/internal/base/diag"
)

// This file maps offsets in the normalised source to lines, columns
// and offsets of the original bytes.

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

// lineAt is at without the column, which the line of every field and
// detail does not need.
func (c *lineCursor) lineAt(off int) int {
	off = min(max(off, 0), len(c.src))
	if off < c.off {
		l, _ := c.at(off)
		return l
	}
	c.line += bytes.Count(c.src[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
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

// text returns the text of a line as a substring of the source.
func (p *state) text(l srcLine) string { return p.s[l.off:l.end] }

func (p *state) line(off int) int { return p.lc.lineAt(off) }

// rangeOf builds the Range of [start, end) in the normalised source,
// with offsets mapped back to the original bytes.
func (p *state) rangeOf(start, end int) diag.Range {
	l, c := p.lc.at(start)
	el, ec := p.lc.at(end)
	return diag.Range{File: p.file, Line: l, Col: c, EndLine: el, EndCol: ec, Offset: p.orig(start), EndOffset: p.orig(end)}
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
