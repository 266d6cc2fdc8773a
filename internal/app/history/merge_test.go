package history

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

const head = "# Changelog\n\n## Event Log\n\n"

func ev(n int, summary string) string {
	return "### " + parse.FormatID(n, 3) + " | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: " + summary + "\n\n---\n\n"
}

func TestPureAppend(t *testing.T) {
	base := head + ev(1, "one")
	cases := []struct {
		next string
		want bool
	}{
		{base, true},
		{base + ev(2, "two"), true},
		{base + "\n\n---\n\n" + ev(2, "two"), true},
		{base + "**Tags**: late\n", false},            // the last event grew
		{strings.Replace(base, "one", "1", 1), false}, // an edit
		{base[:len(base)-1], false},                   // a cut
		{base + "## Notes\n", true},                   // a new section ends the event too
		{base + "#late\n", false},                     // text, not a heading: the last event grew
		{base + "#######  seven\n", false},            // seven #: text too
		{base + "#### Notes\n", false},                // a sub-heading inside the last event
		{base + "#### evt-002 | x\n", true},           // an event heading at any level
		{base + "\r\n### evt-002\r\n", true},          // CRLF
	}
	for i, c := range cases {
		if got := PureAppend([]byte(base), []byte(c.next)); got != c.want {
			t.Errorf("case %d: PureAppend = %v, want %v", i, got, c.want)
		}
	}
	if PureAppend([]byte("x"), []byte("x\n### evt-002")) {
		t.Error("an old version without a final newline: the next line joins its last line")
	}
}
