package lint

import (
	"os"
	"strings"
	"testing"
)

const (
	docsFile   = "../docs/lint.md"
	rulesBegin = "<!-- BEGIN RULES: generated from the registry by go test ./lint -update -->\n"
	rulesEnd   = "<!-- END RULES -->\n"
)

// TestDocs fails when docs/lint.md's rule reference is not what the
// registry generates; -update rewrites it.
func TestDocs(t *testing.T) {
	src, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, rulesBegin), strings.Index(s, rulesEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q markers", docsFile, rulesBegin, rulesEnd)
	}
	want := s[:i+len(rulesBegin)] + "\n" + RulesMarkdown() + "\n" + s[j:]
	if want == s {
		return
	}
	if *update {
		if err := os.WriteFile(docsFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s is out of date with the rule registry: run go test ./lint -update", docsFile)
}
