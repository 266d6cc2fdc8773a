package converge

import (
	"bytes"

	"github.com/memsys/memsys/parse"
)

// idWidth is the digit count of the widest ID of events, at least 3.
func idWidth(ids ...string) int {
	w := 3
	for _, id := range ids {
		if _, ok := parse.EventNum(id); ok {
			w = max(w, len(id)-len("evt-"))
		}
	}
	return w
}

// rewriteIDs returns text with every event ID token (parse.ReplaceIDs)
// whose number is in to replaced by the new number, at least width
// digits: the event's own heading, its **Refs**, and any mention in its
// details or other fields. Tokens naming other numbers are kept byte
// for byte.
func rewriteIDs(text []byte, to map[int]int, width int) []byte {
	return parse.ReplaceIDs(text, func(n, digits int) (string, bool) {
		nn, ok := to[n]
		if !ok {
			return "", false
		}
		return parse.FormatID(nn, max(width, digits)), true
	})
}

// blankIDs replaces every ID token of body with "evt-#", so an event
// and its renumbered copy compare equal.
func blankIDs(body []byte) []byte {
	return normalizeEOL(parse.ReplaceIDs(body, func(int, int) (string, bool) { return "evt-#", true }))
}

// idToken returns the ID at the start of an event heading.
func idToken(body []byte) []byte {
	i := bytes.IndexFunc(body, func(r rune) bool { return r != '#' && r != ' ' })
	if i < 0 {
		return nil
	}
	j := i
	for j < len(body) && (body[j] == '-' || body[j] >= '0' && body[j] <= '9' || body[j]|0x20 >= 'a' && body[j]|0x20 <= 'z') {
		j++
	}
	if _, ok := parse.EventNum(string(body[i:j])); !ok {
		return nil
	}
	return body[i:j]
}
