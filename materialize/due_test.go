package materialize

import (
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestValidDue: lint's MS137 and PastDue agree on which due values are
// dates: one that is no date is never past due, so lint warns of it.
func TestValidDue(t *testing.T) {
	h := parse.Time{Year: 2026, Month: 3, Day: 20}
	for _, c := range []struct {
		due       string
		valid     bool
		pastDueAt bool
	}{
		{"2026-03-10", true, true},
		{"2026-03-30", true, false},
		{" 2026-03-10 noon", true, true},
		{"2026-3-10", false, false},
		{"tomorrow", false, false},
		{"", false, false},
		{"2026-13-01", false, false},
	} {
		if got := ValidDue(c.due); got != c.valid {
			t.Errorf("ValidDue(%q) = %v, want %v", c.due, got, c.valid)
		}
		l := Loop{Due: c.due}
		if got := l.PastDue(h); got != c.pastDueAt {
			t.Errorf("PastDue(%q) = %v, want %v", c.due, got, c.pastDueAt)
		}
	}
}
