package materialize

import (
	"reflect"
	"testing"
)

func TestReadLooseAttrs(t *testing.T) {
	for _, tc := range []struct {
		name, cell string
		want       []Attr
	}{
		{"memsys form", "from=SQLite; to=PostgreSQL", []Attr{{"from", "SQLite"}, {"to", "PostgreSQL"}}},
		// regen writes a ';' before a blank inside a value as &#59;: it
		// is the value's, not a separator (examples/auth's rationale).
		{"escaped semicolon", "rationale=concurrent writers&#59; SQLite locks the file; to=PostgreSQL",
			[]Attr{{"rationale", "concurrent writers; SQLite locks the file"}, {"to", "PostgreSQL"}}},
		{"escaped semicolon at the end", "a=x&#59;", []Attr{{"a", "x;"}}},
		{"other references", "a=1 &lt; 2 &#124; 3; b=&amp;", []Attr{{"a", "1 < 2 | 3"}, {"b", "&"}}},
		{"escaped equals in a key", "a&#61;b=c", []Attr{{"note", "a=b=c"}}},
		{"hand form, no blank", "a=1;b=2", []Attr{{"a", "1"}, {"b", "2"}}},
		{"hand form, commas", "owner: ana, since: 2024", []Attr{{"owner", "ana"}, {"since", "2024"}}},
		{"text without a key", "keeps the sessions; a=1", []Attr{{"a", "1"}, {"note", "keeps the sessions"}}},
		{"backticks", "`a=1; b=2`", []Attr{{"a", "1"}, {"b", "2"}}},
		{"dash", " — ", nil},
		{"empty", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := readAttrs(tc.cell); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("readAttrs(%q) = %q, want %q", tc.cell, got, tc.want)
			}
		})
	}
}

// TestReadLooseRoundTrip: a graph.md regen wrote, read as a hand-kept
// one, holds exactly the model's attributes, so lint (MS204) and adopt
// never take regen's own escapes for hand-kept items.
func TestReadLooseRoundTrip(t *testing.T) {
	g := &Graph{Nodes: []*Node{{Name: "database", Type: "decision", Status: "active", Attrs: []Attr{
		{"rationale", "concurrent writes; SQLite locks the whole file"},
		{"odd", "a = b ; c;"}, {"pipe", "x | y"},
	}}}}
	src := RenderGraph(g)
	hand, probs := ReadLoose(src)
	if len(probs) != 0 || len(hand.Nodes) != 1 {
		t.Fatalf("ReadLoose: %d nodes, problems %q\n%s", len(hand.Nodes), probs, src)
	}
	if got, want := hand.Nodes[0].Attrs, g.Nodes[0].Attrs; !reflect.DeepEqual(got, want) {
		t.Errorf("attributes read back = %q, want %q\n%s", got, want, src)
	}
}

// TestReadLooseHeaders: columns are found by the first word of their
// header, and by the last when no other column has that name, so a
// hand writer's "Key Attributes" or "Node Name" column is read; the
// first-word rule alone read "Key Attributes" as a column "key", and
// adopt dropped every hand-kept attribute without a word.
func TestReadLooseHeaders(t *testing.T) {
	src := []byte("## Nodes\n\n" +
		"| Node Name | Node Type | Status | Last Modified | Key Attributes |\n|---|---|---|---|---|\n" +
		"| auth | component | active | evt-003 | owner: team a |\n\n" +
		"## Edges\n\n| From Node | To Node | Relation Type |\n|---|---|---|\n| auth | db | depends_on |\n")
	g, probs := ReadLoose(src)
	if len(probs) != 0 || len(g.Nodes) != 1 || len(g.Edges) != 1 {
		t.Fatalf("ReadLoose: %d nodes, %d edges, problems %q", len(g.Nodes), len(g.Edges), probs)
	}
	n, e := g.Nodes[0], g.Edges[0]
	if n.Name != "auth" || n.Type != "component" || n.Status != "active" || !reflect.DeepEqual(n.Attrs, []Attr{{"owner", "team a"}}) {
		t.Errorf("node = %+v", *n)
	}
	if e.From != "auth" || e.To != "db" || e.Relation != "depends_on" {
		t.Errorf("edge = %+v", *e)
	}
}
