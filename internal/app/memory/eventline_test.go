package memory

import "testing"

// TestEventLineText: the one-line form is the event header with the
// summary, the same from String and from Append onto bytes already
// written (log reuses one buffer for every line).
func TestEventLineText(t *testing.T) {
	tests := []struct {
		l    EventLine
		want string
	}{
		{EventLine{ID: "evt-042", Time: "2026-03-01 10:00", Agent: "alice", Type: "fix", Summary: "Fix the upload"},
			"evt-042 | 2026-03-01 10:00 | alice | fix | Fix the upload"},
		{EventLine{ID: "evt-7", Time: "2026-03-01", Agent: "bob", Type: "decision"},
			"evt-7 | 2026-03-01 | bob | decision | "},
		{EventLine{}, " |  |  |  | "},
	}
	for _, tt := range tests {
		if got := tt.l.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
		if got := string(tt.l.Append([]byte("prefix\n"))); got != "prefix\n"+tt.want {
			t.Errorf("Append = %q, want the prefix kept and %q after it", got, tt.want)
		}
	}
}
