package memory

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestAppendEventsMatchesOneByOne checks AppendEvents against appending
// the same events one at a time with AppendEvent, for logs separated by
// rules, by blank lines, ending in a rule, and empty.
func TestAppendEventsMatchesOneByOne(t *testing.T) {
	ev := func(n int) string {
		return string(Render(fmt.Sprintf("evt-%03d", n), Draft{Type: "test", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00"}, "\n"))
	}
	logs := map[string]string{
		"empty":     head,
		"one":       head + ev(1),
		"rules":     head + ev(1) + "\n---\n\n" + ev(2),
		"blanks":    head + ev(1) + "\n" + ev(2),
		"rule-tail": head + ev(1) + "\n---\n\n" + ev(2) + "\n---\n",
		"crlf":      strings.ReplaceAll(head+ev(1)+"\n---\n\n"+ev(2), "\n", "\r\n"),
	}
	for name, src := range logs {
		t.Run(name, func(t *testing.T) {
			nl := Newline([]byte(src))
			var evs [][]byte
			for n := 10; n < 14; n++ {
				evs = append(evs, []byte(strings.ReplaceAll(ev(n), "\n", nl)))
			}
			want := []byte(src)
			for _, e := range evs {
				var err error
				if want, err = AppendEvent("CHANGELOG.md", want, parse.Parse("CHANGELOG.md", want), e); err != nil {
					t.Fatal(err)
				}
			}
			got, err := AppendEvents("CHANGELOG.md", []byte(src), parse.Parse("CHANGELOG.md", []byte(src)), evs)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Errorf("AppendEvents:\n%s\none by one:\n%s", got, want)
			}
		})
	}
}
