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
func fastBlocks(out []block, a *blockArena, src []byte, start, end int) ([]block, bool) {
	var (
		para      *block
		paraFrom  int // para's first line in a.lines
		open      int // lists open, the outermost first
		lastBlank = true
	)
	a.flat = a.flat[:0]
	closeList := func() {
		if open > 0 {
			out = append(out, block{kind: bList, items: a.tree(a.flat, 0)})
			a.flat = a.flat[:0]
			open = 0
		}
	}
	// Tabs (column arithmetic), CR and NUL (goldmark's own line rules)
	// send a chunk to goldmark: one scan of the chunk for each costs
	// less than three per line, which were a tenth of a Parse.
	if c := src[start:end]; bytes.IndexByte(c, '\t') >= 0 || bytes.IndexByte(c, '\r') >= 0 || bytes.IndexByte(c, 0) >= 0 {
		return nil, false
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
			a.lines = append(a.lines, srcLine{off: off, end: off + len(body)})
			k := len(a.lines)
			out = append(out, block{kind: bHeading, level: n, lines: a.lines[k-1 : k : k]})
			first = false
			lastBlank = false
		case len(t) == 0:
			para = nil
			lastBlank = true
			pos = next
			continue
		case isBullet(t) || open > 0 && !lastBlank:
			ind := 0
			for ind < len(t) && t[ind] == ' ' {
				ind++
			}
			if !isBullet(t) || ind%2 != 0 {
				return nil, false // a lazy continuation line or odd indent
			}
			if open > 0 && lastBlank {
				return nil, false // a loose list: leave it to goldmark
			}
			content := t[ind+2:]
			if !plainStart(content) {
				return nil, false
			}
			depth := ind / 2
			if depth > open || (open == 0 && depth != 0) {
				return nil, false
			}
			if open == 0 {
				para = nil
			}
			// An item one level deeper than the open lists opens a child
			// list of the previous item; a shallower one closes lists.
			open = depth + 1
			a.flat = append(a.flat, flatItem{depth: depth, first: srcLine{off: pos + ind + 2, end: pos + len(t)}})
			lastBlank = false
		case len(t) == 3 && string(t) == "---":
			closeList()
			if !lastBlank {
				return nil, false // a setext underline
			}
			out = append(out, block{kind: bBreak})
			lastBlank = false
		default:
			if lastBlank && open > 0 {
				closeList()
			}
			if !plainStart(t) {
				return nil, false
			}
			if para == nil {
				out = append(out, block{kind: bPara})
				para = &out[len(out)-1]
				paraFrom = len(a.lines)
			}
			// The paragraph's lines are the last ones in a.lines: nothing
			// else takes lines until it ends.
			a.lines = append(a.lines, srcLine{off: pos, end: pos + len(t)})
			k := len(a.lines)
			para.lines = a.lines[paraFrom:k:k]
			lastBlank = false
		}
		pos = next
	}
	closeList()
	return out, true
}

// A blockArena holds the lines and list items of the blocks of one
// batch of chunks (see pipeline), so that reading the canonical event
// shape allocates nothing once the arena has grown: every block's
// lines and items are slices of it. The event reader copies what it
// keeps, so the arena is reset when the batch has been consumed.
type blockArena struct {
	lines []srcLine
	items []item
	flat  []flatItem // the items of the list being read, in order
}

// flatItem is a list item's one line (the item's offset too) and its
// nesting depth, from 0. It holds no pointer, so that appending one
// needs no write barrier while the collector runs.
type flatItem struct {
	depth int
	first srcLine
}

func (a *blockArena) reset() {
	a.lines, a.items = a.lines[:0], a.items[:0]
}

// tree returns the items of flat at depth as a list, each with the
// deeper items that follow it as its children: the nesting the item
// markers' indentation gives (fastBlocks has checked that each level is
// at most one deeper than the one before).
func (a *blockArena) tree(flat []flatItem, depth int) []item {
	n := 0
	for _, f := range flat {
		if f.depth == depth {
			n++
		}
	}
	if len(a.items)+n > cap(a.items) {
		// Items already handed out keep the old array.
		a.items = make([]item, 0, max(2*cap(a.items), n, 64))
	}
	at := len(a.items)
	a.items = a.items[:at+n]
	list := a.items[at : at+n : at+n]
	k := -1
	for i := 0; i < len(flat); {
		k++
		list[k] = item{off: flat[i].first.off, first: flat[i].first}
		j := i + 1
		for j < len(flat) && flat[j].depth > depth {
			j++
		}
		if j > i+1 {
			list[k].children = a.tree(flat[i+1:j], depth+1)
		}
		i = j
	}
	return list
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
