package lint

import (
	"strings"
	"testing"
)

// A message that spans lines or holds % stays one workflow command.
func TestWriteGitHubError(t *testing.T) {
	var b strings.Builder
	if err := WriteGitHubError(&b, "memsys: 100% done\nnot"); err != nil {
		t.Fatal(err)
	}
	if want := "::error title=memsys::memsys: 100%25 done%0Anot\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
