package memory

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/memsys/memsys/materialize"
)

// FilterGraph returns the part of g whose nodes have one of statuses,
// with the edges between kept nodes. g is not changed.
func FilterGraph(g *materialize.Graph, statuses []string) *materialize.Graph {
	out := &materialize.Graph{Horizon: g.Horizon, Updated: g.Updated}
	kept := map[*materialize.Node]bool{}
	for _, n := range g.Nodes {
		if slices.Contains(statuses, strings.ToLower(n.Status)) {
			out.Nodes = append(out.Nodes, n)
			kept[n] = true
		}
	}
	for _, e := range g.Edges {
		if from, to := g.Node(e.From), g.Node(e.To); from != nil && to != nil && kept[from] && kept[to] {
			out.Edges = append(out.Edges, e)
		}
	}
	return out
}

// AttrJSON is one ordered attribute in graph JSON.
type AttrJSON struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// NodeJSON is a node in graph JSON.
type NodeJSON struct {
	Name      string     `json:"name"`
	Type      string     `json:"type"`
	Status    string     `json:"status"`
	Created   string     `json:"created"`
	LastEvent string     `json:"last_event"`
	Attrs     []AttrJSON `json:"attrs"`
}

// EdgeJSON is an edge in graph JSON.
type EdgeJSON struct {
	From     string     `json:"from"`
	To       string     `json:"to"`
	Relation string     `json:"relation"`
	Created  string     `json:"created"`
	Attrs    []AttrJSON `json:"attrs"`
}

// GraphJSONDoc is the JSON form of the graph: lists, never null, in the
// graph's own deterministic order.
type GraphJSONDoc struct {
	Horizon string     `json:"horizon"`
	Updated string     `json:"updated"`
	Nodes   []NodeJSON `json:"nodes"`
	Edges   []EdgeJSON `json:"edges"`
}

func attrs(as []materialize.Attr) []AttrJSON {
	out := make([]AttrJSON, 0, len(as))
	for _, a := range as {
		out = append(out, AttrJSON{a.Key, a.Value})
	}
	return out
}

// GraphJSON converts g for JSON output.
func GraphJSON(g *materialize.Graph) GraphJSONDoc {
	d := GraphJSONDoc{Horizon: g.Horizon, Updated: g.Updated, Nodes: []NodeJSON{}, Edges: []EdgeJSON{}}
	for _, n := range g.Nodes {
		d.Nodes = append(d.Nodes, NodeJSON{n.Name, n.Type, n.Status, n.Created, n.LastEvent, attrs(n.Attrs)})
	}
	for _, e := range g.Edges {
		d.Edges = append(d.Edges, EdgeJSON{e.From, e.To, e.Relation, e.Created, attrs(e.Attrs)})
	}
	return d
}

// ids gives every node, and every edge end that names no node, a
// stable identifier n1, n2, ... in graph order, since node names may
// hold characters neither Mermaid nor DOT allow in IDs.
func ids(g *materialize.Graph) (func(name string) string, []string) {
	m := map[string]string{}
	var extra []string
	for _, n := range g.Nodes {
		if _, ok := m[n.Name]; !ok {
			m[n.Name] = fmt.Sprintf("n%d", len(m)+1)
		}
	}
	id := func(name string) string {
		if n := g.Node(name); n != nil {
			name = n.Name
		}
		return m[name]
	}
	for _, e := range g.Edges {
		for _, end := range []string{e.From, e.To} {
			if id(end) == "" {
				m[end] = fmt.Sprintf("n%d", len(m)+1)
				extra = append(extra, end)
			}
		}
	}
	return id, extra
}

// mermaidText escapes a label for a quoted Mermaid string: Mermaid reads
// "#name;" entity codes, so '"', '#', '<', '>' and '&' are written as
// codes and cannot end the string or inject HTML.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString("#quot;")
		case '#':
			b.WriteString("#35;")
		case '<':
			b.WriteString("#lt;")
		case '>':
			b.WriteString("#gt;")
		case '&':
			b.WriteString("#amp;")
		case '\n', '\r':
			b.WriteString(" ")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Mermaid renders g as a Mermaid flowchart, which GitHub renders inside
// a ```mermaid block. Statuses other than active get a class so blocked
// and deprecated nodes stand out.
func Mermaid(g *materialize.Graph) []byte {
	var b bytes.Buffer
	id, extra := ids(g)
	b.WriteString("flowchart LR\n")
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "  %s[\"%s<br/>%s · %s\"]\n", id(n.Name), mermaidText(n.Name), mermaidText(n.Type), mermaidText(n.Status))
	}
	for _, name := range extra {
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", id(name), mermaidText(name))
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -->|\"%s\"| %s\n", id(e.From), mermaidText(e.Relation), id(e.To))
	}
	classes := map[string]string{
		"blocked":    "fill:#fdd,stroke:#c00",
		"completed":  "fill:#dfd,stroke:#070",
		"deprecated": "fill:#eee,stroke:#999,stroke-dasharray:4",
		"planned":    "fill:#fff,stroke:#66c,stroke-dasharray:2",
	}
	for _, st := range materialize.NodeStatuses {
		var members []string
		for _, n := range g.Nodes {
			if strings.EqualFold(n.Status, st) {
				members = append(members, id(n.Name))
			}
		}
		if style, ok := classes[st]; ok && len(members) > 0 {
			fmt.Fprintf(&b, "  classDef %s %s\n  class %s %s\n", st, style, strings.Join(members, ","), st)
		}
	}
	return b.Bytes()
}

// dotText quotes a DOT string: backslash and '"' are escaped, line
// breaks become the \n escape.
func dotText(s string) string { return `"` + dotEscaper.Replace(s) + `"` }

// dotEscaper is built once, on its first use.
var dotEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`)

// DOT renders g for Graphviz.
func DOT(g *materialize.Graph) []byte {
	var b bytes.Buffer
	id, extra := ids(g)
	b.WriteString("digraph memsys {\n  rankdir=LR;\n  node [shape=box];\n")
	for _, n := range g.Nodes {
		style := ""
		switch strings.ToLower(n.Status) {
		case "blocked":
			style = ", color=red"
		case "deprecated":
			style = ", style=dashed, fontcolor=gray"
		}
		fmt.Fprintf(&b, "  %s [label=%s%s];\n", id(n.Name), dotText(n.Name+"\n"+n.Type+" · "+n.Status), style)
	}
	for _, name := range extra {
		fmt.Fprintf(&b, "  %s [label=%s, style=dotted];\n", id(name), dotText(name))
	}
	for _, e := range g.Edges {
		fmt.Fprintf(&b, "  %s -> %s [label=%s];\n", id(e.From), id(e.To), dotText(e.Relation))
	}
	b.WriteString("}\n")
	return b.Bytes()
}
