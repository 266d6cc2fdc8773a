package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestAsync: replaying on a second goroutine, in batches and with a
// partial last batch, then rendering both files at once, gives the same
// files as replaying and rendering inline; and so does a stream that
// reuses the memory of the events the Async has returned (parse.Reuse),
// which a replay keeping a pointer into an event would not.
func TestAsync(t *testing.T) {
	for _, n := range []int{0, 1, asyncBatch, 3*asyncBatch + 7, 5000} {
		src := loggen.GenerateSemantic(n, 3)
		x := NewReplayer(DefaultOptions())
		evs := parse.Parse("CHANGELOG.md", src).Events
		for i := range evs {
			x.Apply(&evs[i])
		}
		a := NewAsync(DefaultOptions())
		places := map[*parse.Event]bool{}
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) {
			a.Add(e)
			places[e] = true
		}, parse.Reuse(a))
		if n == 5000 && len(places) >= n {
			t.Errorf("%d events in %d places: the stream did not reuse them", n, len(places))
		}
		// Render draws both files side by side: the same bytes.
		graph, context := a.Wait().Render()
		if !bytes.Equal(RenderGraph(x.Graph()), graph) || !bytes.Equal(RenderContext(x.Context()), context) {
			t.Errorf("%d events: Async and Render give other files than Replayer", n)
		}
	}
}
