package materialize

import (
	"bytes"
	"strings"

	"github.com/memsys/memsys/parse"
)

// FindHorizon finds the event horizon that RenderGraph and
// RenderContext write ("- **Event horizon**: evt-042", "Event horizon:
// evt-042" in a comment) in a derived file as it is on disk, perhaps
// edited by hand: the first "event horizon" (any case, with a space,
// '_' or '-' between the words) and the first evt-N after it on the
// same line. id is "" when that line names no event; line is 0 when
// there is no horizon at all. The seed's Staleness Check compares
// exactly this with the last event.
func FindHorizon(src []byte) (id string, line int) {
	at := findFold(src, "horizon", func(i int) bool {
		const ev = "event"
		return i > len(ev) && strings.EqualFold(string(src[i-len(ev)-1:i-1]), ev) &&
			(src[i-1] == ' ' || src[i-1] == '_' || src[i-1] == '-')
	})
	if at < 0 {
		return "", 0
	}
	line = bytes.Count(src[:at], []byte{'\n'}) + 1
	rest := src[at+len("horizon"):]
	if e := bytes.IndexByte(rest, '\n'); e >= 0 {
		rest = rest[:e]
	}
	j := findFold(rest, "evt-", func(int) bool { return true })
	if j < 0 {
		return "", line
	}
	k := j + len("evt-")
	for k < len(rest) && rest[k] >= '0' && rest[k] <= '9' {
		k++
	}
	return string(rest[j:k]), line
}

// Fresh is the seed's Staleness Check, the one verdict lint and status
// share: a derived file whose event horizon (FindHorizon's id and line)
// names last, the last event of the history ("" when it has none), is
// fresh. IDs compare by number, so horizon evt-8 is fresh for a last
// event evt-008. A file without a horizon is fresh only while the
// history is empty.
func Fresh(horizon string, line int, last string) bool {
	if line == 0 {
		return last == ""
	}
	return parse.SameEvent(horizon, last)
}

// Ahead reports whether horizon names a later event than last: the
// derived file was written from events the history no longer has (they
// were removed from the log, or the file is another branch's). regen
// would drop what they recorded, so lint and status say so.
func Ahead(horizon, last string) bool {
	h, ok1 := parse.EventNum(horizon)
	l, ok2 := parse.EventNum(last)
	return ok1 && ok2 && h > l
}

// findFold returns the first index of word (lower-case ASCII) in src,
// in any case, where ok accepts it; -1 if none. It jumps between
// occurrences of the first letter in either case, so a large graph.md
// is scanned at memchr speed rather than lowered byte by byte.
func findFold(src []byte, word string, ok func(i int) bool) int {
	lo, up := word[0], word[0]-'a'+'A'
	nextLo, nextUp := -2, -2 // -2: not searched yet
	for from := 0; from < len(src); {
		if nextLo != -1 && nextLo < from {
			nextLo = index(src, from, lo)
		}
		if nextUp != -1 && nextUp < from {
			nextUp = index(src, from, up)
		}
		i := nextLo
		if i < 0 || nextUp >= 0 && nextUp < i {
			i = nextUp
		}
		if i < 0 {
			return -1
		}
		if i+len(word) <= len(src) && strings.EqualFold(string(src[i:i+len(word)]), word) && ok(i) {
			return i
		}
		from = i + 1
	}
	return -1
}

// index is bytes.IndexByte from an offset, as an absolute index.
func index(src []byte, from int, c byte) int {
	if i := bytes.IndexByte(src[from:], c); i >= 0 {
		return from + i
	}
	return -1
}
