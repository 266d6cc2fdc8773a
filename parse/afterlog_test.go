package parse

import "testing"

// TestAfterLog: a section after the last event is where append would
// write, and is recorded; a "## heading" followed by more events is
// text of the event it cuts (MS133), a conflict marker is MS134's, and
// neither is recorded.
func TestAfterLog(t *testing.T) {
	ev := "### evt-001 | 2025-01-01 10:00 | a | create\n\n**Scope**: x\n**Summary**: s\n\n---\n\n"
	for _, c := range []struct {
		src  string
		line int
		h    string
	}{
		{"# C\n\n## Event Log\n\n" + ev + "## Appendix\n\ntext\n", 12, "## Appendix"},
		{"# C\n\n## Event Log\n\n" + ev + "# Notes\n", 12, "# Notes"},
		{"# C\n\n## Event Log\n\n" + ev, 0, ""},
		{"# C\n\n## Event Log\n\n" + ev + "## Cut\n\n" + "### evt-002 | 2025-01-01 11:00 | a | create\n", 0, ""},
		{"# C\n\n## Event Log\n\n" + ev + "<<<<<<< HEAD\n**Summary**: ours\n=======\n", 0, ""},
		// A non-event "### heading" after the last event closes it: the
		// "##" after that still ends the log where append would write.
		{"# C\n\n## Event Log\n\n" + ev + "### Notes\n\nkept by hand\n\n## Appendix\n\ntext\n", 16, "## Appendix"},
		// So does a section right below an Event Log with no event yet:
		// append writes after the section's heading line.
		{"# C\n\n## Event Log\n\n## Appendix\n", 5, "## Appendix"},
		// A section that closed no event, followed by events: those
		// are outside the log (reported each), not the section's.
		{"# C\n\n## Event Log\n\n" + ev + "### Notes\n\n## Cut\n\n" + "### evt-002 | 2025-01-01 11:00 | a | create\n", 0, ""},
	} {
		l := Parse("CHANGELOG.md", []byte(c.src))
		if l.AfterLogLine != c.line || l.AfterLogHeading != c.h {
			t.Errorf("%q: AfterLog %d %q, want %d %q", c.src, l.AfterLogLine, l.AfterLogHeading, c.line, c.h)
		}
	}
}
