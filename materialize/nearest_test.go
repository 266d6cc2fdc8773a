package materialize

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

func TestNearest(t *testing.T) {
	g := &Graph{}
	for _, n := range []string{"auth_module", "auth", "billing", "token_service"} {
		g.Nodes = append(g.Nodes, &Node{Name: n})
	}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"autth", []string{"auth"}},
		{"auth", []string{"auth", "auth_module"}},
		{"Token Servise", []string{"token_service"}},
		{"zzzzzz", nil},
	} {
		got := Nearest(g, tc.name, 3)
		if len(got) != len(tc.want) || len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("Nearest(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestUnknownEntity pins the one sentence recall, log --entity and
// snapshot give for a name that is no node, on both front ends.
func TestUnknownEntity(t *testing.T) {
	g := &Graph{}
	for _, n := range []string{"auth_module", "auth", "billing"} {
		g.Nodes = append(g.Nodes, &Node{Name: n})
	}
	for _, tc := range []struct {
		name, at string
		f        front.Front
		want     string
	}{
		{"biling", "", front.CLI, `unknown entity "biling": no such node in the graph; nearest: "billing": memsys graph lists the nodes`},
		{"biling", "", front.MCP, `unknown entity "biling": no such node in the graph; nearest: "billing": memsys_graph lists the nodes`},
		{"autth", "evt-004", front.CLI, `unknown entity "autth": no such node in the graph at evt-004; nearest: "auth": memsys graph lists the nodes`},
		{"zzzzzz", "", front.CLI, `unknown entity "zzzzzz": no such node in the graph: memsys graph lists the nodes`},
		{strings.Repeat("q", 100), "", front.CLI, `unknown entity "` + strings.Repeat("q", words.ClipLen) + `…": no such node in the graph: memsys graph lists the nodes`},
	} {
		err := UnknownEntity(g, tc.name, tc.at)
		if got := front.Message(err, tc.f); got != tc.want {
			t.Errorf("UnknownEntity(%q, %q) for %v:\n got %s\nwant %s", tc.name, tc.at, tc.f, got, tc.want)
		}
	}
}
