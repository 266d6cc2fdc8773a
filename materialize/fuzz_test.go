package materialize

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
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
	for _, src := range semanticSeeds {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		l := parse.Parse("CHANGELOG.md", src)
		g, changes := Replay(l.Events)
		if len(changes) != len(l.Events) {
			t.Fatalf("%d changes for %d events", len(changes), len(l.Events))
		}
		graph := RenderGraph(g)
		sameReplays(t, l.Events, graph, changes)
		back, err := ParseGraph(graph)
		if err != nil {
			t.Fatalf("%v\n%s", err, graph)
		}
		sameGraph(t, back, g)
		if !bytes.Equal(RenderGraph(back), graph) {
			t.Fatal("re-render differs")
		}
		c := BuildContext(l.Events, g, DefaultOptions())
		ctx := RenderContext(c)
		// P0 items are never cut: the budget holds for the rest.
		binding := 0
		for _, s := range c.Sections {
			for i, it := range s.Items {
				if s.prio(i) == P0 {
					binding += len(strings.Fields(it)) + 1
				}
			}
		}
		if countWords(ctx) > 3000+200+binding {
			t.Fatalf("context has %d words", countWords(ctx))
		}
		// Replaying as the parser streams must give the same files: with
		// the Supersedes fields predicted from the bytes, or, when the
		// prediction is wrong, with those the first pass saw.
		x := NewReplayer(DefaultOptions())
		x.Expect(parse.ScanSupersedes("CHANGELOG.md", src))
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) { x.Apply(e) })
		if !x.Exact() {
			seen := x.Seen()
			x = NewReplayer(DefaultOptions())
			x.Expect(seen)
			parse.Stream("CHANGELOG.md", src, func(e *parse.Event) { x.Apply(e) })
			if !x.Exact() {
				t.Fatal("second pass with the fields seen is not exact")
			}
		}
		if !bytes.Equal(RenderGraph(x.Graph()), graph) {
			t.Fatalf("streamed graph differs\nstream:\n%s\nbatch:\n%s", RenderGraph(x.Graph()), graph)
		}
		if sctx := RenderContext(x.Context()); !bytes.Equal(sctx, ctx) {
			t.Fatalf("streamed context differs\nstream:\n%s\nbatch:\n%s", sctx, ctx)
		}
	})
}

// semanticSeeds exercise supersession, open loops, priorities and
// conflicts, so the fuzzer starts from the new fields.
var semanticSeeds = []string{
	"## Event Log\n\n### evt-001 | 2026-01-01 09:00 | a | create\n\n**Scope**: api\n**Summary**: api\n\n**Details**:\n- entity: api\n\n" +
		"### evt-002 | 2026-01-02 09:00 | a | decision\n\n**Scope**: api\n**Summary**: jwt\n\n**Details**:\n- entity: api\n- attribute: auth\n- to: jwt\n- priority: P0\n\n" +
		"### evt-003 | 2026-01-03 09:00 | b | decision\n\n**Scope**: api\n**Summary**: cookies\n\n**Details**:\n- entity: api\n- attribute: auth\n- to: cookies\n\n" +
		"### evt-004 | 2026-01-04 09:00 | a | commitment\n\n**Scope**: api\n**Summary**: ship docs\n\n**Details**:\n- owner: a\n- due: 2026-01-05\n- priority: P3\n\n" +
		"### evt-005 | 2026-02-04 09:00 | a | modify\n\n**Scope**: api\n**Summary**: fix\n\n**Details**:\n- entity: api\n- closes: evt-004\n\n**Refs**: none\n**Supersedes**: evt-001, evt-003\n\n" +
		"### evt-006 | 2026-02-05 09:00 | a | note\n\n**Summary**: undo\n\n**Supersedes**: evt-005\n",
	"## Event Log\n\n### evt-1 | 2026-01-01 | a | blocker\n\n**Summary**: x\n\n**Details**:\n- blocked_entity: a\n- blocking_entity: b\n\n" +
		"### evt-2 | 2026-01-02 | a | fix\n\n**Refs**: evt-1\n\n### evt-3 | 2026-01-03 | a | fix\n\n**Refs**: evt-1\n**Supersedes**: evt-2\n\n" +
		"```\n**Supersedes**: evt-1\n```\n\n### evt-4 | 2026-01-04 | a | escalation\n\n**Supersedes**:\n- evt-3\n- evt-9\n",
}

// sameReplays checks ReplayGraph and ReplayChange against Replay's
// graph (rendered) and Changes: building no Change for the events
// nobody reads must not change what is built.
func sameReplays(t *testing.T, evs []parse.Event, graph []byte, changes []Change) {
	t.Helper()
	if got := RenderGraph(ReplayGraph(evs)); !bytes.Equal(got, graph) {
		t.Fatalf("ReplayGraph renders\n%s\nReplay\n%s", got, graph)
	}
	for _, i := range []int{0, len(evs) / 2, len(evs) - 1} {
		if i < 0 || i >= len(evs) {
			continue
		}
		// A later event may supersede event i: the prefix's replay,
		// as show runs it, is the one to compare with.
		prefix := changes
		if i < len(evs)-1 {
			_, prefix = Replay(evs[:i+1])
		}
		g, ch := ReplayChange(evs[:i+1])
		want, _ := Replay(evs[:i+1])
		if !bytes.Equal(RenderGraph(g), RenderGraph(want)) {
			t.Fatalf("ReplayChange(events[:%d]) gives another graph", i+1)
		}
		if !reflect.DeepEqual(ch, prefix[i]) {
			t.Fatalf("ReplayChange(events[:%d]) = %+v, Replay's change %+v", i+1, ch, prefix[i])
		}
	}
}

// TestReplayGraphEqualsReplay runs sameReplays over the bundled
// examples and generated logs, semantic ones included (supersession,
// loops, conflicts).
func TestReplayGraphEqualsReplay(t *testing.T) {
	var srcs [][]byte
	logs, _ := filepath.Glob("../examples/*/CHANGELOG.md")
	for _, p := range logs {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, src)
	}
	for _, s := range semanticSeeds {
		srcs = append(srcs, []byte(s))
	}
	srcs = append(srcs, loggen.Generate(2000, 3), loggen.GenerateSemantic(2000, 4))
	for _, src := range srcs {
		evs := parse.Parse("CHANGELOG.md", src).Events
		g, changes := Replay(evs)
		sameReplays(t, evs, RenderGraph(g), changes)
	}
}
