package materialize

import (
	"strings"

	"github.com/memsys/memsys/parse"
	"unicode/utf8"
)

// The seed's Graph Schema. Replay writes nothing outside these lists.
var (
	NodeTypes     = []string{"component", "task", "dependency", "decision", "document", "milestone"}
	NodeStatuses  = []string{"active", "blocked", "completed", "deprecated", "planned"}
	EdgeRelations = []string{"depends_on", "blocks", "implements", "tests", "documents", "contains", "precedes", "related_to"}
)

// Attr is one node or edge attribute. Attributes keep the order in
// which replay first set them, so output never depends on map order.
type Attr struct{ Key, Value string }

// Node is one row of graph.md's Nodes table.
type Node struct {
	Name      string // display name: the entity as first written
	Type      string
	Status    string
	Created   string // event ID that created the row
	LastEvent string // event ID that last touched the row
	Attrs     []Attr

	// key is Canon(Name), kept by replay, which matches names against
	// it for every edge and reference; "" in a Graph read from graph.md.
	key string
}

// canon is Canon(n.Name), computed once for a replayed node.
func (n *Node) canon() string {
	if n.key != "" {
		return n.key
	}
	return Canon(n.Name)
}

// Attr returns the value of attribute key and whether it is set.
func (n *Node) Attr(key string) (string, bool) { return getAttr(n.Attrs, key) }

// Edge is one row of graph.md's Edges table. From and To are node
// display names.
type Edge struct {
	From, To, Relation string
	Created            string
	Attrs              []Attr
}

// Attr returns the value of attribute key and whether it is set.
func (e *Edge) Attr(key string) (string, bool) { return getAttr(e.Attrs, key) }

// Label is the edge as `memsys show` prints it: "from -relation-> to".
func (e *Edge) Label() string { return e.From + " -" + e.Relation + "-> " + e.To }

// Graph is the knowledge graph: rows in creation order (the order in
// which replay first wrote them), which is also graph.md's row order.
type Graph struct {
	Nodes   []*Node
	Edges   []*Edge
	Horizon string // last event ID replayed ("" when none)
	Updated string // horizon event's timestamp as written ("" when none)

	index map[string]*Node // canonical name → node

	// What replay knows beyond the tables (nil in a parsed graph.md).
	at        parse.Time // the horizon event's time
	loops     []*Loop
	conflicts []Conflict
}

// OpenLoops returns the loops still open at the horizon, oldest first.
func (g *Graph) OpenLoops() []*Loop { return g.loops }

// Conflicts returns the conflicting live decisions at the horizon.
func (g *Graph) Conflicts() []Conflict { return g.conflicts }

// HorizonTime is the horizon event's timestamp, against which ages,
// due dates and decay are measured: never the clock.
func (g *Graph) HorizonTime() parse.Time { return g.at }

// Node returns the node whose canonical name matches name, or nil.
// Names match ignoring case and treating runs of spaces, '-' and '_' as
// one separator, so "Auth Module" finds "auth_module".
func (g *Graph) Node(name string) *Node {
	k := Canon(name)
	if g.index != nil && len(g.index) == len(g.Nodes) {
		return g.index[k]
	}
	// A Graph built by hand (a filtered copy, say) has no index.
	for _, n := range g.Nodes {
		if n.canon() == k {
			return n
		}
	}
	return nil
}

// reindex rebuilds the lookup index after ParseGraph.
func (g *Graph) reindex() {
	g.index = make(map[string]*Node, len(g.Nodes))
	for _, n := range g.Nodes {
		if _, ok := g.index[Canon(n.Name)]; !ok {
			g.index[Canon(n.Name)] = n
		}
	}
}

// Canon is the matching key of an entity name: lower case, runs of
// spaces, tabs, '-' and '_' folded to one '_', none at either end.
func Canon(name string) string {
	if isCanon(name) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name))
	sep := false
	for _, r := range strings.ToLower(name) {
		if r == ' ' || r == '-' || r == '_' || r == '\t' || r == '\n' || r == '\r' {
			sep = b.Len() > 0
			continue
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// canonEmpty reports whether Canon(s) is "" without building it: s is
// made of separators only (lowering maps no other rune to one).
func canonEmpty(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '-', '_', '\t', '\n', '\r':
		default:
			return false
		}
	}
	return true
}

// isCanon reports whether name is already its own canonical form, the
// common case, so lookups allocate nothing.
func isCanon(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == '_' || s[len(s)-1] == '_' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c == ' ', c == '-', c == '\t', c == '\n', c == '\r', c >= utf8.RuneSelf:
			return false
		case c == '_' && s[i+1] == '_':
			return false
		}
	}
	return true
}

func getAttr(as []Attr, key string) (string, bool) {
	for _, a := range as {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// setAttr sets key in place, or appends it; it reports whether the
// value changed.
func setAttr(as *[]Attr, key, value string) bool {
	for i := range *as {
		if (*as)[i].Key == key {
			if (*as)[i].Value == value {
				return false
			}
			(*as)[i].Value = value
			return true
		}
	}
	*as = append(*as, Attr{key, value})
	return true
}

// delAttr removes key; it reports whether it was set.
func delAttr(as *[]Attr, key string) bool {
	for i := range *as {
		if (*as)[i].Key == key {
			*as = append((*as)[:i], (*as)[i+1:]...)
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
