package lint

import (
	"reflect"
	"testing"

	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestCuratedAll: what a derived file holds that every file regen
// writes (the one at its horizon, the current one) lacks; Curated is
// the case of one.
func TestCuratedAll(t *testing.T) {
	node := func(name string) *materialize.Node {
		return &materialize.Node{Name: name, Type: "component", Status: "active", Created: "evt-001"}
	}
	graph := func(names ...string) []byte {
		g := &materialize.Graph{}
		for _, n := range names {
			g.Nodes = append(g.Nodes, node(n))
		}
		return materialize.RenderGraph(g)
	}
	src, then, now := graph("cache", "billing", "api"), graph("cache", "api"), graph("api")
	if got, want := Curated(parse.GraphFile, src, now, false), []string{"node cache", "node billing"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Curated = %q, want %q", got, want)
	}
	if got, want := CuratedAll(parse.GraphFile, src, false, then, now), []string{"node billing"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CuratedAll = %q, want %q", got, want)
	}
	ctx := []byte("## Active Constraints\n\n- No Fridays\n- Use JSON\n")
	if got, want := CuratedAll(parse.ContextFile, ctx, false, []byte("## Active Constraints\n\n- Use JSON — evt-002\n"), nil), []string{`constraint "No Fridays"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("CuratedAll(context) = %q, want %q", got, want)
	}
}
