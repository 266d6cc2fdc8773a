package memory

import (
	"regexp"
	"strings"
	"testing"
)

func TestWords(t *testing.T) {
	// The reference: what status counted before, a regular expression
	// and strings.Fields over the whole text.
	re := regexp.MustCompile(`(?s)<!--.*?-->`)
	ref := func(s string) int { return len(strings.Fields(re.ReplaceAllString(s, " "))) }
	for _, s := range []string{
		"", "one", "  two words ", "<!-- Event horizon: evt-001 -->\n# Context\n\nsome text here\n",
		"a<!-- x -->b", "a <!-- x", "<!-- a --> <!-- b -->c", "a<!--\nmulti\nline\n-->b c",
		"<!-- <!-- nested --> tail -->", "x\t\ny\r\nz\vw\fv", "a\u00a0b\u2003c", "\xff \xfe", "-->a<!--", "<!---->", "<!-->",
	} {
		if got, want := Words([]byte(s)), ref(s); got != want {
			t.Errorf("Words(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzWords(f *testing.F) {
	for _, s := range []string{"a<!-- x -->b", "<!-->", "a <!-- x"} {
		f.Add(s)
	}
	re := regexp.MustCompile(`(?s)<!--.*?-->`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Words([]byte(s)), len(strings.Fields(re.ReplaceAllString(s, " "))); got != want {
			t.Fatalf("Words(%q) = %d, want %d", s, got, want)
		}
	})
}
