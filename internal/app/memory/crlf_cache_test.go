package memory

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
)

// TestCurrentShortcutCRLF: in a CRLF checkout (core.autocrlf) of a
// memory whose derived files are current, regen --check and recall's
// GraphFresh answer from the history cache's head (regenerateCurrent,
// the cache's graph sum) as in the LF checkout, with the same results.
// The cache sums the files as rendered (LF); before, they were compared
// with the CRLF bytes, never matched, and every run decoded the whole
// cache entry.
func TestCurrentShortcutCRLF(t *testing.T) {
	defer useCache(true)()
	type answer struct {
		diff     string
		problems []string
		accepted int
		fresh    bool
	}
	check := func(root string) (answer, int, int) {
		t.Helper()
		if _, err := Regenerate(root, RegenOptions{}); err != nil { // a checkpoint of this checkout
			t.Fatal(err)
		}
		current, fresh := currentHits, freshHits
		r, err := Regenerate(root, RegenOptions{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		a := answer{diff: r.Diff, accepted: r.Accepted}
		for _, p := range r.Problems {
			a.problems = append(a.problems, p.Error())
		}
		mem, err := workspace.Read(root)
		if err != nil {
			t.Fatal(err)
		}
		graph, err := os.ReadFile(filepath.Join(root, ".memory", "graph.md"))
		if err != nil {
			t.Fatal(err)
		}
		if a.fresh, err = GraphFresh(root, mem, graph); err != nil {
			t.Fatal(err)
		}
		return a, currentHits - current, freshHits - fresh
	}
	newRoot := func() string {
		root := newCachedRoot(t, map[string][]byte{"CHANGELOG.md": adoptedLog(30), "TODO.md": []byte("# TODO\n")})
		if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := Regenerate(root, RegenOptions{}); err != nil {
			t.Fatal(err)
		}
		return root
	}

	lf, lfCurrent, lfFresh := check(newRoot())
	if lfCurrent != 1 || lfFresh != 1 {
		t.Fatalf("LF checkout: %d regen --check and %d GraphFresh answered from the cache's head; want 1 each", lfCurrent, lfFresh)
	}

	root := newRoot()
	for _, f := range []string{"CHANGELOG.md", ".memory/graph.md", ".memory/context.md"} {
		p := filepath.Join(root, f)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crlf, crlfCurrent, crlfFresh := check(root)
	if crlfCurrent != 1 || crlfFresh != 1 {
		t.Errorf("CRLF checkout: %d regen --check and %d GraphFresh answered from the cache's head; want 1 each, as in the LF checkout", crlfCurrent, crlfFresh)
	}
	if crlf.diff != lf.diff || crlf.accepted != lf.accepted || crlf.fresh != lf.fresh || len(crlf.problems) != len(lf.problems) {
		t.Fatalf("CRLF checkout answers %+v; the LF checkout %+v", crlf, lf)
	}
	for i := range lf.problems {
		if crlf.problems[i] != lf.problems[i] {
			t.Errorf("problem %d: CRLF checkout %q, LF checkout %q", i, crlf.problems[i], lf.problems[i])
		}
	}
	if !lf.fresh || lf.diff != "" {
		t.Errorf("LF checkout: fresh %v, diff %q; want fresh and no diff", lf.fresh, lf.diff)
	}
}
