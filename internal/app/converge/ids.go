package converge

import "github.com/memsys/memsys/parse"

// idWidth is the digit count of the widest ID of events, at least 3.
func idWidth(ids ...string) int {
	w := 3
	for _, id := range ids {
		w = max(w, len(id)-len("evt-"))
	}
	return w
}

// idAt reports whether an event ID token starts at b[i]: an ID as
// parse reads it ("evt-", any case, and 1 to 9 digits, not all zero), neither preceded nor followed by a letter,
// digit, "-" or "_", so "my-evt-3" and "evt-12a" are left alone. It
// returns the end of the token and its number.
func idAt(b []byte, i int) (end, num int, ok bool) {
	if i+5 > len(b) || !eqFold4(b[i:i+4], "evt-") {
		return 0, 0, false
	}
	if i > 0 && isWordByte(b[i-1]) {
		return 0, 0, false
	}
	j := i + 4
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == i+4 || j-(i+4) > 9 || (j < len(b) && (isWordByte(b[j]))) {
		return 0, 0, false
	}
	n, ok := parse.EventNum(string(b[i:j]))
	if !ok {
		return 0, 0, false
	}
	return j, n, true
}

func eqFold4(b []byte, s string) bool {
	for k := 0; k < 4; k++ {
		c := b[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[k] {
			return false
		}
	}
	return true
}

func isWordByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}

// rewriteIDs returns text with every event ID token (see idAt) whose
// number is in to replaced by formatID of the new number: the event's
// own heading, its **Refs**, and any mention in its details or other
// fields. Tokens naming other numbers are kept byte for byte.
func rewriteIDs(text []byte, to map[int]int, width int) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != 'e' && text[i] != 'E' {
			continue
		}
		end, n, ok := idAt(text, i)
		if !ok {
			continue
		}
		nn, moved := to[n]
		if moved {
			out = append(out, text[last:i]...)
			out = append(out, parse.FormatID(nn, max(width, end-i-4))...)
			last = end
		}
		i = end - 1
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}
