package parse

import "bytes"

// TailCut returns the offset of the earliest line of src from which
// the rest of src is known to parse alone exactly as it does at the end
// of the whole file, or -1 if there is none. src is the end of a file,
// starting at a line boundary; the bytes before it are not read.
//
// This is what lets append read the last kilobytes of a 100k-event log
// instead of all of it. A cut is offered only before a column-0 event
// heading ("### evt-...") that follows a blank line (so no paragraph
// or HTML block of kinds 6-7 runs into it), and only if no line from
// there to the end could open or close a fenced code block or any
// other HTML block: a fence, a line starting with '<', or a block ender
// such as "-->". A fence or comment opened above the cut must close
// below it (else it hides every later event, which the parser reports
// as KindUnclosed and lint as an error), and its closing line would be
// seen; balanced-looking blocks are refused too, because text inside a
// comment can look like a whole comment. The test is conservative: a
// caller that gets -1 reads more, or the whole file. One gap is
// accepted: a "<!X" declaration block (CommonMark kind 4) ends at any
// '>', which is too common in event text to refuse.
func TailCut(src []byte) int {
	prevBlank := false
	for pos := 0; pos < len(src); {
		end, next := lineBounds(src, pos)
		line := src[pos:end]
		if prevBlank && isEventHeadingLine(line) && cleanFrom(src[pos:]) {
			return pos
		}
		prevBlank = len(bytes.TrimSpace(line)) == 0
		pos = next
	}
	return -1
}

// CutsAt reports whether src, the end of a file from the line after a
// blank line, starts with an event heading from which the rest parses
// alone: TailCut's test for one given cut.
func CutsAt(src []byte) bool {
	end, _ := lineBounds(src, 0)
	return isEventHeadingLine(src[:end]) && cleanFrom(src)
}

// ClosesEvent reports whether line, without its line ending, is a
// column-0 ATX heading that ends the event above it (as state.heading
// decides): an event heading, or a heading of level 1 to 3. "#tag" is
// text and "#### Notes" a sub-heading: both continue the event.
func ClosesEvent(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	level := len(line) - len(bytes.TrimLeft(line, "#"))
	return level <= 3 || isEventHeadingLine(line)
}

// IsArchiveSection reports whether line, without its line ending, is
// a column-0 ATX heading of level 1 or 2 whose text starts with
// "archive": in an archive (Archive) it keeps the events after it in
// the log, as state.heading decides.
func IsArchiveSection(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	text := bytes.TrimLeft(line, "#")
	if len(line)-len(text) > 2 {
		return false
	}
	text = bytes.TrimSpace(text)
	return len(text) >= 7 && bytes.EqualFold(text[:7], []byte("archive"))
}

// lineBounds returns the end of the line at pos (without its '\n') and
// the start of the next one.
func lineBounds(src []byte, pos int) (end, next int) {
	if i := bytes.IndexByte(src[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(src), len(src)
}

// isEventHeadingLine reports whether line is a column-0 ATX heading
// whose text starts with "evt-".
func isEventHeadingLine(line []byte) bool {
	if len(line) == 0 || line[0] != '#' || !isATXHeading(line) {
		return false
	}
	t := bytes.TrimLeft(bytes.TrimLeft(line, "#"), " \t")
	return len(t) >= 4 && bytes.EqualFold(t[:4], []byte("evt-"))
}

// cleanFrom reports whether no line of src could open or close a
// fenced code block or an HTML block (kind 4 aside, see TailCut).
func cleanFrom(src []byte) bool {
	if !bytes.Contains(src, []byte("``")) && !bytes.Contains(src, []byte("~~")) && bytes.IndexByte(src, '<') < 0 && bytes.IndexByte(src, '>') < 0 {
		return true // the common case: one pass of memchr-speed scans
	}
	for pos := 0; pos < len(src); {
		end, next := lineBounds(src, pos)
		line := src[pos:end]
		pos = next
		if bytes.Contains(line, []byte("```")) || bytes.Contains(line, []byte("~~~")) || closesUnopened(line) {
			return false
		}
		if _, rest := indent(line); len(rest) > 0 && rest[0] == '<' {
			return false
		}
	}
	return true
}

// closesUnopened reports whether line holds an ender of an HTML block
// of kinds 1-3 or 5 (kind 4, "<!X", is left out: its ender is any
// '>'); outside such a block, one means the text may have started
// inside it.
func closesUnopened(line []byte) bool {
	if bytes.IndexByte(line, '>') < 0 {
		return false
	}
	for _, k := range []int{1, 2, 3, 5} {
		if htmlBlockEnds(k, line) {
			return true
		}
	}
	return false
}
