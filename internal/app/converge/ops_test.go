package converge

import (
	"slices"
	"testing"
)

// TestWithHead: one revision named alone, not a glob, is compared with
// HEAD; HEAD (or @) alone is an error naming it; everything else is
// compared as named.
func TestWithHead(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
		err  string
	}{
		{in: []string{"origin/main"}, want: []string{"origin/main", "HEAD"}},
		{in: []string{"main", "feature"}, want: []string{"main", "feature"}},
		{in: []string{"main", "HEAD"}, want: []string{"main", "HEAD"}},
		{in: []string{"origin/*"}, want: []string{"origin/*"}},
		{in: []string{"agent/[ab]"}, want: []string{"agent/[ab]"}},
		{in: []string{}, want: []string{}},
		{in: []string{"HEAD"}, err: "HEAD alone has nothing to compare with: name another revision, as in memsys collisions origin/main (compared with HEAD)"},
		{in: []string{"@"}, err: "@ alone has nothing to compare with: name another revision, as in memsys collisions origin/main (compared with HEAD)"},
	} {
		got, err := withHead(tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("withHead(%q) = %q, %v, want error %q", tc.in, got, err, tc.err)
			}
		case err != nil || !slices.Equal(got, tc.want):
			t.Errorf("withHead(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
		}
	}
}
