package words

import "testing"

func TestPlural(t *testing.T) {
	cases := []struct {
		n    int
		noun string
		want string
	}{
		{0, "event", "0 events"},
		{1, "event", "1 event"},
		{2, "event", "2 events"},
		{1, "memory root", "1 memory root"},
		{12, "colliding ID", "12 colliding IDs"},
		{-1, "event", "-1 events"},
	}
	for _, c := range cases {
		if got := Plural(c.n, c.noun); got != c.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
