package diag

import (
	"bytes"
	"sort"
)

// LineIndex maps byte offsets to 1-based line and column numbers. It is
// built once per file; lookups are a binary search, so positions for a
// 100k-event log cost O(log n) each rather than a rescan.
type LineIndex struct {
	starts []int32 // offset of the first byte of each line; int32 halves the index of a large log, and files are far below 2 GiB
	size   int
}

// NewLineIndex indexes src. Only '\n' ends a line: a CRLF file has the
// same line numbers as its LF twin.
func NewLineIndex(src []byte) *LineIndex {
	starts := make([]int32, 1, bytes.Count(src, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, int32(i))
	}
	return &LineIndex{starts: starts, size: len(src)}
}

// Position returns the 1-based line and column of offset.
func (x *LineIndex) Position(offset int) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > x.size {
		offset = x.size
	}
	i := sort.Search(len(x.starts), func(i int) bool { return int(x.starts[i]) > offset }) - 1
	return i + 1, offset - int(x.starts[i]) + 1
}

// LineStart returns the offset of the first byte of 1-based line n.
func (x *LineIndex) LineStart(n int) int {
	if n < 1 {
		return 0
	}
	if n > len(x.starts) {
		return x.size
	}
	return int(x.starts[n-1])
}

// Lines returns the number of lines.
func (x *LineIndex) Lines() int { return len(x.starts) }

// Range builds a Range for the byte span [start, end) of file.
func (x *LineIndex) Range(file string, start, end int) Range {
	l, c := x.Position(start)
	el, ec := x.Position(end)
	return Range{File: file, Line: l, Col: c, EndLine: el, EndCol: ec, Offset: start, EndOffset: end}
}
