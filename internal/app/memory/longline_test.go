package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestPlanAppendLongLine: the parser stops at a line over
// parse.MaxLineLength, so what follows it is unknown. Append refused
// nothing there: with an event heading a megabyte long at the end of
// the log, it numbered its event after the one before, and the log
// held that ID twice. It now refuses, as regen does, naming the line,
// on the tail path (a log larger than the biggest tail window, so the
// long line is inside the tail read) and the whole-file path alike.
func TestPlanAppendLongLine(t *testing.T) {
	d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00"}
	log := string(genLog(12, "\n---\n\n")) + "\n---\n\n"
	line := strings.Count(log, "\n") + 1
	long := strings.Repeat("x", parse.MaxLineLength+1)
	want := func(file string, line, n int) string {
		return fmt.Sprintf("error: %s:%d:1: line is %d bytes, over the %d-byte limit: split it or move the content out of the log", file, line, n, parse.MaxLineLength)
	}
	nBig := int(tailMax / 100) // events of ~150 bytes: a log over tailMax
	big := string(genLog(nBig, "\n---\n\n")) + "\n---\n\n"
	bigLine := strings.Count(big, "\n") + 1
	heading := func(n int) string {
		return fmt.Sprintf("### evt-%03d | 2026-01-01 10:13 | alice | test %s", n, long)
	}
	for _, c := range []struct {
		name, log, want string
	}{
		{"a heading a megabyte long", log + heading(13) + "\n", want("CHANGELOG.md", line, len(heading(13)))},
		{"a long line in the last event", log + event(13, "test") + long + "\n", want("CHANGELOG.md", line+strings.Count(event(13, "test"), "\n"), len(long))},
		{"a heading a megabyte long, in the tail", big + heading(nBig+1) + "\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				c.want = want("CHANGELOG.md", bigLine, len(heading(nBig+1)))
			}
			tail, whole := planBoth(t, []byte(c.log), nil, d, false)
			if tail != c.want || whole != c.want {
				t.Errorf("tail plan:\n%.300s\nwhole-file plan:\n%.300s\nwant\n%s", tail, whole, c.want)
			}
		})
	}
}
