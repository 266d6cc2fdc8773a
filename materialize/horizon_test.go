package materialize

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

func TestFindHorizon(t *testing.T) {
	for src, want := range map[string]string{
		"# G\n\n<!-- Event horizon: evt-042 | 2025-01-01 -->\n": "evt-042 3",
		"> **Event horizon**: EVT-7\n":                          "EVT-7 1",
		"- **event_horizon**: evt-3\n":                          "evt-3 1",
		"EVENT-HORIZON evt-12 evt-13\n":                         "evt-12 1",
		"Event horizon: none\n":                                 " 1",
		"Event horizon: none\nevt-5\n":                          " 1",
		"horizon: evt-5\n":                                      " 0",
		"eventhorizon: evt-5\n":                                 " 0",
		"hhh Event  horizon evt-1\nthe Event Horizon: evt-2\n":  "evt-2 2",
		"nothing\n":     " 0",
		"":              " 0",
		"Event horizon": " 1",
	} {
		id, line := FindHorizon([]byte(src))
		if got := id + " " + strconv.Itoa(line); got != want {
			t.Errorf("FindHorizon(%q) = %q, want %q", src, got, want)
		}
	}
}

// TestFindHorizonRendered reads back what the renderers write, at the
// end of a large graph.md too.
func TestFindHorizonRendered(t *testing.T) {
	g := &Graph{Horizon: "evt-009", Updated: "2026-03-01 10:00"}
	for range 5000 {
		g.Nodes = append(g.Nodes, &Node{Name: "the horizon of Hh", Type: "component", Status: "active", Created: "evt-001", LastEvent: "evt-001"})
	}
	for name, src := range map[string][]byte{"graph": RenderGraph(g), "context": RenderContext(&Context{Horizon: "evt-009"})} {
		id, line := FindHorizon(src)
		if id != "evt-009" || line < 1 || !strings.Contains(string(bytes.Split(src, []byte("\n"))[line-1]), "evt-009") {
			t.Errorf("%s: horizon %q at line %d", name, id, line)
		}
	}
}
