package materialize

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/parse"
)

var update = flag.Bool("update", false, "rewrite golden files (examples/*/.memory and testdata/*.golden)")

// golden compares got with the file, or writes it with -update; a
// missing golden is created then, not an error.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./materialize -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the renderer's output (go test ./materialize -update rewrites it):\n%s", path, got)
	}
}

// TestExamples replays every bundled example and compares with its
// committed .memory files, which are these goldens.
func TestExamples(t *testing.T) {
	logs, _ := filepath.Glob("../examples/*/CHANGELOG.md")
	if len(logs) < 2 {
		t.Fatalf("found %d examples", len(logs))
	}
	for _, path := range logs {
		dir := filepath.Dir(path)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l := parse.Parse("CHANGELOG.md", src)
			if len(l.Problems) > 0 {
				t.Errorf("example has problems: %v", l.Problems)
			}
			g, _ := Replay(l.Events)
			graph := RenderGraph(g)
			ctx := RenderContext(BuildContext(l.Events, g, DefaultOptions()))
			// The committed files are what regen writes: sealed.
			digest := SourceDigest(l.Events, DefaultOptions())
			golden(t, filepath.Join(dir, ".memory", "graph.md"), Seal(graph, digest))
			golden(t, filepath.Join(dir, ".memory", "context.md"), Seal(ctx, digest))

			// Line endings of the input never change the output.
			crlf := parse.Parse("CHANGELOG.md", bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")))
			g2, _ := Replay(crlf.Events)
			if !bytes.Equal(RenderGraph(g2), graph) || !bytes.Equal(RenderContext(BuildContext(crlf.Events, g2, DefaultOptions())), ctx) {
				t.Error("CRLF input renders differently")
			}
			back, err := ParseGraph(graph)
			if err != nil {
				t.Fatal(err)
			}
			sameGraph(t, back, g)
		})
	}
}

// TestAuthStory checks the facts issue 2 requires of the seed's story.
func TestAuthStory(t *testing.T) {
	src, err := os.ReadFile("../examples/auth/CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := Replay(parse.Parse("CHANGELOG.md", src).Events)
	for _, want := range []string{
		"auth_module|component|active|evt-004|evt-008|path=src/auth/;purpose=user authentication and token issuance;result=48 passed, 0 failed;coverage=91%",
		"pyjwt|dependency|active|evt-005|evt-005|version=2.8.0",
		"bcrypt|dependency|active|evt-006|evt-006|version=4.1.2",
	} {
		name := want[:bytes.IndexByte([]byte(want), '|')]
		if got := nodeRow(g.Node(name)); got != want {
			t.Errorf("node %s:\n got %q\nwant %q", name, got, want)
		}
	}
	edges := edgeRows(g)
	for _, want := range []string{"auth_module -depends_on-> pyjwt|", "auth_module -depends_on-> bcrypt|"} {
		found := false
		for _, e := range edges {
			found = found || e == want
		}
		if !found {
			t.Errorf("no edge %q in %q", want, edges)
		}
	}
}

// TestEmpty: init writes these for a log without events; they must be
// valid, with the template's placeholders.
func TestEmpty(t *testing.T) {
	g, ch := Replay(nil)
	if len(ch) != 0 {
		t.Fatal("changes for no events")
	}
	graph := RenderGraph(g)
	golden(t, "testdata/empty-graph.golden", graph)
	golden(t, "testdata/empty-context.golden", RenderContext(BuildContext(nil, g, DefaultOptions())))
	back, err := ParseGraph(graph)
	if err != nil {
		t.Fatal(err)
	}
	sameGraph(t, back, g)
}
