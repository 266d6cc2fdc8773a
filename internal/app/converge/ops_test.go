package converge

import (
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
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

// TestCollisionsNoCommits: in a repository with no commit, whatever is
// named (a branch, two, a glob) gives one line saying so and what to
// do, never "git revision "HEAD" is not in this repository", which
// blamed the HEAD collisions adds, not anything the user typed.
func TestCollisionsNoCommits(t *testing.T) {
	dir := t.TempDir()
	if _, err := (&gitx.Git{Dir: dir}).Run(t.Context(), "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	const want = "this repository has no commits yet, so there are no branches to compare: commit the memory first (git add -A && git commit), then run memsys collisions"
	for _, revs := range [][]string{{"main"}, {"main", "feature"}, {"origin/*"}} {
		_, _, err := Collisions(t.Context(), dir, revs)
		if err == nil || err.Error() != want {
			t.Errorf("Collisions(%q) = %v, want %q", revs, err, want)
		}
	}
}

// TestRemoveBlock: removeBlock gives back the bytes install added its
// block to, whatever their line ends and whether their last line had
// one (install then leaves its end marker unended), and keeps the line
// end that separates lines someone added after the block.
func TestRemoveBlock(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		block := attrBlock(nl)
		unended := strings.TrimSuffix(block, nl)
		for _, tc := range []struct{ name, in, want string }{
			{"alone", block, ""},
			{"after an ended line", "*.png binary" + nl + block, "*.png binary" + nl},
			{"after an unended line", "*.png binary" + nl + unended, "*.png binary"},
			{"lines after it", "*.png binary" + nl + block + "*.gif binary" + nl, "*.png binary" + nl + "*.gif binary" + nl},
			{"lines after an unended install", "*.png binary" + nl + unended + nl + "*.gif binary", "*.png binary" + nl + "*.gif binary"},
		} {
			got, found := removeBlock([]byte(tc.in))
			if !found || string(got) != tc.want {
				t.Errorf("%q %s: got %q (found %v), want %q", nl, tc.name, got, found, tc.want)
			}
		}
	}
}
