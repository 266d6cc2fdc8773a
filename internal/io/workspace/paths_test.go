package workspace

import "testing"

// TestBelowBase: lint's patterns as people type them name the path they
// spell below the start folder; a path out of it is refused, not handed
// to the glob, which answered "invalid argument".
func TestBelowBase(t *testing.T) {
	base := "/work/repo"
	for _, c := range []struct {
		pat, want string
		ok        bool
	}{
		{"services/**", "services/**", true},
		{"./services/a", "services/a", true},
		{"services//a", "services/a", true},
		{"services/./a/", "services/a", true},
		{".", ".", true},
		{"/work/repo/services/a", "services/a", true},
		{"/work/repo", ".", true},
		{"../b", "../b", false},
		{"x/../../b", "x/../../b", false},
		{"/work/other", "/work/other", false},
		{"/work/repo/..", "/work/repo/..", false},
	} {
		got, ok := belowBase(base, c.pat)
		if got != c.want || ok != c.ok {
			t.Errorf("belowBase(%q, %q) = %q, %v; want %q, %v", base, c.pat, got, ok, c.want, c.ok)
		}
	}
}
