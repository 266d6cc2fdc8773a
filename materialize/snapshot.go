package materialize

import (
	"strings"

	"github.com/memsys/memsys/parse"
)

// Snapshot is one entity as the history leaves it: seed 000's entity
// snapshot, a receipt a person can diff. Each attribute carries the
// event that last set it (provenance); History lists every event that
// touched the node or one of its edges. Superseded events changed
// nothing, so they are not in it.
type Snapshot struct {
	Name      string         `json:"name"`
	Type      string         `json:"type"`
	Status    string         `json:"status"`
	Created   string         `json:"created"`
	LastEvent string         `json:"last_event"`
	Horizon   string         `json:"horizon"`
	Attrs     []SnapshotAttr `json:"attributes"`
	Edges     []SnapshotEdge `json:"edges"`
	History   []SnapshotStep `json:"history"`
}

// SnapshotAttr is one attribute and the event that set its value.
type SnapshotAttr struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Event string `json:"event"`
}

// SnapshotEdge is one edge from or to the entity.
type SnapshotEdge struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Relation string `json:"relation"`
	Created  string `json:"created"`
	Attrs    string `json:"attributes"`
}

// SnapshotStep is one event of the entity's history.
type SnapshotStep struct {
	ID      string   `json:"id"`
	Time    string   `json:"time"`
	Agent   string   `json:"agent"`
	Type    string   `json:"type"`
	Summary string   `json:"summary"`
	Notes   []string `json:"notes"`
}

// EntitySnapshot replays events and returns the snapshot of entity
// (matched on its canonical key, as the graph matches names), or false
// when no node of that name exists at the end.
func EntitySnapshot(events []parse.Event, entity string) (*Snapshot, bool) {
	b := NewSnapshotBuilder(entity, Supersessions(events))
	for i := range events {
		b.Add(&events[i])
	}
	return b.Snapshot()
}

// A SnapshotBuilder is EntitySnapshot for a history streamed event by
// event, so a command need not keep the events: it retains nothing of
// an event but its strings (parse.Reuse). Like a Replayer it is given
// the history's Supersedes fields in advance (workspace's prediction
// from the bytes); when the events carried others, Exact is false and
// the snapshot must be built again from the events (EntitySnapshot).
type SnapshotBuilder struct {
	key     string
	r       *replayer
	sup     *supersession
	prov    map[string]string // attribute key → event that set the current value
	vals    map[string]string
	history []SnapshotStep
}

// NewSnapshotBuilder starts the snapshot of entity over a history whose
// Supersedes fields are edges.
func NewSnapshotBuilder(entity string, edges []parse.Supersession) *SnapshotBuilder {
	return &SnapshotBuilder{key: Canon(entity), r: newReplayer(), sup: newSupersession(edges),
		prov: map[string]string{}, vals: map[string]string{}}
}

// Add replays the history's next event.
func (b *SnapshotBuilder) Add(e *parse.Event) {
	var ch Change
	if j := b.sup.supersededBy(e); j >= 0 {
		b.r.skip(e, &ch, b.sup.edges[j].ID)
	} else {
		b.r.apply(e, &ch)
	}
	b.sup.observe(e)
	n := b.r.g.index[b.key]
	if n == nil {
		return
	}
	touched := false
	for _, a := range n.Attrs {
		if v, ok := b.vals[a.Key]; !ok || v != a.Value {
			b.vals[a.Key], b.prov[a.Key] = a.Value, cleanName(e.ID)
			touched = true
		}
	}
	touched = touched || contains(ch.NodesAdded, n.Name) || contains(ch.NodesUpdated, n.Name) ||
		labelsTouch(ch.EdgesAdded, b.key) || labelsTouch(ch.EdgesUpdated, b.key)
	if touched {
		b.history = append(b.history, SnapshotStep{ID: e.ID, Time: e.Time.String(), Agent: e.Agent, Type: e.Type, Summary: e.Summary, Notes: orEmpty(ch.Notes)})
	}
}

// Exact reports whether the events added carried exactly the
// Supersedes fields the builder was given (Replayer.Exact).
func (b *SnapshotBuilder) Exact() bool { return b.sup.done() }

// Snapshot returns the entity's snapshot after the events added, or
// false when no node of that name exists.
func (b *SnapshotBuilder) Snapshot() (*Snapshot, bool) {
	g := b.r.graph()
	n := g.index[b.key]
	if n == nil {
		return nil, false
	}
	s := &Snapshot{Name: n.Name, Type: n.Type, Status: n.Status, Created: n.Created, LastEvent: n.LastEvent, Horizon: g.Horizon,
		Attrs: []SnapshotAttr{}, Edges: []SnapshotEdge{}, History: orSteps(b.history)}
	for _, a := range n.Attrs {
		s.Attrs = append(s.Attrs, SnapshotAttr{Key: a.Key, Value: a.Value, Event: b.prov[a.Key]})
	}
	for _, e := range g.Edges {
		if Canon(e.From) == b.key || Canon(e.To) == b.key {
			s.Edges = append(s.Edges, SnapshotEdge{From: e.From, To: e.To, Relation: e.Relation, Created: e.Created, Attrs: attrText(e.Attrs)})
		}
	}
	return s, true
}

// labelsTouch reports whether an edge label "from -rel-> to" names the
// node with canonical key key at either end.
func labelsTouch(labels []string, key string) bool {
	for _, l := range labels {
		from, rest, ok := strings.Cut(l, " -")
		if !ok {
			continue
		}
		_, to, _ := strings.Cut(rest, "-> ")
		if Canon(from) == key || Canon(to) == key {
			return true
		}
	}
	return false
}

func attrText(as []Attr) string {
	parts := make([]string, len(as))
	for i, a := range as {
		parts[i] = a.Key + "=" + a.Value
	}
	return strings.Join(parts, "; ")
}

func orEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

func orSteps(xs []SnapshotStep) []SnapshotStep {
	if xs == nil {
		return []SnapshotStep{}
	}
	return xs
}
