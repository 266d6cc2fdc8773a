// Package jsontext checks that JSON input is text memsys can keep as it
// was sent. Go's decoder reads a byte that is not UTF-8, and a \u escape
// of half a UTF-16 surrogate pair, as U+FFFD without an error: an event
// sent that way (by an agent over MCP, or on append --json's stdin)
// would reach the log with its characters silently replaced.
package jsontext

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Problem says what makes b no text memsys can keep as sent, as a
// predicate with its fix ("is not valid UTF-8 (byte 0xe9 at offset 7):
// send UTF-8 text ..."), for the caller to put after its name for b;
// "" when nothing does. A surrogate escape is only looked for inside
// strings, and a whole pair (an emoji) is one character.
func Problem(b []byte) string {
	if !utf8.Valid(b) {
		i := 0
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Sprintf("is not valid UTF-8 (byte 0x%02x at offset %d): send UTF-8 text (convert it from its encoding, e.g. Latin-1)", b[i], i)
	}
	inString := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(b):
			i++
			if b[i] != 'u' {
				continue
			}
			r, ok := escapedRune(b[i+1:])
			if !ok || !utf16.IsSurrogate(r) {
				continue
			}
			if r < 0xdc00 && i+6 < len(b) && b[i+5] == '\\' && b[i+6] == 'u' {
				if lo, ok := escapedRune(b[i+7:]); ok && lo >= 0xdc00 && lo <= 0xdfff {
					i += 10 // the pair: one character
					continue
				}
			}
			return fmt.Sprintf("holds %s at offset %d, half of a UTF-16 surrogate pair (a string cut inside a character?): send whole characters", b[i-1:i+5], i-1)
		}
	}
	return ""
}

// escapedRune reads the 4 hex digits of a \u escape at the start of b.
func escapedRune(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(n), err == nil
}
