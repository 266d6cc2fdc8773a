package materialize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// tm builds a timestamp from "YYYY-MM-DD HH:MM" or "YYYY-MM-DD".
func tm(s string) parse.Time {
	var t parse.Time
	t.Raw = s
	if n, _ := fmt.Sscanf(s, "%d-%d-%d %d:%d", &t.Year, &t.Month, &t.Day, &t.Hour, &t.Minute); n == 3 {
		t.DateOnly = true
	}
	return t
}

// ev builds an event: details are "key: value" strings; a detail
// "@scope: a, b" sets the Scope, "@refs: evt-1" the Refs and
// "@summary: x" the Summary.
func ev(num int, ts, typ string, details ...string) parse.Event {
	e := parse.Event{ID: fmt.Sprintf("evt-%03d", num), Num: num, Time: tm(ts), Agent: "agent", Type: typ,
		Summary: fmt.Sprintf("%s event %d", typ, num)}
	for _, d := range details {
		k, v, _ := strings.Cut(d, ":")
		v = strings.TrimSpace(v)
		switch k {
		case "@scope":
			e.Scope = v
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					e.Scopes = append(e.Scopes, s)
				}
			}
		case "@refs":
			e.Refs = strings.Split(v, ", ")
		case "@summary":
			e.Summary = v
		default:
			e.Details = append(e.Details, parse.Detail{Key: k, Value: v})
		}
	}
	return e
}

// nodeRow renders one node the way a test reads it.
func nodeRow(n *Node) string {
	if n == nil {
		return "<nil>"
	}
	var as []string
	for _, a := range n.Attrs {
		as = append(as, a.Key+"="+a.Value)
	}
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s", n.Name, n.Type, n.Status, n.Created, n.LastEvent, strings.Join(as, ";"))
}

func edgeRows(g *Graph) []string {
	var out []string
	for _, e := range g.Edges {
		var as []string
		for _, a := range e.Attrs {
			as = append(as, a.Key+"="+a.Value)
		}
		out = append(out, fmt.Sprintf("%s|%s", e.Label(), strings.Join(as, ";")))
	}
	return out
}

// sameGraph reports the first difference between two graphs.
func sameGraph(t *testing.T, got, want *Graph) {
	t.Helper()
	if got.Horizon != want.Horizon || got.Updated != want.Updated {
		t.Fatalf("meta: got %q %q, want %q %q", got.Horizon, got.Updated, want.Horizon, want.Updated)
	}
	if len(got.Nodes) != len(want.Nodes) || len(got.Edges) != len(want.Edges) {
		t.Fatalf("got %d nodes %d edges, want %d %d", len(got.Nodes), len(got.Edges), len(want.Nodes), len(want.Edges))
	}
	for i := range got.Nodes {
		if a, b := nodeRow(got.Nodes[i]), nodeRow(want.Nodes[i]); a != b {
			t.Fatalf("node %d:\n got %q\nwant %q", i, a, b)
		}
	}
	ge, we := edgeRows(got), edgeRows(want)
	for i := range ge {
		if ge[i] != we[i] {
			t.Fatalf("edge %d:\n got %q\nwant %q", i, ge[i], we[i])
		}
	}
}
