package parse

import (
	"strconv"
	"strings"
)

// The event ID is "evt-" (any case) and 1 to 9 decimal digits, not all
// zero: evt-001, evt-42, EVT-0100. This file is its only reader, so a
// header, a ref, a command-line argument and an event horizon agree on
// what names an event: "evt-+5" or "evt- 5" names none anywhere.

// MaxIDDigits is the most digits an event number may have.
const MaxIDDigits = 9

// MaxEventNum is the largest event number, MaxIDDigits nines: the event
// that has it can have no successor.
const MaxEventNum = 999_999_999

// idPrefix starts every event ID.
const idPrefix = "evt-"

// EventNum returns the number of the event ID id, and false when id is
// not an event ID.
func EventNum(id string) (int, bool) {
	n, msg := parseID(id)
	return n, msg == ""
}

// ArgNum reads an event named on the command line: an event ID, or its
// bare number ("5", "005"), as the kit's own scripts accept it. Only
// arguments use it; in the log an ID is always written evt-NNN.
func ArgNum(arg string) (int, bool) {
	if n, ok := EventNum(arg); ok {
		return n, true
	}
	if arg == "" || len(arg) > MaxIDDigits {
		return 0, false
	}
	for i := 0; i < len(arg); i++ {
		if arg[i] < '0' || arg[i] > '9' {
			return 0, false
		}
	}
	n, _ := strconv.Atoi(arg)
	return n, n > 0
}

// parseID checks "evt-" followed by 1 to 9 digits and returns the
// number, or a message saying what is wrong.
func parseID(id string) (int, string) {
	if len(id) <= len(idPrefix) || !strings.EqualFold(id[:len(idPrefix)], idPrefix) {
		return 0, "event ID " + quote(id) + " is not evt-NNN: number events evt-001, evt-002, ..."
	}
	digits := id[len(idPrefix):]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, "event ID " + quote(id) + " has characters other than digits after evt-: use evt-NNN"
		}
	}
	if len(digits) > MaxIDDigits {
		return 0, "event ID " + quote(id) + " has " + itoa(len(digits)) + " digits, at most 9 are allowed: use the next number after the last event"
	}
	n, _ := strconv.Atoi(digits)
	if n == 0 {
		return 0, "event ID " + quote(id) + " is zero: numbering starts at evt-001"
	}
	return n, ""
}

// NotIDHint says what to do about id, which a command was given as an
// event ID and EventNum refused: what is wrong when id has the evt-NNN
// form ("evt-0" is zero, "evt-99999999999" has too many digits), since
// "write evt-NNN" would not help there; else "write evt-NNN".
func NotIDHint(id string) string {
	if len(id) <= len(idPrefix) || !strings.EqualFold(id[:len(idPrefix)], idPrefix) {
		return "write evt-NNN"
	}
	digits := id[len(idPrefix):]
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return "write evt-NNN"
		}
	}
	if len(digits) > MaxIDDigits {
		return "it has " + itoa(len(digits)) + " digits, at most " + itoa(MaxIDDigits) + " are allowed"
	}
	if _, msg := parseID(id); msg != "" {
		return "numbering starts at evt-001" // all digits, not too many: zero
	}
	return "write evt-NNN"
}

// IDTooLong reports whether id would be an event ID but for having
// more than MaxIDDigits digits: a number past MaxEventNum, which the
// parser reports (KindID) and does not take as an event. A writer that
// numbers after the last event must not number below such a heading.
func IDTooLong(id string) bool {
	if len(id) <= len(idPrefix)+MaxIDDigits || !strings.EqualFold(id[:len(idPrefix)], idPrefix) {
		return false
	}
	for i := len(idPrefix); i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// FormatID writes event number n zero-padded to width digits (the seed
// numbers evt-001, so width is usually 3).
func FormatID(n, width int) string {
	s := strconv.Itoa(n)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return idPrefix + s
}

// SameEvent reports whether a and b name the same event: equal strings,
// or event IDs with the same number ("evt-7" and "evt-007").
func SameEvent(a, b string) bool {
	if a == b {
		return true
	}
	na, oka := EventNum(a)
	nb, okb := EventNum(b)
	return oka && okb && na == nb
}

// EventKey is the key under which a ref finds its event: "evt-N" for an
// event ID, so "evt-7" and "evt-007" share a key; any other text,
// trimmed and lower-cased, keys only itself.
func EventKey(id string) string {
	id = strings.TrimSpace(id)
	if n, ok := EventNum(id); ok {
		return idPrefix + strconv.Itoa(n)
	}
	return strings.ToLower(id)
}

// EventTypes are the seed's eleven event types, the archive event of
// its Archival Protocol, and commitment: a promise (seed 000), which
// stays an open loop until an event closes it.
var EventTypes = []string{
	"decision", "create", "modify", "delete", "test", "fix",
	"dependency", "blocker", "milestone", "escalation", "handoff", "archive",
	"commitment",
}

// IsEventType reports whether t is one of EventTypes.
func IsEventType(t string) bool {
	for _, x := range EventTypes {
		if x == t {
			return true
		}
	}
	return false
}

// ReplaceIDs returns text with event ID tokens replaced: for each one,
// repl gets its number and digit count and returns the replacement and
// whether to replace it. A token is an event ID as EventNum reads it,
// neither preceded nor followed by a letter, a digit, "-" or "_":
// "see evt-012." holds one, "my-evt-3" and "evt-12a" none. The merge
// driver renumbers refs and prose with it; comparisons blank IDs with
// it. text itself is returned when nothing is replaced.
func ReplaceIDs(text []byte, repl func(num, digits int) (string, bool)) []byte {
	var out []byte
	last := 0
	for i := 0; i+len(idPrefix) < len(text); i++ {
		if text[i]|0x20 != 'e' || !strings.EqualFold(string(text[i:i+len(idPrefix)]), idPrefix) || i > 0 && isIDByte(text[i-1]) {
			continue
		}
		j := i + len(idPrefix)
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j < len(text) && isIDByte(text[j]) {
			i = j
			continue
		}
		n, ok := EventNum(string(text[i:j]))
		if !ok {
			continue
		}
		if s, ok := repl(n, j-i-len(idPrefix)); ok {
			out = append(out, text[last:i]...)
			out = append(out, s...)
			last = j
		}
		i = j - 1
	}
	if out == nil {
		return text
	}
	return append(out, text[last:]...)
}

// isIDByte reports whether c continues a word an event ID cannot start
// or end inside.
func isIDByte(c byte) bool {
	return c == '-' || c == '_' || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}
