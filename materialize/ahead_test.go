package materialize

import "testing"

// TestAhead: a horizon after the last event (by number, as Fresh
// compares) is ahead; the same event, an earlier one or a missing ID
// is not.
func TestAhead(t *testing.T) {
	for _, c := range []struct {
		horizon, last string
		want          bool
	}{
		{"evt-020", "evt-014", true},
		{"evt-20", "evt-014", true},
		{"evt-014", "evt-014", false},
		{"evt-8", "evt-008", false},
		{"evt-003", "evt-004", false},
		{"", "evt-004", false},
		{"evt-004", "", false},
	} {
		if got := Ahead(c.horizon, c.last); got != c.want {
			t.Errorf("Ahead(%q, %q) = %v, want %v", c.horizon, c.last, got, c.want)
		}
	}
}
