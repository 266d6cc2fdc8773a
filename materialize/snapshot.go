package materialize

import (
	"slices"
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

// SnapshotEdge is one edge from or to the entity. Its attributes are
// key and value objects, as the node's are (and as graph --format json
// gives an edge's): a consumer reads both the same way.
type SnapshotEdge struct {
	From     string         `json:"from"`
	To       string         `json:"to"`
	Relation string         `json:"relation"`
	Created  string         `json:"created"`
	Attrs    []SnapshotPair `json:"attributes"`
}

// SnapshotPair is one attribute of an edge.
type SnapshotPair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// AttrText is the attributes as graph.md's Attributes cell writes
// them: "key=value; key=value".
func (e SnapshotEdge) AttrText() string {
	parts := make([]string, len(e.Attrs))
	for i, a := range e.Attrs {
		parts[i] = a.Key + "=" + a.Value
	}
	return strings.Join(parts, "; ")
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

// A SnapshotBuilder is EntitySnapshot one event at a time, for a
// caller that streams the history (parse.Stream) instead of keeping
// it: memsys snapshot. It keeps no event, only strings read from them
// (which share the parsed source), so a stream may reuse the events'
// memory once Add returns (parse.Reuse with a Returner that returns
// every event taken).
type SnapshotBuilder struct {
	key     string
	r       *replayer
	s       *supersession
	seen    []parse.Supersession
	prov    map[string]string // attribute key → event that set the current value
	vals    map[string]string
	history []SnapshotStep
	// late is set when an event was skipped for an edge that no event
	// added so far carries: right for the whole history, wrong for a
	// history cut before that edge's event (Exact).
	late bool
	// lastSkip is the index of the last expected edge an event was
	// skipped for (-1: none).
	lastSkip int
}

// NewSnapshotBuilder starts the snapshot of entity over a history whose
// Supersedes fields are edges (Replayer.Expect: workspace predicts
// them from the bytes).
func NewSnapshotBuilder(entity string, edges []parse.Supersession) *SnapshotBuilder {
	return &SnapshotBuilder{key: Canon(entity), r: newReplayer(), s: newSupersession(edges),
		prov: map[string]string{}, vals: map[string]string{}, lastSkip: -1}
}

// Exact reports whether the events added carried exactly the Supersedes
// fields the builder was given, so the result equals EntitySnapshot
// over those events. When it is false, build again with a new builder
// given Seen().
func (b *SnapshotBuilder) Exact() bool { return b.s.done() && !b.late }

// Seen returns the Supersedes fields of the events added so far.
func (b *SnapshotBuilder) Seen() []parse.Supersession { return b.seen }

// Cut drops the expected Supersedes fields that no event added so far
// carries, for a caller that stops adding before the end of the
// history it predicted (memsys snapshot --at): Exact then judges the
// history as cut.
func (b *SnapshotBuilder) Cut() {
	if b.s.next < len(b.s.edges) {
		b.late = b.late || b.lastSkip >= b.s.next
		b.s.edges = b.s.edges[:b.s.next]
	}
}

// Add replays the next event and records what it did to the entity.
func (b *SnapshotBuilder) Add(e *parse.Event) {
	// The Change is built in the replayer's scratch and emptied after
	// each event, keeping its slices: a Change per event was a sixth of
	// what memsys snapshot allocated at 1k events.
	ch := &b.r.scratch
	defer func() {
		*ch = Change{NodesAdded: ch.NodesAdded[:0], NodesUpdated: ch.NodesUpdated[:0],
			EdgesAdded: ch.EdgesAdded[:0], EdgesUpdated: ch.EdgesUpdated[:0], Notes: ch.Notes[:0]}
	}()
	if j := b.s.supersededBy(e); j >= 0 {
		b.lastSkip = max(b.lastSkip, j)
		b.r.skip(e, ch, b.s.edges[j].ID)
	} else {
		b.r.apply(e, ch)
	}
	if sp, ok := parse.SupersessionOf(e); ok {
		b.seen = append(b.seen, sp)
	}
	b.s.observe(e)
	n := b.r.g.index[b.key]
	touched := false
	if n != nil {
		for _, a := range n.Attrs {
			if v, ok := b.vals[a.Key]; !ok || v != a.Value {
				b.vals[a.Key], b.prov[a.Key] = a.Value, cleanName(e.ID)
				touched = true
			}
		}
		touched = touched || contains(ch.NodesAdded, n.Name) || contains(ch.NodesUpdated, n.Name) ||
			labelsTouch(ch.EdgesAdded, b.key) || labelsTouch(ch.EdgesUpdated, b.key)
	}
	if touched {
		b.history = append(b.history, SnapshotStep{ID: e.ID, Time: e.Time.String(), Agent: e.Agent, Type: e.Type, Summary: e.Summary, Notes: orEmpty(slices.Clone(ch.Notes))})
	}
}

// Graph returns the graph as replayed so far (for the nearest names
// when the entity is unknown).
func (b *SnapshotBuilder) Graph() *Graph { return b.r.graph() }

// Snapshot returns the entity's snapshot after the events added, or
// false when no node of that name exists.
func (b *SnapshotBuilder) Snapshot() (*Snapshot, bool) {
	key := b.key
	g := b.r.graph()
	n := g.index[key]
	if n == nil {
		return nil, false
	}
	s := &Snapshot{Name: n.Name, Type: n.Type, Status: n.Status, Created: n.Created, LastEvent: n.LastEvent, Horizon: g.Horizon,
		Attrs: []SnapshotAttr{}, Edges: []SnapshotEdge{}, History: orSteps(b.history)}
	for _, a := range n.Attrs {
		s.Attrs = append(s.Attrs, SnapshotAttr{Key: a.Key, Value: a.Value, Event: b.prov[a.Key]})
	}
	for _, e := range g.Edges {
		if Canon(e.From) == key || Canon(e.To) == key {
			s.Edges = append(s.Edges, SnapshotEdge{From: e.From, To: e.To, Relation: e.Relation, Created: e.Created, Attrs: snapshotPairs(e.Attrs)})
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

func snapshotPairs(as []Attr) []SnapshotPair {
	out := make([]SnapshotPair, len(as))
	for i, a := range as {
		out[i] = SnapshotPair(a)
	}
	return out
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
