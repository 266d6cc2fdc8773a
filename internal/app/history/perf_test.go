package history

import (
	"strings"
	"testing"
)

// TestLargeCut compares a 20,000-event log with the same log cut in
// half: every missing event is reported once. Finding where each lost
// event was is one backward pass; a search per lost event made this
// quadratic.
func TestLargeCut(t *testing.T) {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; i <= 20000; i++ {
		b.WriteString(strings.Replace(ev(1, "event "+itoa(i)), "evt-001", "evt-"+pad5(i), 1))
	}
	full := b.String()
	cut := full[:strings.Index(full, "### evt-10001 ")]
	ds := Compare(side(full, ""), side(cut, ""), "base")
	if len(ds) != 10000 {
		t.Fatalf("%d findings, want 10000", len(ds))
	}
}

func pad5(n int) string {
	s := itoa(n)
	for len(s) < 5 {
		s = "0" + s
	}
	return s
}

func TestLongestIncreasing(t *testing.T) {
	cases := []struct {
		in   []int
		want string // kept positions
	}{
		{nil, ""},
		{[]int{0, 1, 2}, "xxx"},
		{[]int{4, 0, 1, 2, 3}, ".xxxx"},
		{[]int{0, 2, 1}, "x.x"},
		{[]int{3, 2, 1, 0}, "...x"},
	}
	for _, c := range cases {
		got := ""
		for _, in := range longestIncreasing(c.in) {
			if in {
				got += "x"
			} else {
				got += "."
			}
		}
		if got != c.want {
			t.Errorf("longestIncreasing(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}
