package materialize

import "testing"

// TestCanonEmpty checks canonEmpty against Canon itself, on separators
// alone, names, non-ASCII letters (the Kelvin sign lowers to 'k') and
// bytes that are not UTF-8.
func TestCanonEmpty(t *testing.T) {
	for _, s := range []string{"", " ", "-_ \t\r\n", "_", "a", " - x", "\u212a", "\u00a0", "\xff", "--\xc3", "Auth Service", "é"} {
		if got, want := canonEmpty(s), Canon(s) == ""; got != want {
			t.Errorf("canonEmpty(%q) = %v, Canon is %q", s, got, Canon(s))
		}
	}
}

// TestNameProblemBrackets covers the bracket matching for each kind.
func TestNameProblemBrackets(t *testing.T) {
	for s, want := range map[string]bool{
		"a (b)": true, "a [b]": true, "a {b}": true, "a (b]": false, "a [b}": false,
		"a {b)": false, "a )": false, "a (": false, "a ([{}])": true, "a ([)]": false,
	} {
		if got := NameProblem(s) == ""; got != want {
			t.Errorf("NameProblem(%q) = %q, want ok %v", s, NameProblem(s), want)
		}
	}
}
