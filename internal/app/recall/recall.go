package recall

import (
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// DefaultBudget is the pack's word budget when none is given: half of
// context.md's default, since the pack is loaded beside it.
const DefaultBudget = 1500

// DefaultDepth is how far from each entity the pack follows edges.
const DefaultDepth = 1

// MaxDepth bounds --depth: past a few hops a pack is the whole graph,
// which memsys graph prints already.
const MaxDepth = 5

// The inputs Check's errors name: memsys recall's flags, memsys_recall's
// parameters.
var (
	inDepth  = front.Input{Flag: "--depth", Param: "depth"}
	inBudget = front.Input{Flag: "--budget", Param: "budget"}
)

// Query is what the agent asks for.
type Query struct {
	Entities []string // names as the agent writes them; matched by materialize.Canon
	Depth    int      // neighbours up to this many edges away
	Budget   int      // words
}

// Lookup returns an event by ID as written in the graph (matched by
// number, so evt-7 finds evt-007), or false when it is not in the log
// or the archive.
type Lookup func(id string) (*parse.Event, bool)

// EventRef is one event as the pack cites it.
type EventRef struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Agent   string `json:"agent"`
	Type    string `json:"type"`
	Summary string `json:"summary"`
}

// Attr is one graph attribute.
type Attr struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Entity is one asked-for entity: its current state and provenance.
type Entity struct {
	Name      string    `json:"name"`
	Type      string    `json:"type"`
	Status    string    `json:"status"`
	Attrs     []Attr    `json:"attrs"`
	Created   *EventRef `json:"created"`
	LastEvent *EventRef `json:"last_event"`
}

// Blocker is an open "blocks" edge on an entity of the pack.
type Blocker struct {
	From  string    `json:"from"`
	To    string    `json:"to"`
	Since *EventRef `json:"since"`
}

// Decision is an active decision node joined to an entity of the pack.
type Decision struct {
	Name      string    `json:"name"`
	Entity    string    `json:"entity"`
	From      string    `json:"from,omitempty"`
	To        string    `json:"to,omitempty"`
	Rationale string    `json:"rationale,omitempty"`
	Event     *EventRef `json:"event"`
}

// Neighbour is a node within Depth edges of an asked-for entity.
type Neighbour struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Status   string `json:"status"`
	Depth    int    `json:"depth"`
	Via      string `json:"via"` // the edge that reached it: "from -relation-> to"
	LastSeen string `json:"last_event"`
}

// Omitted counts what the budget cut, per section.
type Omitted struct {
	Blockers   int `json:"blockers"`
	Decisions  int `json:"decisions"`
	Neighbours int `json:"neighbours"`
	Events     int `json:"events"`
}

// Pack is the recall pack. Every list is in a fixed order, so the same
// events give the same pack.
type Pack struct {
	// Query names the asked-for nodes as the graph names them, each
	// once, in the order asked.
	Query      []string    `json:"query"`
	Horizon    string      `json:"horizon"`
	Depth      int         `json:"depth"`
	Budget     int         `json:"budget"`
	Words      int         `json:"words"`
	Entities   []Entity    `json:"entities"`
	Blockers   []Blocker   `json:"blockers"`
	Decisions  []Decision  `json:"decisions"`
	Neighbours []Neighbour `json:"neighbours"`
	Events     []EventRef  `json:"events"`
	Omitted    Omitted     `json:"omitted"`
}

// Check validates q as the CLI and the MCP tool receive it; the error
// says what to do.
func (q *Query) Check() error {
	if len(q.Entities) == 0 {
		return front.Errorf("recall needs at least one entity, e.g. %s", front.Word{CLI: "memsys recall auth_module", MCP: `memsys_recall with "entities": ["auth_module"]`})
	}
	for _, e := range q.Entities {
		if err := materialize.CheckEntityName(e); err != nil {
			return err
		}
	}
	if q.Depth < 0 || q.Depth > MaxDepth {
		return front.Errorf("%s %d: use 0 to %d", inDepth.Name(), q.Depth, MaxDepth)
	}
	if q.Budget <= 0 {
		return front.Errorf("%s %d: give a positive number of words", inBudget.Name(), q.Budget)
	}
	return nil
}

// Build assembles the pack for q from the replayed graph g, citing
// events through lookup. The budget is applied in this priority order,
// highest first: the asked-for entities (never cut), open blockers,
// active decisions, neighbours (nearer first), recent events (newer
// first). Items are taken in that order while the rendered pack stays
// within the budget; the first item that does not fit ends the pack,
// and everything after it is counted in Omitted.
func Build(g *materialize.Graph, lookup Lookup, q Query) (*Pack, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	// Lists are never null in JSON.
	p := &Pack{Query: q.Entities, Horizon: g.Horizon, Depth: q.Depth, Budget: q.Budget,
		Entities: []Entity{}, Blockers: []Blocker{}, Decisions: []Decision{}, Neighbours: []Neighbour{}, Events: []EventRef{}}
	// Events are looked up only for what the pack shows (fill), once
	// each: a hub entity cites hundreds that the budget cuts.
	looked := map[string]*parse.Event{}
	fill := func(r *EventRef) {
		if r == nil || r.Type != "" {
			return
		}
		e, seen := looked[r.ID]
		if !seen {
			e, _ = lookup(r.ID)
			looked[r.ID] = e
		}
		if e != nil {
			r.Time, r.Agent, r.Type, r.Summary = e.Time.String(), e.Agent, e.Type, e.Summary
		}
	}
	ref := func(id string) *EventRef {
		if id == "" {
			return nil
		}
		return &EventRef{ID: id}
	}
	// The asked-for nodes, each once, in the order asked.
	var roots []*materialize.Node
	for _, name := range q.Entities {
		n := g.Node(name)
		if n == nil {
			return nil, materialize.UnknownEntity(g, name, "")
		}
		if !slices.Contains(roots, n) {
			roots = append(roots, n)
		}
	}
	// The pack is about the nodes, named as the graph names them (as
	// snapshot's header does), not as typed: "  Billing " is billing.
	p.Query = make([]string, len(roots))
	for i, n := range roots {
		p.Query[i] = n.Name
	}
	depth := map[*materialize.Node]int{}
	for _, n := range roots {
		depth[n] = 0
	}
	// Breadth first over edges in either direction; a node's depth and
	// the edge that reached it are the first found in graph row order.
	via := map[*materialize.Node]*materialize.Edge{}
	frontier := roots
	for d := 1; d <= q.Depth && len(frontier) > 0; d++ {
		in := map[*materialize.Node]bool{}
		for _, n := range frontier {
			in[n] = true
		}
		var next []*materialize.Node
		for _, e := range g.Edges {
			from, to := g.Node(e.From), g.Node(e.To)
			if from == nil || to == nil {
				continue
			}
			for _, pair := range [2][2]*materialize.Node{{from, to}, {to, from}} {
				if in[pair[0]] {
					if _, seen := depth[pair[1]]; !seen {
						depth[pair[1]] = d
						via[pair[1]] = e
						next = append(next, pair[1])
					}
				}
			}
		}
		frontier = next
	}
	var events []string
	cite := func(ids ...string) {
		for _, id := range ids {
			if id != "" && !slices.Contains(events, id) {
				events = append(events, id)
			}
		}
	}
	for _, n := range roots {
		p.Entities = append(p.Entities, Entity{Name: n.Name, Type: n.Type, Status: n.Status, Attrs: attrs(n.Attrs),
			Created: ref(n.Created), LastEvent: ref(n.LastEvent)})
		cite(n.Created, n.LastEvent)
	}
	isRoot := func(name string) bool {
		n := g.Node(name)
		return n != nil && depth[n] == 0 && slices.Contains(roots, n)
	}
	// The entities' own edges: their events, and the open blockers.
	for _, e := range g.Edges {
		if !isRoot(e.From) && !isRoot(e.To) {
			continue
		}
		cite(e.Created)
		for _, a := range e.Attrs {
			if isEventID(a.Value) {
				cite(a.Value)
			}
		}
		if _, resolved := e.Attr("resolved"); e.Relation == "blocks" && !resolved {
			p.Blockers = append(p.Blockers, Blocker{From: e.From, To: e.To, Since: ref(lastOf(e))})
		}
	}
	for _, e := range g.Edges {
		if e.Relation != "implements" {
			continue
		}
		for _, pair := range [2][2]string{{e.From, e.To}, {e.To, e.From}} {
			d, other := g.Node(pair[0]), pair[1]
			if d == nil || d.Type != "decision" || strings.EqualFold(d.Status, "deprecated") || !isRoot(other) {
				continue
			}
			if g.Node(other) != nil && g.Node(other).Type == "decision" {
				continue
			}
			dec := Decision{Name: d.Name, Entity: g.Node(other).Name, Event: ref(d.Created)}
			dec.From, _ = d.Attr("from")
			dec.To, _ = d.Attr("to")
			dec.Rationale, _ = d.Attr("rationale")
			p.Decisions = append(p.Decisions, dec)
			cite(d.Created)
		}
	}
	for d := 1; d <= q.Depth; d++ {
		for _, n := range g.Nodes {
			if dn, ok := depth[n]; !ok || dn != d || n.Type == "decision" {
				continue
			}
			p.Neighbours = append(p.Neighbours, Neighbour{Name: n.Name, Type: n.Type, Status: n.Status, Depth: d,
				Via: via[n].Label(), LastSeen: n.LastEvent})
		}
	}
	// Recent events: every event the graph records on the asked-for
	// rows, newest (highest number) first.
	slices.SortStableFunc(events, func(a, b string) int { return eventNum(b) - eventNum(a) })
	for _, id := range events {
		p.Events = append(p.Events, EventRef{ID: id})
	}
	for i := range p.Entities {
		fill(p.Entities[i].Created)
		fill(p.Entities[i].LastEvent)
	}
	trim(p, func(p *Pack) {
		for i := range p.Blockers {
			fill(p.Blockers[i].Since)
		}
		for i := range p.Decisions {
			fill(p.Decisions[i].Event)
		}
		for i := range p.Events {
			fill(&p.Events[i])
		}
	})
	return p, nil
}

// lastOf is the event that last opened a blocks edge: its reopening, if
// any, else its creation.
func lastOf(e *materialize.Edge) string {
	if r, ok := e.Attr("reopened"); ok && isEventID(r) {
		return r
	}
	return e.Created
}

func attrs(as []materialize.Attr) []Attr {
	out := make([]Attr, 0, len(as))
	for _, a := range as {
		out = append(out, Attr{a.Key, a.Value})
	}
	return out
}

func isEventID(s string) bool { return eventNum(s) > 0 }

// eventNum is the number of an evt-N ID, 0 if s is not one.
func eventNum(s string) int {
	n, _ := parse.EventNum(s)
	return n
}

// trim cuts p to its budget in the documented priority order.
// fill looks up the events of the items kept.
func trim(p *Pack, fill func(*Pack)) {
	full := *p
	total := len(p.Blockers) + len(p.Decisions) + len(p.Neighbours) + len(p.Events)
	keep := func(k int) {
		*p = full
		take := func(n int) int {
			t := min(n, k)
			k -= t
			return t
		}
		nb, nd, nn, ne := take(len(full.Blockers)), take(len(full.Decisions)), take(len(full.Neighbours)), take(len(full.Events))
		p.Blockers, p.Decisions, p.Neighbours, p.Events = full.Blockers[:nb], full.Decisions[:nd], full.Neighbours[:nn], full.Events[:ne]
		p.Omitted = Omitted{len(full.Blockers) - nb, len(full.Decisions) - nd, len(full.Neighbours) - nn, len(full.Events) - ne}
		fill(p)
		p.Words = 0
		p.Words = words.Visible(Markdown(p))
	}
	// The most items that fit: word counts grow with k, so search.
	lo, hi := 0, total
	for lo < hi {
		mid := (lo + hi + 1) / 2
		keep(mid)
		if p.Words <= p.Budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	keep(lo)
}
