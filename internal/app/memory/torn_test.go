package memory

import (
	"fmt"
	"strings"
	"testing"
)

// TestTornEnd: a log that ends mid-line in an incomplete event (a
// power loss kept part of an append and lost its journal) stops
// append with one line naming the event's heading, on the tail path
// and the whole-file path alike; a whole event without a final newline
// (a log saved by hand) and a cut append cannot tell from a shorter
// event append as before.
func TestTornEnd(t *testing.T) {
	smallTail(t)
	d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00"}
	log := string(genLog(12, "\n---\n\n")) + "\n---\n\n"
	// The cut event's heading is the line after log's last.
	line := strings.Count(log, "\n") + 1
	full := event(13, "fix")
	cut := func(at string) string { return log + full[:strings.Index(full, at)+len(at)] }
	torn := func(last, why string) string {
		return fmt.Sprintf("error: CHANGELOG.md:%d: the last event is cut short: the file ends mid-line (%q) and %s, as an append interrupted by a crash or power loss leaves it: delete it (line %d to the end of the file) or complete it, then append again", line, last, why, line)
	}
	for _, c := range []struct {
		name, src, want string // want "" for an append that goes ahead
	}{
		{"heading cut in the date", cut("2026-01-01 1"), torn("### evt-013 | 2026-01-01 1", "its heading is incomplete")},
		{"heading cut in the ID", cut("### evt-0"), torn("### evt-0", "its heading is incomplete")},
		{"heading cut after the time", cut("10:13"), torn("### evt-013 | 2026-01-01 10:13", "its heading is incomplete")},
		{"cut in the Scope key", cut("**Sco"), torn("**Sco", "it has no **Scope**")},
		{"cut in the Scope", cut("**Scope**: co"), torn("**Scope**: co", "it has no **Summary**")},
		{"cut in the Summary key", cut("**Summ"), torn("**Summ", "it has no **Summary**")},
		{"CRLF, cut in the Scope", strings.ReplaceAll(cut("**Scope**: co"), "\n", "\r\n"), torn("**Scope**: co", "it has no **Summary**")},
		{"cut in the Summary", cut("**Summary**: ev"), ""},
		{"whole event, no final newline", strings.TrimSuffix(log+full, "\n"), ""},
		{"no Summary, but a final newline", cut("**Scope**: core\n"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			tail, whole := planBoth(t, []byte(c.src), nil, d, true)
			if tail != whole {
				t.Errorf("tail plan:\n%s\nwhole-file plan:\n%s", tail, whole)
			}
			switch {
			case c.want != "" && tail != c.want:
				t.Errorf("got\n%s\nwant\n%s", tail, c.want)
			case c.want == "" && strings.HasPrefix(tail, "error:"):
				t.Errorf("append refused: %s", tail)
			}
		})
	}
}
