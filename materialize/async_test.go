package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/loggen"
	"github.com/memsys/memsys/parse"
)

// TestAsync: replaying on a second goroutine, in batches and with a
// partial last batch, gives the same files as replaying inline.
func TestAsync(t *testing.T) {
	for _, n := range []int{0, 1, asyncBatch, 3*asyncBatch + 7} {
		src := loggen.Generate(n, 3)
		x := NewReplayer(DefaultOptions())
		a := NewAsync(DefaultOptions())
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) {
			x.Apply(e)
			a.Add(e)
		})
		y := a.Wait()
		if !bytes.Equal(RenderGraph(x.Graph()), RenderGraph(y.Graph())) || !bytes.Equal(RenderContext(x.Context()), RenderContext(y.Context())) {
			t.Errorf("%d events: Async renders differently from Replayer", n)
		}
	}
}
