package jsontext

import (
	"strings"
	"testing"
)

// TestProblem: the texts refused, and the ones let through: a whole
// surrogate pair is one character, an escaped backslash before "ud83d"
// no escape at all, and a \u outside a string is no concern of ours.
func TestProblem(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":"plain \u00e9 \ud83d\ude00 \\ud83d"}`, ""},
		{`{"a":"cut \ud83d"}`, `holds \ud83d at offset 10, half of a UTF-16 surrogate pair (a string cut inside a character?): send whole characters`},
		{`{"a":"low \uDE00 first"}`, `holds \uDE00 at offset 10, half`},
		{`{"a":"two highs \ud83d\ud83d"}`, `holds \ud83d at offset 16, half`},
		{`{"a":"pair cut at the end \ud83d\u`, `holds \ud83d at offset 26, half`},
		{"{\"a\":\"x\xe9y\"}", `is not valid UTF-8 (byte 0xe9 at offset 7): send UTF-8 text`},
		{"{\"a\":\"ok\"}\xff", `is not valid UTF-8 (byte 0xff at offset 10)`},
		{`{"k\ud800":1}`, `holds \ud800 at offset 3, half`},
		{`\ud800`, ""},
	} {
		if got := Problem([]byte(tc.in)); !strings.HasPrefix(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
	}
}
