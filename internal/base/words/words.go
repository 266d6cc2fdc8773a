// Package words counts words the one way memsys counts them: runs of
// non-space characters (unicode.IsSpace), as bytes.Fields splits, and,
// for a file an agent reads rendered, only outside HTML comments. It
// also spells counts in messages the one way (Plural: "1 event").
package words

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// Visible counts the whitespace-separated words of a markdown file as an
// agent reading it rendered sees them: HTML comments (the horizon and
// other bookkeeping) do not count. A comment runs from "<!--" to the
// first "-->" after it; one never closed is text, as a reader of the
// raw file would count it.
func Visible(src []byte) int {
	n := 0
	for len(src) > 0 {
		i := bytes.Index(src, []byte("<!--"))
		if i < 0 {
			break
		}
		j := bytes.Index(src[i+4:], []byte("-->"))
		if j < 0 {
			break
		}
		n += Count(src[:i])
		src = src[i+4+j+3:]
		// The comment stands for a space: words on either side of it
		// stay apart.
	}
	return n + Count(src)
}

// Count is len(bytes.Fields(b)) without building the slices.
func Count(b []byte) int {
	n, in := 0, false
	for i := 0; i < len(b); {
		c := b[i]
		var space bool
		if c < utf8.RuneSelf {
			space = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
			i++
		} else {
			r, size := utf8.DecodeRune(b[i:])
			space = unicode.IsSpace(r)
			i += size
		}
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}
