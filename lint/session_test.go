package lint

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestSessionReuse: a Session fed by a stream that reuses the memory of
// the events it has returned (parse.Reuse) finds what Check finds over
// the events parsed and kept, on histories long enough that the stream
// reuses every slab many times. A rule or replay that kept a pointer
// into an event would read a later event there and find otherwise.
func TestSessionReuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
		edit bool // graph.md edited by hand: the drift rule reports it
	}{
		{"generated", loggen.Generate(4000, 21), false},
		{"semantic", loggen.GenerateSemantic(4000, 22), false},
		{"semantic, graph edited", loggen.GenerateSemantic(3000, 23), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := materialize.NewReplayer(RenderOptions(config.Default()))
			x.Expect(parse.ScanSupersedes("CHANGELOG.md", tc.src))
			parse.Stream("CHANGELOG.md", tc.src, func(e *parse.Event) { x.Apply(e) })
			graph, context := x.Files()
			if tc.edit {
				graph = bytes.Replace(graph, []byte("| "), []byte("|  "), 1)
			}
			files := memFS{
				"CHANGELOG.md": tc.src, ".memory/graph.md": graph, ".memory/context.md": context,
				"AGENTS.md": []byte("# Agents\n\n## Memory System Protocol\n"), "TODO.md": []byte("# TODO\n"),
			}
			ds := check(t, files) // Check, and a Session streamed with Reuse
			if len(ds) == 0 {
				t.Fatal("no finding: the history exercises too few rules")
			}
			// The stream did reuse events: fewer places than events (how
			// many fewer depends on how far the rules lag behind).
			l, err := New(config.Default())
			if err != nil {
				t.Fatal(err)
			}
			s := l.Start(Input{ReadFile: files.read, Exists: files.exists})
			s.Expect(parse.ScanSupersedes("CHANGELOG.md", tc.src))
			places := map[*parse.Event]bool{}
			log := parse.Stream("CHANGELOG.md", tc.src, func(e *parse.Event) {
				places[e] = true
				s.Event(e)
			}, parse.Reuse(s))
			s.Finish(log, nil)
			if n := s.Events(); n != 3000 && n != 4000 || len(places) >= n {
				t.Errorf("%d events in %d places: the stream did not reuse them", n, len(places))
			}
		})
	}
}
