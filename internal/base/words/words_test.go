package words

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	// The reference: what status counted before, a regular expression
	// and strings.Fields over the whole text.
	re := regexp.MustCompile(`(?s)<!--.*?-->`)
	ref := func(s string) int { return len(strings.Fields(re.ReplaceAllString(s, " "))) }
	for _, s := range []string{
		"", "one", "  two words ", "<!-- Event horizon: evt-001 -->\n# Context\n\nsome text here\n",
		"a<!-- x -->b", "a <!-- x", "<!-- a --> <!-- b -->c", "a<!--\nmulti\nline\n-->b c",
		"<!-- <!-- nested --> tail -->", "x\t\ny\r\nz\vw\fv", "a\u00a0b\u2003c", "\xff \xfe", "-->a<!--", "<!---->", "<!-->",
	} {
		if got, want := Visible([]byte(s)), ref(s); got != want {
			t.Errorf("Visible(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzVisible(f *testing.F) {
	for _, s := range []string{"a<!-- x -->b", "<!-->", "a <!-- x"} {
		f.Add(s)
	}
	re := regexp.MustCompile(`(?s)<!--.*?-->`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Visible([]byte(s)), len(strings.Fields(re.ReplaceAllString(s, " "))); got != want {
			t.Fatalf("Visible(%q) = %d, want %d", s, got, want)
		}
	})
}

// FuzzCount holds Count to its definition, len(bytes.Fields(b)):
// context.md's budget is measured with it, so one word more or less
// would change a rendered file.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"", " a  b ", "a\u00a0b\u2003c\u0085d", "\xff \xfe", "x\t\ny\r\nz\vw\fv"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Count(b), len(bytes.Fields(b)); got != want {
			t.Fatalf("Count(%q) = %d, want %d", b, got, want)
		}
	})
}
