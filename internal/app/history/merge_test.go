package history

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/lint"
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
		if got := lint.PureAppend([]byte(base), []byte(c.next)); got != c.want {
			t.Errorf("case %d: lint.PureAppend = %v, want %v", i, got, c.want)
		}
	}
	if lint.PureAppend([]byte("x"), []byte("x\n### evt-002")) {
		t.Error("an old version without a final newline: the next line joins its last line")
	}
}

// TestAddedClean checks when an appended block leaves the new version's
// end closed without a parse: in an archive, events may follow the
// "## Archive: ..." section heading an archive move writes; nothing else
// may come before the first event heading.
func TestAddedClean(t *testing.T) {
	old := head + ev(1, "one")
	section := "\n## Archive: evt-002 through evt-002 | Archived 2026-01-02\n\n"
	for _, c := range []struct {
		name, rest string
		archive    bool
		want       bool
	}{
		{"events", ev(2, "two"), false, true},
		{"nothing", "", false, true},
		{"separators only", "\n---\n\n", false, true},
		{"archive section", section + ev(2, "two"), true, true},
		{"archive section, CRLF", strings.ReplaceAll(section+ev(2, "two"), "\n", "\r\n"), true, true},
		{"archive section in the log", section + ev(2, "two"), false, false},
		{"archive section without events", section, true, false},
		{"another section", "\n## Notes\n\n" + ev(2, "two"), true, false},
		{"level 3 archive heading", "\n### Archive: x\n\n" + ev(2, "two"), true, false},
		{"an open fence", ev(2, "two") + "```\n", false, false},
		{"a line too long", ev(2, strings.Repeat("x", parse.MaxLineLength)), false, false},
		{"no final newline", ev(2, "two") + "**Tags**: x", false, false},
	} {
		if got := addedClean([]byte(old), []byte(old+c.rest), c.archive); got != c.want {
			t.Errorf("%s: addedClean = %v, want %v", c.name, got, c.want)
		}
	}
}
