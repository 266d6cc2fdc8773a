package history

import (
	"strings"
	"testing"
)

func TestCompareMerge(t *testing.T) {
	main := side(head+ev(1, "one")+ev(2, "main two"), "")
	feature := side(head+ev(1, "one")+ev(2, "feature two"), "")
	cases := []struct {
		name  string
		merge Side
		want  string // rules found against main, then against feature
	}{
		{"feature renumbered after main", side(head+ev(1, "one")+ev(2, "main two")+ev(3, "feature two"), ""), ""},
		{"main's event rewritten", side(head+ev(1, "one")+ev(2, "feature two")+ev(3, "main 2"), ""), "MS301"},
		{"feature's event dropped", side(head+ev(1, "one")+ev(2, "main two"), ""), "|MS301"},
		{"an event dropped with its ID", side(head+ev(2, "main two"), ""), "MS302|MS302,MS301"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range []Side{main, feature} {
				var rules []string
				for _, d := range CompareMerge(p, c.merge, "p") {
					rules = append(rules, d.Rule)
				}
				got = append(got, strings.Join(rules, ","))
			}
			if g := strings.TrimRight(strings.Join(got, "|"), "|"); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
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
	}
	for i, c := range cases {
		if got := PureAppend([]byte(base), []byte(c.next)); got != c.want {
			t.Errorf("case %d: PureAppend = %v, want %v", i, got, c.want)
		}
	}
	if PureAppend([]byte("x"), []byte("x\n### evt-002")) {
		t.Error("an old version without a final newline: the next line joins its last line")
	}
}
