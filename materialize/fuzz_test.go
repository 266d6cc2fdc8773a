package materialize

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/parse"
)

// FuzzReplayRender: any log replays and renders without panicking, and
// graph.md reads back into the same graph.
func FuzzReplayRender(f *testing.F) {
	logs, _ := filepath.Glob("../examples/*/CHANGELOG.md")
	for _, p := range logs {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src)
		}
	}
	for _, h := range hostile {
		f.Add([]byte("## Event Log\n\n### evt-001 | 2026-03-02 09:00 | a | create\n\n**Scope**: " + h.text +
			"\n**Summary**: " + h.text + "\n\n**Details**:\n- entity: " + h.text + "\n- path: " + h.text +
			"\n\n### evt-002 | 2026-03-02 | b | blocker\n\n**Summary**: x\n\n**Details**:\n- blocked_entity: " + h.text +
			"\n- blocking_entity: y\n\n### evt-003 | 2026-03-03 10:00 | c | fix\n\n**Refs**: evt-2\n\n**Details**:\n- resolution: " + h.text + "\n"))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		l := parse.Parse("CHANGELOG.md", src)
		g, changes := Replay(l.Events)
		if len(changes) != len(l.Events) {
			t.Fatalf("%d changes for %d events", len(changes), len(l.Events))
		}
		graph := RenderGraph(g)
		back, err := ParseGraph(graph)
		if err != nil {
			t.Fatalf("%v\n%s", err, graph)
		}
		sameGraph(t, back, g)
		if !bytes.Equal(RenderGraph(back), graph) {
			t.Fatal("re-render differs")
		}
		ctx := RenderContext(BuildContext(l.Events, g, DefaultOptions()))
		if countWords(ctx) > 3000+200 {
			t.Fatalf("context has %d words", countWords(ctx))
		}
		// Replaying as the parser streams must give the same files.
		x := NewReplayer(DefaultOptions())
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) { x.Apply(e) })
		if !bytes.Equal(RenderGraph(x.Graph()), graph) {
			t.Fatalf("streamed graph differs\nstream:\n%s\nbatch:\n%s", RenderGraph(x.Graph()), graph)
		}
		if sctx := RenderContext(x.Context()); !bytes.Equal(sctx, ctx) {
			t.Fatalf("streamed context differs\nstream:\n%s\nbatch:\n%s", sctx, ctx)
		}
	})
}
