package materialize

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/parse"
)

// FuzzParseGraphWhere: reading some rows of a rendered graph gives the
// rows ParseGraph reads, filtered the same way, in the same order.
func FuzzParseGraphWhere(f *testing.F) {
	logs, _ := filepath.Glob("../examples/*/CHANGELOG.md")
	for _, p := range logs {
		if src, err := os.ReadFile(p); err == nil {
			f.Add(src, uint8(3))
		}
	}
	for _, h := range hostile {
		f.Add([]byte("## Event Log\n\n### evt-001 | 2026-03-02 09:00 | a | create\n\n**Scope**: "+h.text+
			"\n**Summary**: x\n\n**Details**:\n- entity: "+h.text+"\n- depends_on: y\n"), uint8(1))
	}
	f.Fuzz(func(t *testing.T, src []byte, mod uint8) {
		m := int(mod%4) + 1
		keep := func(key string) bool { return len(key)%m == 0 }
		graph := RenderGraph(Replay0(parse.Parse("CHANGELOG.md", src).Events))
		full, err := ParseGraph(graph)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseGraphWhere(graph, keep, func(a, b string) bool { return keep(a) || keep(b) })
		if err != nil {
			t.Fatal(err)
		}
		want := &Graph{Horizon: full.Horizon, Updated: full.Updated}
		for _, n := range full.Nodes {
			if keep(Canon(n.Name)) {
				want.Nodes = append(want.Nodes, n)
			}
		}
		for _, e := range full.Edges {
			if keep(Canon(e.From)) || keep(Canon(e.To)) {
				want.Edges = append(want.Edges, e)
			}
		}
		sameGraph(t, got, want)
		all, err := ParseGraphWhere(graph, func(string) bool { return true }, func(string, string) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, all, full)
	})
}

// Replay0 is Replay without the change records.
func Replay0(evs []parse.Event) *Graph {
	g, _ := Replay(evs)
	return g
}
