package materialize

import (
	"reflect"
	"strings"
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

// TestMissingAll: an item is missing only when every graph lacks it. A
// sealed graph.md behind the log is read against the replay at its
// horizon and the current one: a row either draws (one a later event
// superseded, one a later event created) is memsys's, not the team's.
func TestMissingAll(t *testing.T) {
	node := func(name, status string, attrs ...Attr) *Node {
		return &Node{Name: name, Type: "component", Status: status, Attrs: attrs}
	}
	then := &Graph{Nodes: []*Node{node("cache", "active"), node("api", "active", Attr{"owner", "ana"})},
		Edges: []*Edge{{From: "api", To: "cache", Relation: "depends_on"}}}
	now := &Graph{Nodes: []*Node{node("api", "completed"), node("store", "active")}}
	hand := &Graph{Nodes: []*Node{
		node("cache", "active"),                           // superseded since: then has it
		node("api", "blocked", Attr{"owner", "ana"}),      // status by hand; owner then
		node("store", "active", Attr{"team", "platform"}), // created since; team by hand
		node("billing", "active"),                         // by hand
	}, Edges: []*Edge{
		{From: "api", To: "cache", Relation: "depends_on"}, // then
		{From: "api", To: "billing", Relation: "depends_on"},
	}}
	want := []string{
		"node api status blocked (replay: active)",
		"node store attribute team=platform",
		"node billing",
		"edge api -depends_on-> billing",
	}
	if got := MissingAll(hand, []*Graph{then, now}); !reflect.DeepEqual(got, want) {
		t.Errorf("MissingAll = %q,\nwant %q", got, want)
	}
	// Against the current graph alone, what the horizon's drew is missing
	// too: Missing is MissingAll of one graph.
	if got := Missing(hand, now); !reflect.DeepEqual(got, []string{"node cache", "node api status blocked (replay: completed)", "node api attribute owner=ana", "node store attribute team=platform", "node billing", "edge api -depends_on-> cache", "edge api -depends_on-> billing"}) {
		t.Errorf("Missing(now) = %q", got)
	}
}

// TestHandConstraintsAll: a hand-written constraint is one no file
// passed draws; derived items (ending " — evt-NNN") never are.
func TestHandConstraintsAll(t *testing.T) {
	src := []byte("## Active Constraints\n\n- Use Postgres\n- Never ship on Fridays\n- db: Use JSON — evt-004\n")
	then := []byte("## Active Constraints\n\n- Use Postgres — evt-002\n")
	now := []byte("## Active Constraints\n\n(none)\n")
	if got, want := HandConstraints(src, now), []string{`constraint "Use Postgres"`, `constraint "Never ship on Fridays"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("HandConstraints(now) = %q, want %q", got, want)
	}
	if got, want := HandConstraints(src, then, now), []string{`constraint "Never ship on Fridays"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("HandConstraints(then, now) = %q, want %q", got, want)
	}
}

// TestReadLooseExtraColumns: a column ReadLoose does not read (an
// Owner, a Notes, an edge Comment) is named as a problem when any of
// its cells holds text, so adopt does not drop a team's curated column
// without a word; an empty one, and the columns regen derives from the
// events (Created, Last Event), lose nothing and are not named.
func TestReadLooseExtraColumns(t *testing.T) {
	src := []byte("## Nodes\n\n" +
		"| Node | Type | Status | Owner | Created (evt) | Last Event | Empty |\n|---|---|---|---|---|---|---|\n" +
		"| auth | component | active | team-a | evt-001 | evt-003 | |\n" +
		"| db | component | active | | evt-002 | evt-002 | |\n\n" +
		"## Edges\n\n| From | To | Relation | Comment |\n|---|---|---|---|\n| auth | db | depends_on | needs tokens |\n")
	g, probs := ReadLoose(src)
	want := []string{
		`graph.md:3: column "Owner" is not one memsys keeps: its 1 cell is not adopted; write it under Attributes (key=value) to keep it`,
		`graph.md:10: column "Comment" is not one memsys keeps: its 1 cell is not adopted; no event carries an edge's notes: keep them as attributes of a node`,
	}
	if !reflect.DeepEqual(probs, want) {
		t.Errorf("problems:\n got %q\nwant %q", probs, want)
	}
	if len(g.Nodes) != 2 || len(g.Edges) != 1 {
		t.Errorf("ReadLoose: %d nodes, %d edges", len(g.Nodes), len(g.Edges))
	}
}

// TestMissingEdgeAttributes: an attribute of a hand-kept edge that the
// replay does not draw is named, as a node's is, so adopt does not
// report success while dropping it.
func TestMissingEdgeAttributes(t *testing.T) {
	hand := &Graph{Edges: []*Edge{
		{From: "billing", To: "auth", Relation: "depends_on", Attrs: []Attr{{"comment", "needs tokens"}}},
		{From: "key", To: "task", Relation: "blocks", Attrs: []Attr{{"resolved", "evt-009"}}},
	}}
	g := &Graph{Nodes: []*Node{{Name: "billing"}, {Name: "auth"}, {Name: "key"}, {Name: "task"}}, Edges: []*Edge{
		{From: "billing", To: "auth", Relation: "depends_on"},
		{From: "key", To: "task", Relation: "blocks", Attrs: []Attr{{"resolved", "evt-009"}}},
	}}
	if got, want := Missing(hand, g), []string{"edge billing -depends_on-> auth attribute comment=needs tokens"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Missing = %q, want %q", got, want)
	}
	// A graph at the file's horizon that drew the attribute: memsys's,
	// not the team's (MissingAll reads every graph).
	then := &Graph{Nodes: g.Nodes, Edges: []*Edge{{From: "billing", To: "auth", Relation: "depends_on", Attrs: []Attr{{"comment", "needs tokens"}}}}}
	if got := MissingAll(hand, []*Graph{then, g}); len(got) != 0 {
		t.Errorf("MissingAll = %q, want none", got)
	}
}

// TestIsEdgeAttr: the items of Missing that name an edge's attribute,
// which no event carries, are told from the rest (whole edges, nodes and
// their attributes), which adopt records.
func TestIsEdgeAttr(t *testing.T) {
	hand := &Graph{
		Nodes: []*Node{{Name: "billing", Type: "component", Attrs: []Attr{{"owner", "ada"}}}, {Name: "auth"}, {Name: "key attribute store"}},
		Edges: []*Edge{
			{From: "billing", To: "auth", Relation: "depends_on", Attrs: []Attr{{"comment", "needs tokens"}}},
			{From: "billing", To: "key attribute store", Relation: "blocks"},
		},
	}
	g := &Graph{Nodes: []*Node{{Name: "billing", Type: "component"}, {Name: "auth"}}, Edges: []*Edge{{From: "billing", To: "auth", Relation: "depends_on"}}}
	got := map[string]bool{}
	for _, it := range Missing(hand, g) {
		got[it] = IsEdgeAttr(it)
	}
	want := map[string]bool{
		"node billing attribute owner=ada":                               false,
		"node key attribute store":                                       false,
		"edge billing -depends_on-> auth attribute comment=needs tokens": true,
		"edge billing -blocks-> key attribute store":                     false, // a name with " attribute " in it
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("IsEdgeAttr over Missing = %v, want %v", got, want)
	}
}

// TestReadLooseSetext checks that a setext heading opens a section as
// the ATX heading does, and that what only looks like one does not: a
// table row or list item over a dashed line, a dashed line after a
// blank.
func TestReadLooseSetext(t *testing.T) {
	atx := "## Nodes\n\n| Node | Type | Status |\n|---|---|---|\n| a | component | active |\n\n## Edges\n\n| From | To | Relation |\n|---|---|---|\n| a | b | depends_on |\n"
	setext := "Nodes\n-----\n\n| Node | Type | Status |\n|---|---|---|\n| a | component | active |\n\nEdges\n=====\n\n| From | To | Relation |\n|---|---|---|\n| a | b | depends_on |\n"
	for _, src := range []string{atx, setext, strings.ReplaceAll(setext, "\n", "\r\n")} {
		g, probs := ReadLoose([]byte(src))
		if len(g.Nodes) != 1 || len(g.Edges) != 1 || len(probs) != 0 {
			t.Errorf("%q: %d nodes, %d edges, problems %q; want 1, 1, none", src, len(g.Nodes), len(g.Edges), probs)
		}
	}
	for _, src := range []string{
		"Notes\n\n---\n\n| Node | Type | Status |\n|---|---|---|\n| a | component | active |\n",
		"- Nodes\n---\n\n| Node | Type | Status |\n|---|---|---|\n| a | component | active |\n",
	} {
		if g, _ := ReadLoose([]byte(src)); len(g.Nodes) != 0 {
			t.Errorf("%q: %d nodes under no heading, want 0", src, len(g.Nodes))
		}
	}
	ctx := "Current Context\n===============\n\nActive Constraints\n------------------\n\n- Never store card numbers\n\nNotes\n-----\n\n- not a constraint\n"
	if got := ReadConstraints([]byte(ctx)); len(got) != 1 || got[0] != "Never store card numbers" {
		t.Errorf("setext Active Constraints: %q", got)
	}
}
