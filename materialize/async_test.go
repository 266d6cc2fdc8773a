package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestAsync: replaying on a second goroutine, in batches and with a
// partial last batch, then rendering both files at once, gives the same
// files as replaying and rendering inline.
func TestAsync(t *testing.T) {
	for _, n := range []int{0, 1, asyncBatch, 3*asyncBatch + 7} {
		src := loggen.Generate(n, 3)
		x := NewReplayer(DefaultOptions())
		a := NewAsync(DefaultOptions())
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) {
			x.Apply(e)
			a.Add(e)
		})
		// Render draws both files side by side: the same bytes.
		graph, context := a.Wait().Render()
		if !bytes.Equal(RenderGraph(x.Graph()), graph) || !bytes.Equal(RenderContext(x.Context()), context) {
			t.Errorf("%d events: Async and Render give other files than Replayer", n)
		}
	}
}
