package parse

import "bytes"

// fastBlocks recognises the canonical event shape without goldmark: a
// chunk whose every line is an ATX heading (first line only), a blank
// line, a paragraph line, a "- " bullet (nested by exactly two spaces
// per level, no continuation lines) or a "---" after a blank line.
// Each of these shapes has one fixed CommonMark block structure, so the
// model built here equals goldmark's; anything else — a fence, HTML,
// quotes, indented code, ordered lists, setext underlines, loose lists,
// tabs — returns ok=false and the chunk goes to goldmark. FuzzFastPath
// compares the two on arbitrary input.
//
// This path exists for speed: it is what lets memsys parse a
// 100k-event log several times faster than goldmark builds its AST.
func fastBlocks(out []block, src []byte, start, end int) ([]block, bool) {
	var (
		para      *block
		stack     []*[]item // open lists, innermost last
		lastBlank = true
	)
	closeList := func() {
		if len(stack) > 0 {
			out = append(out, block{kind: bList, items: *stack[0]})
			stack = stack[:0]
		}
	}
	pos := start
	first := true
	for pos < end {
		le := bytes.IndexByte(src[pos:end], '\n')
		next := end
		if le < 0 {
			le = end
		} else {
			le += pos
			next = le + 1
		}
		line := src[pos:le]
		if bytes.IndexByte(line, '\t') >= 0 || bytes.IndexByte(line, '\r') >= 0 || bytes.IndexByte(line, 0) >= 0 {
			return nil, false
		}
		t := bytes.TrimRight(line, " ")
		switch {
		case first:
			// The chunk starts with an ATX heading (chunkStarts cut it).
			n := 0
			for n < len(t) && t[n] == '#' {
				n++
			}
			if n == 0 || n > 6 || (n < len(t) && t[n] != ' ') || bytes.HasSuffix(t, []byte("#")) && len(t) > n {
				return nil, false
			}
			body := bytes.TrimLeft(t[n:], " ")
			off := pos + (len(t) - len(body))
			if len(body) == 0 {
				off = pos
			}
			out = append(out, block{kind: bHeading, level: n, lines: []srcLine{{off: off, end: off + len(body)}}})
			first = false
			lastBlank = false
		case len(t) == 0:
			para = nil
			lastBlank = true
			pos = next
			continue
		case isBullet(t) || len(stack) > 0 && !lastBlank:
			ind := 0
			for ind < len(t) && t[ind] == ' ' {
				ind++
			}
			if !isBullet(t) || ind%2 != 0 {
				return nil, false // a lazy continuation line or odd indent
			}
			if len(stack) > 0 && lastBlank {
				return nil, false // a loose list: leave it to goldmark
			}
			content := t[ind+2:]
			if !plainStart(content) {
				return nil, false
			}
			depth := ind / 2
			if depth > len(stack) || (len(stack) == 0 && depth != 0) {
				return nil, false
			}
			if len(stack) == 0 {
				para = nil
				stack = append(stack, new([]item))
			}
			if depth == len(stack) {
				// a child list of the previous item at depth-1
				parent := stack[depth-1]
				last := &(*parent)[len(*parent)-1]
				stack = append(stack, &last.children)
			}
			stack = stack[:depth+1]
			lst := stack[depth]
			*lst = append(*lst, item{off: pos + ind + 2, first: srcLine{off: pos + ind + 2, end: pos + len(t)}})
			lastBlank = false
		case len(t) == 3 && string(t) == "---":
			closeList()
			if !lastBlank {
				return nil, false // a setext underline
			}
			out = append(out, block{kind: bBreak})
			lastBlank = false
		default:
			if lastBlank && len(stack) > 0 {
				closeList()
			}
			if !plainStart(t) {
				return nil, false
			}
			if para == nil {
				out = append(out, block{kind: bPara})
				para = &out[len(out)-1]
			}
			para.lines = append(para.lines, srcLine{off: pos, end: pos + len(t)})
			lastBlank = false
		}
		pos = next
	}
	closeList()
	return out, true
}

// plainStart reports whether a line (at column 0, or a list item's
// content) starting with t can only be paragraph text: no block marker
// of any kind can begin with these bytes.
func plainStart(t []byte) bool {
	if len(t) == 0 {
		return false
	}
	c := t[0]
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= 0x80:
		return true
	case c == '*':
		// "**Key**" is emphasis; "* x" a bullet; "***" a break.
		return len(t) > 2 && t[1] == '*' && t[2] != '*' && t[2] != ' '
	case c == '`':
		return !bytes.HasPrefix(t, []byte("``"))
	case c == '(' || c == '"' || c == '\'' || c == '/' || c == '.' || c == ',' || c == ':' || c == '@' || c == '$' || c == '%' || c == '&' || c == ';':
		return true
	}
	return false
}

// isBullet reports whether t is "- " plus content after an even
// indentation of spaces.
func isBullet(t []byte) bool {
	i := 0
	for i < len(t) && t[i] == ' ' {
		i++
	}
	return i+2 < len(t) && t[i] == '-' && t[i+1] == ' '
}
