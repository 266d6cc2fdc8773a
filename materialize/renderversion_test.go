package materialize

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// renderVersionFile records RenderVersion and the digest of what the
// renderer writes for renderCorpus.
const renderVersionFile = "testdata/render-version.golden"

// renderCorpus is what the renderer is pinned on: the bundled examples
// and generated logs with every event type, open loops of every age,
// priorities, supersession and conflicts.
func renderCorpus(t *testing.T) map[string][]byte {
	t.Helper()
	logs := map[string][]byte{
		"semantic-3000": loggen.GenerateSemantic(3000, 1),
		"plain-2000":    loggen.Generate(2000, 2),
	}
	// Loops one and two days old at the horizon.
	loops, err := os.ReadFile("testdata/render-loops.md")
	if err != nil {
		t.Fatal(err)
	}
	logs["loops"] = loops
	// The semantics goldens: one rule each (a blocker closed other than
	// by a fix changed the output at render version 3).
	sem, _ := filepath.Glob("testdata/semantics/*.md")
	for _, p := range sem {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs["semantics/"+strings.TrimSuffix(filepath.Base(p), ".md")] = src
	}
	paths, _ := filepath.Glob("../examples/*/CHANGELOG.md")
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		logs[filepath.Base(filepath.Dir(p))] = src
	}
	return logs
}

// renderDigest is the digest of graph.md and context.md, unsealed, for
// every log of the corpus, in name order.
func renderDigest(t *testing.T) (string, string) {
	logs := renderCorpus(t)
	names := make([]string, 0, len(logs))
	for n := range logs {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	var sample strings.Builder
	for _, n := range names {
		l := parse.Parse(parse.LogFile, logs[n])
		g, _ := Replay(l.Events)
		graph := RenderGraph(g)
		ctx := RenderContext(BuildContext(l.Events, g, DefaultOptions()))
		fmt.Fprintf(h, "%s\n%d\n", n, len(graph))
		h.Write(graph)
		fmt.Fprintf(h, "%d\n", len(ctx))
		h.Write(ctx)
		sample.Write(ctx)
	}
	return hex.EncodeToString(h.Sum(nil)), sample.String()
}

// TestRenderVersion fails when the renderer writes other bytes for the
// corpus while RenderVersion stays the same: a seal written by the
// older renderer would then pass status's check of a file lint finds
// different. -update records a new digest only with a new version.
func TestRenderVersion(t *testing.T) {
	sum, _ := renderDigest(t)
	want := fmt.Sprintf("render %d %s\n", RenderVersion, sum)
	got, err := os.ReadFile(renderVersionFile)
	if err != nil && !*update {
		t.Fatalf("%v (run go test ./materialize -update)", err)
	}
	if string(got) == want {
		return
	}
	var oldVersion int
	var oldSum string
	fmt.Sscanf(string(got), "render %d %s", &oldVersion, &oldSum)
	switch {
	case oldSum != sum && oldVersion == RenderVersion:
		t.Fatalf("the renderer writes other bytes for the same events than it did at render version %d: bump materialize.RenderVersion, then run go test ./materialize -update", RenderVersion)
	case !*update:
		t.Fatalf("%s records render %d %s, want %q (run go test ./materialize -update)", renderVersionFile, oldVersion, oldSum, want)
	}
	if err := os.WriteFile(renderVersionFile, []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenderCorpusCoversLoopAges: the corpus holds open loops one day
// old and older, so a change in how an age is written changes the
// digest (it once said "1 days").
func TestRenderCorpusCoversLoopAges(t *testing.T) {
	_, ctx := renderDigest(t)
	for _, s := range []string{", 1 day,", " days,", "## Open Loops"} {
		if !strings.Contains(ctx, s) {
			t.Errorf("no context.md of the corpus contains %q", s)
		}
	}
}

// TestSealOnlyDiffers: a file that differs from another only in its
// seal line is told apart from a hand edit, which changes the text or
// follows the seal.
func TestSealOnlyDiffers(t *testing.T) {
	text := []byte("# Current Context\n\nbody\n")
	a, b := Seal(text, []byte("one")), Seal(text, []byte("two"))
	for _, tc := range []struct {
		name string
		x, y []byte
		want bool
	}{
		{"seals differ", a, b, true},
		{"the same file", a, a, false},
		{"text differs", a, Seal([]byte("# Current Context\n\nother\n"), []byte("two")), false},
		{"a line after the seal", append(append([]byte{}, a...), "hand edit\n"...), b, false},
		{"no seal", text, b, false},
		{"no final newline", a[:len(a)-1], b, true},
		{"a short seal", []byte("# Current Context\n\nbody\n<!-- memsys digest: 12 -->\n"), b, false},
	} {
		if got := SealOnlyDiffers(tc.x, tc.y); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
