package parse

import "bytes"

// normalize strips a leading UTF-8 BOM, turns CRLF into LF and a lone
// CR into LF (CommonMark counts all three as line endings), so CRLF,
// BOM and clean LF input parse identically. It returns the normalised
// bytes, the BOM length, and the normalised offsets of every LF whose
// CR was removed (sorted), which origOffset uses to map positions back
// to the original bytes.
func normalize(src []byte) (out []byte, bom int, crlf []int) {
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		src, bom = src[3:], 3
	}
	if bytes.IndexByte(src, '\r') < 0 {
		return src, bom, nil
	}
	out = make([]byte, 0, len(src))
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' {
			if i+1 < len(src) && src[i+1] == '\n' {
				crlf = append(crlf, len(out))
				continue
			}
			out = append(out, '\n') // same length: offsets unchanged
			continue
		}
		out = append(out, src[i])
	}
	return out, bom, crlf
}

// chunkStarts returns the offsets at which src can be cut into pieces
// that goldmark parses independently with the same block structure as
// the whole file. A cut is made only before a column-0 ATX heading line
// that is outside any fenced code block or HTML block: such a line
// closes every open container (a heading is never a lazy continuation
// line) and interrupts a paragraph, so nothing before it can change how
// it or anything after it parses (CommonMark 0.31, sections 4.2, 5.1,
// 5.2). Fences and HTML blocks are tracked conservatively: any line that
// could open one is treated as opening one. A cut the scanner gets
// wrong anyway (a fence it thinks closed) is caught by endsOpen and
// undone. Offset 0 is always the first start. long is the offset of the
// first line over MaxLineLength, or -1: this is the one pass over every
// line, so it checks that too.
func chunkStarts(src []byte) (starts []int, long int) {
	// Every event starts a chunk; an event is rarely under 256 bytes,
	// so this is about the final size, not a series of copies of it.
	starts = make([]int, 1, 64+len(src)/256)
	var (
		inFence   bool
		fenceChar byte
		fenceLen  int
		htmlEnd   int // 0: none; 1-5: CommonMark HTML block kinds; 6: ends at blank line
	)
	for pos := 0; pos < len(src); {
		end := bytes.IndexByte(src[pos:], '\n')
		next := len(src)
		if end < 0 {
			end = len(src)
		} else {
			end += pos
			next = end + 1
		}
		line := src[pos:end]
		if len(line) > MaxLineLength {
			return starts, pos
		}
		switch {
		case inFence:
			if isClosingFence(line, fenceChar, fenceLen) {
				inFence = false
			}
		case htmlEnd != 0:
			if htmlBlockEnds(htmlEnd, line) {
				htmlEnd = 0
			}
		default:
			if pos > 0 && len(line) > 0 && line[0] == '#' && isATXHeading(line) {
				starts = append(starts, pos)
				break
			}
			if len(line) == 0 || !mayOpenBlock(line[0]) {
				break
			}
			if c, n, ok := openingFence(line); ok {
				inFence, fenceChar, fenceLen = true, c, n
				break
			}
			if k := htmlBlockStart(line); k != 0 {
				htmlEnd = k
				// Kinds 1-5 may close on their opening line.
				if k <= 5 && htmlBlockEnds(k, line[1:]) {
					htmlEnd = 0
				}
			}
		}
		pos = next
	}
	return starts, -1
}

// mayOpenBlock reports whether a line starting with c may open a fenced
// code block or an HTML block: only after indentation, or with a fence
// character or '<'. Most lines start with a letter or a marker and are
// ruled out before openingFence and htmlBlockStart measure their
// indentation.
func mayOpenBlock(c byte) bool {
	return c == ' ' || c == '\t' || c == '`' || c == '~' || c == '<'
}

// isATXHeading reports whether line (starting with '#') opens an ATX
// heading: 1-6 '#' then a space, tab or end of line.
func isATXHeading(line []byte) bool {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n > 6 {
		return false
	}
	return n == len(line) || line[n] == ' ' || line[n] == '\t'
}

// indent returns the number of leading spaces (a tab counts as enough
// to reach 4) and the rest of the line.
func indent(line []byte) (int, []byte) {
	n := 0
	for i, b := range line {
		switch b {
		case ' ':
			n++
		case '\t':
			n += 4 - n%4
		default:
			return n, line[i:]
		}
	}
	return n, nil
}

func openingFence(line []byte) (byte, int, bool) {
	ind, rest := indent(line)
	if ind > 3 || len(rest) < 3 || (rest[0] != '`' && rest[0] != '~') {
		return 0, 0, false
	}
	c := rest[0]
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if c == '`' && bytes.IndexByte(rest[n:], '`') >= 0 {
		return 0, 0, false
	}
	return c, n, true
}

func isClosingFence(line []byte, c byte, min int) bool {
	ind, rest := indent(line)
	if ind > 3 {
		return false
	}
	n := 0
	for n < len(rest) && rest[n] == c {
		n++
	}
	if n < min {
		return false
	}
	return len(bytes.TrimRight(rest[n:], " \t\r")) == 0
}

// htmlBlockStart classifies a line that may open an HTML block. Kinds
// 1-5 follow CommonMark; every other line starting with '<' is treated
// as kind 6 (ends at a blank line), which over-approximates kinds 6 and
// 7 and so can only suppress cuts.
func htmlBlockStart(line []byte) int {
	ind, rest := indent(line)
	if ind > 3 || len(rest) < 2 || rest[0] != '<' {
		return 0
	}
	lower := bytes.ToLower(rest[:min(len(rest), 12)])
	for _, t := range []string{"<script", "<pre", "<style", "<textarea"} {
		if bytes.HasPrefix(lower, []byte(t)) {
			after := rest[len(t):]
			if len(after) == 0 || after[0] == ' ' || after[0] == '\t' || after[0] == '>' || after[0] == '\r' {
				return 1
			}
		}
	}
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return 2
	case bytes.HasPrefix(rest, []byte("<?")):
		return 3
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		return 5
	case len(rest) > 2 && rest[1] == '!' && isASCIILetter(rest[2]):
		return 4
	}
	return 6
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

var htmlEnders = [...][]string{
	1: {"</script>", "</pre>", "</style>", "</textarea>"},
	2: {"-->"},
	3: {"?>"},
	4: {">"},
	5: {"]]>"},
}

func htmlBlockEnds(kind int, line []byte) bool {
	if kind == 6 {
		return len(bytes.TrimSpace(line)) == 0
	}
	if kind == 1 {
		line = bytes.ToLower(line)
	}
	for _, e := range htmlEnders[kind] {
		if bytes.Contains(line, []byte(e)) {
			return true
		}
	}
	return false
}
