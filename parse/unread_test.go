package parse

import "testing"

// TestProblemUnread: Unread picks out exactly the headings written as
// events that the parser did not take as events, and a headers-only
// parse (what memsys status reads) finds the same ones as a full one.
func TestProblemUnread(t *testing.T) {
	for _, tc := range []struct {
		name   string
		log    string
		unread int
		events int
	}{
		{"colon after the ID", "# C\n\n## Event Log\n\n### evt-001: Title\n\n**Date**: 2025-01-02\n\n### evt-002: Other\n", 2, 0},
		{"letters in the ID", "# C\n\n## Event Log\n\n### evt-01a | 2025-01-02 10:00 | a | test\n", 1, 0},
		{"pipes without an ID", "# C\n\n## Event Log\n\n### 2025-01-02 | a | test\n", 1, 0},
		{"outside the Event Log", "# C\n\n### evt-009 | 2025-01-02 10:00 | a | test\n\n## Event Log\n\n### evt-001 | 2025-01-02 10:00 | a | test\n", 1, 1},
		// Problems on events it kept are not unread headings.
		{"two parts", "# C\n\n## Event Log\n\n### evt-001 | 2025-01-02\n", 0, 1},
		{"date only", "# C\n\n## Event Log\n\n### evt-001 | 2025-01-02 | a | test\n\nFree text.\n", 0, 1},
		{"level four", "# C\n\n## Event Log\n\n#### evt-001 | 2025-01-02 10:00 | a | test\n", 0, 1},
	} {
		for _, opts := range [][]Option{nil, {HeadersOnly()}} {
			events, unread := 0, 0
			l := Stream("CHANGELOG.md", []byte(tc.log), func(*Event) { events++ }, opts...)
			for _, p := range l.Problems {
				if p.Unread() {
					unread++
				}
			}
			if unread != tc.unread || events != tc.events {
				t.Errorf("%s (headers only: %v): %d unread, %d events; want %d, %d (%v)", tc.name, len(opts) > 0, unread, events, tc.unread, tc.events, l.Problems)
			}
		}
	}
}
