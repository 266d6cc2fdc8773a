package materialize

import (
	"strconv"
	"strings"
	"sync"

	"github.com/memsys/memsys/parse"
)

// Change records what one event did to the graph, for `memsys show`
// and `memsys log --entity`. Replay returns one Change per event, in
// event order.
type Change struct {
	Event                    string
	NodesAdded, NodesUpdated []string // node display names
	EdgesAdded, EdgesUpdated []string // Edge.Label: "from -relation-> to"
	// Notes name the awkward cases the event hit, e.g. "modify before
	// create: node created". docs/materialize.md lists every one.
	Notes []string
}

// Replay applies events in order: the seed's materialization table made
// exact (docs/materialize.md is the reference). It is pure and
// deterministic, and O(n) in the events up to map lookups.
func Replay(events []parse.Event) (*Graph, []Change) {
	r := newReplayer()
	sup := newSupersession(Supersessions(events))
	changes := make([]Change, len(events))
	for i := range events {
		if j := sup.supersededBy(&events[i]); j >= 0 {
			r.skip(&events[i], &changes[i], sup.edges[j].ID)
		} else {
			r.apply(&events[i], &changes[i])
		}
		sup.observe(&events[i])
	}
	return r.graph(), changes
}

// ReplayGraph is Replay for a caller that reads only the graph: the
// same graph, built without a Change per event, which at 100k events
// are most of what Replay allocates.
func ReplayGraph(events []parse.Event) *Graph {
	g, _ := replayKeeping(events, -1)
	return g
}

// ReplayChange is Replay for a caller that reads the last event's
// Change alone: what memsys show reports, which it now builds while it
// streams (ChangeBuilder, tested against this).
func ReplayChange(events []parse.Event) (*Graph, Change) {
	return replayKeeping(events, len(events)-1)
}

// replayKeeping is Replay building the Change of events[keep] only: the
// others replay quiet into the scratch, emptied after each.
func replayKeeping(events []parse.Event, keep int) (*Graph, Change) {
	r := newReplayer()
	sup := newSupersession(Supersessions(events))
	var kept Change
	for i := range events {
		ch := &r.scratch
		if i == keep {
			ch = &kept
		}
		r.quiet = i != keep
		if j := sup.supersededBy(&events[i]); j >= 0 {
			r.skip(&events[i], ch, sup.edges[j].ID)
		} else {
			r.apply(&events[i], ch)
		}
		sup.observe(&events[i])
		r.scratch = Change{NodesAdded: r.scratch.NodesAdded[:0], Notes: r.scratch.Notes[:0]}
	}
	r.quiet = false
	return r.graph(), kept
}

// A Replayer replays a history one event at a time and builds both
// derived files from it, without keeping the events: regen feeds it
// straight from parse.Stream, so its memory is the graph and a bounded
// digest of the events rather than the whole parsed log. The result is
// the same as Replay followed by BuildContext over the same events.
type Replayer struct {
	r   *replayer
	d   *digest
	src *SourceHasher
	s   *supersession
	// seen are the Supersedes fields of the events applied.
	seen []parse.Supersession
	// legacy replays as memsys did before supersession, loops,
	// priorities and conflicts: only BenchmarkSemanticsCost sets it, to
	// measure what they cost in the same run.
	legacy bool
}

// NewReplayer returns a Replayer whose context follows opt.
func NewReplayer(opt Options) *Replayer {
	return &Replayer{r: newReplayer(), d: newDigest(opt), src: NewSourceHasher(opt), s: newSupersession(nil)}
}

// Expect tells the Replayer, before the first Apply, which Supersedes
// fields the history holds (parse.ScanSupersedes predicts them from the
// bytes), so it can skip a superseded event when it passes, before the
// event that supersedes it arrives. Without Expect the Replayer expects
// none. Exact reports afterwards whether the prediction held.
func (x *Replayer) Expect(edges []parse.Supersession) { x.s = newSupersession(edges) }

// Reserve makes room in the replay's maps, before the first Apply, for
// a history whose log and archive hold size bytes: growing them one
// doubling at a time (each hashes every entry again) was a twentieth of
// a cold lint's profile at 1k events, and reserving saves about 2% of
// its CPU (docs/benchmarks.md). The room follows the generated
// and example logs, about one event per bytesPerEvent bytes, a node
// for every four events and a decision, blocker or loop for every
// sixteen; a history unlike them only grows its maps as before. It is
// capped, so a long history's peak memory does not move, and changes
// no result.
func (x *Replayer) Reserve(size int) {
	n := min(size/bytesPerEvent, reserveCap)
	r := x.r
	if n < 64 || r.any {
		return
	}
	r.g.index = make(map[string]*Node, n/4)
	r.edges = make(map[edgeKey]*Edge, n/4)
	r.decisions = make(map[string]*Node, n/16)
	r.blockers = make(map[string][]blockRec, n/16)
	r.open = make(map[*Node]int, n/16)
	r.openEdge = make(map[*Edge]bool, n/16)
	r.loops.index, r.loops.shut = make(map[evKey]*Loop, n/16), make(map[evKey]bool, n/16)
	r.conflicts.heads, r.conflicts.names = make(map[string][]decisionHead, n/16), make(map[string]string, n/16)
	x.d.created = make(map[int]created, n/4)
}

// bytesPerEvent is about the size of an event as the template writes
// it (319 bytes in the generated 1k log, 330 in examples/auth); reserveCap
// the most events Reserve makes room for.
const (
	bytesPerEvent = 320
	reserveCap    = 8192
)

// Exact reports whether the events applied carried exactly the
// Supersedes fields Expect was given, so the result equals Replay's.
// When it is false, replay the history again with a new Replayer that
// Expects Seen().
func (x *Replayer) Exact() bool { return x.s.done() }

// Seen returns the Supersedes fields of the events applied so far.
func (x *Replayer) Seen() []parse.Supersession { return x.seen }

// Apply replays the next event and returns what it changed. ev is not
// retained beyond its strings.
func (x *Replayer) Apply(ev *parse.Event) Change {
	ch := x.replay(ev)
	x.src.Add(ev)
	return ch
}

// Split returns Apply in two halves that together do what it does, for
// a caller that runs them on two goroutines: replay changes the graph
// and the context digest, hash adds the event to the source digest
// (the seal). Each must see every event, in order, and both must be
// done before the Replayer is used again. At 100k events the digest is
// about a sixth of Apply, which is the longer side of regen's
// parse/replay pipeline: hashing beside the parser balances the two.
func (x *Replayer) Split() (replay, hash func(*parse.Event)) {
	return func(ev *parse.Event) {
		// Nobody reads this Change: build only what replay reads itself.
		x.r.quiet = true
		x.replay(ev)
		x.r.quiet = false
	}, x.src.Add
}

// replay is Apply without the source digest.
func (x *Replayer) replay(ev *parse.Event) Change {
	// The Change is built in the replayer's scratch, not in a local
	// that would escape to the heap for every event (r.ch points at
	// it while the event replays).
	ch := &x.r.scratch
	if x.legacy {
		x.r.apply(ev, ch)
		if len(ch.NodesAdded) > 0 {
			x.d.want(ev)
		}
		x.d.observe(ev)
		return x.r.takeChange()
	}
	if j := x.s.supersededBy(ev); j >= 0 {
		x.r.skip(ev, ch, x.s.edges[j].ID)
	} else {
		x.r.apply(ev, ch)
		if len(ch.NodesAdded) > 0 {
			x.d.want(ev)
		}
		x.d.observe(ev)
	}
	if sp, ok := parse.SupersessionOf(ev); ok {
		x.seen = append(x.seen, sp)
	}
	x.s.observe(ev)
	return x.r.takeChange()
}

// takeChange returns the scratch Change and empties it.
func (r *replayer) takeChange() Change {
	ch := r.scratch
	r.scratch = Change{}
	return ch
}

// Files renders graph.md and context.md as regen writes them: Render's
// output, each sealed (Seal) with the digest of the events replayed.
func (x *Replayer) Files() (graph, context []byte) {
	g, c := x.Render()
	src := x.src.Sum()
	return sealOwned(g, src), sealOwned(c, src)
}

// Graph returns the graph as replayed so far. Later calls to Apply
// keep changing it.
func (x *Replayer) Graph() *Graph { return x.r.graph() }

// Context builds context.md's model from the events replayed so far.
func (x *Replayer) Context() *Context { return x.d.build(x.r.graph()) }

// Render renders graph.md and context.md from the events replayed so
// far, the two side by side: both only read the graph.
func (x *Replayer) Render() (graph, context []byte) {
	g := x.r.graph()
	var wg sync.WaitGroup
	wg.Go(func() { graph = RenderGraph(g) })
	context = RenderContext(x.d.build(g))
	wg.Wait()
	return graph, context
}

func newReplayer() *replayer {
	return &replayer{
		g:         &Graph{index: map[string]*Node{}},
		edges:     map[edgeKey]*Edge{},
		implicit:  map[*Node]bool{},
		decisions: map[string]*Node{},
		blockers:  map[string][]blockRec{},
		open:      map[*Node]int{},
		openEdge:  map[*Edge]bool{},
		loops:     loops{index: map[evKey]*Loop{}, shut: map[evKey]bool{}},
		conflicts: conflicts{heads: map[string][]decisionHead{}, names: map[string]string{}},
	}
}

// apply replays one event, recording its effect in ch.
func (r *replayer) apply(ev *parse.Event, ch *Change) {
	r.ev = ev
	r.id = cleanName(ev.ID)
	r.ch = ch
	r.ch.Event = ev.ID
	r.dispatch()
	if !r.legacy {
		r.loops.apply(r)
	}
	r.g.Horizon = r.id
	r.last, r.any = ev.Time, true
	r.ev, r.ch = nil, nil
}

// skip passes over an event that a later one supersedes: it changes
// nothing but the horizon, which is where the history stands.
func (r *replayer) skip(ev *parse.Event, ch *Change, by string) {
	skipChange(ch, ev.ID, by)
	r.id = cleanName(ev.ID)
	r.g.Horizon = r.id
	r.last, r.any = ev.Time, true
}

// skipChange records in ch what replay did with the event id, which
// the live event by supersedes: nothing but a note (SkippedAt builds
// the same Change for memsys show).
func skipChange(ch *Change, id, by string) {
	ch.Event = id
	ch.Notes = append(ch.Notes, "superseded by "+cleanName(by)+": skipped")
}

// graph returns the graph with its Updated stamp, which is the
// horizon event's time: formatted once here, not for every event.
func (r *replayer) graph() *Graph {
	if r.any {
		r.g.Updated = cleanName(r.last.String())
	}
	r.g.at = r.last
	r.g.loops = r.loops.list()
	r.g.conflicts = r.conflicts.list()
	return r.g
}

type edgeKey struct{ from, to, rel string }

// blockRec is what one blocker event did, so a fix that Refs it can
// undo it: the edge it opened (nil when it named no blocking entity)
// and the node it blocked.
type blockRec struct {
	edge    *Edge
	blocked *Node
}

type replayer struct {
	// scratch is where Replayer.Apply builds each event's Change; it
	// is empty between events.
	scratch Change
	// quiet is set while an event replays whose Change nobody reads
	// (Replayer.Split): the Change then holds only NodesAdded, which
	// the digest reads, not the notes and edge labels built for show
	// and log. False between events.
	quiet    bool
	g        *Graph
	edges    map[edgeKey]*Edge
	implicit map[*Node]bool // created by a reference, not by a create event
	// decisions maps entity + attribute to the decision now in force.
	decisions map[string]*Node
	blockers  map[string][]blockRec // blocker event key → records
	open      map[*Node]int         // open blocker records per node
	openEdge  map[*Edge]bool        // blocks edges not yet resolved

	ev *parse.Event
	id string // the event's ID, cleaned for the table
	ch *Change

	last parse.Time // time of the last event replayed
	any  bool       // whether any event was replayed

	loops     loops
	conflicts conflicts
	legacy    bool // see Replayer.legacy
}

func (r *replayer) dispatch() {
	switch r.ev.Type {
	case "create":
		r.create()
	case "modify":
		r.modify()
	case "delete":
		r.delete()
	case "decision":
		r.decision()
	case "dependency":
		r.dependency()
	case "blocker":
		r.blocker()
	case "test":
		r.test()
	case "fix":
		r.fix()
	case "milestone":
		r.milestone()
	case "handoff":
		r.handoff()
	case "escalation", "archive", "commitment":
		r.note("no graph change")
	default:
		r.note("unknown event type " + strconv.Quote(r.ev.Type) + ": no graph change")
	}
}

// detail returns the cleaned value of the first of keys present with a
// non-empty value.
func (r *replayer) detail(keys ...string) string {
	for _, k := range keys {
		if v, ok := r.ev.Detail(k); ok {
			if v = cleanText(v); v != "" {
				return v
			}
		}
	}
	return ""
}

// name returns the first of keys whose value is a name (NameProblem),
// noting the values it skips as prose.
func (r *replayer) name(keys ...string) string {
	v, notes := detailName(r.ev, keys...)
	for _, n := range notes {
		r.note(n)
	}
	return v
}

// entity returns the entity named by the first of keys, falling back
// to the first Scope name (noted) when none is given.
func (r *replayer) entity(keys ...string) string {
	if v := r.name(keys...); v != "" {
		return v
	}
	if s := ScopeNames(r.ev); len(s) > 0 {
		r.note("no " + keys[0] + " detail: entity taken from Scope")
		return s[0]
	}
	return ""
}

// entityOrPath is entity, then the path detail as a last resort.
func (r *replayer) entityOrPath(keys ...string) string {
	if v := r.entity(keys...); v != "" {
		return v
	}
	if v := r.name("path"); v != "" {
		r.note("no " + keys[0] + " detail or Scope: entity taken from path")
		return v
	}
	return ""
}

func (r *replayer) note(s string) {
	if !r.quiet {
		r.ch.Notes = append(r.ch.Notes, s)
	}
}

// find returns the node named name, or nil.
func (r *replayer) find(name string) *Node { return r.g.index[Canon(name)] }

// add creates a node; name must be non-empty after Canon.
func (r *replayer) add(name, typ, status string) *Node {
	n := &Node{Name: name, Type: typ, Status: status, Created: r.id, LastEvent: r.id, key: Canon(name)}
	r.g.Nodes = append(r.g.Nodes, n)
	r.g.index[n.key] = n
	r.ch.NodesAdded = append(r.ch.NodesAdded, name)
	return n
}

// ensure returns the node named name, creating it implicitly (with
// typ and status, noted) when it does not exist yet.
func (r *replayer) ensure(name, typ, status, why string) *Node {
	if n := r.find(name); n != nil {
		r.touch(n)
		return n
	}
	n := r.add(name, typ, status)
	r.implicit[n] = true
	r.note(why + ": node " + strconv.Quote(name) + " created (" + typ + ", " + status + ")")
	return n
}

// touch marks n as updated by the current event.
func (r *replayer) touch(n *Node) {
	n.LastEvent = r.id
	if r.quiet || contains(r.ch.NodesAdded, n.Name) || contains(r.ch.NodesUpdated, n.Name) {
		return
	}
	r.ch.NodesUpdated = append(r.ch.NodesUpdated, n.Name)
}

// claim gives an implicitly created node its real type, once.
func (r *replayer) claim(n *Node, typ string) {
	if r.implicit[n] {
		n.Type = typ
		delete(r.implicit, n)
	} else if n.Type != typ {
		r.note("node " + strconv.Quote(n.Name) + " is a " + n.Type + ", kept as such")
	}
}

// upsert returns the node name of type typ for a dependency, milestone
// or handoff event: added with status when new; when it exists, touched
// and claimed for typ, its status set to status if always, else only
// woken from planned. The event's own status detail wins over both.
func (r *replayer) upsert(name, typ, status string, always bool) *Node {
	n := r.find(name)
	if n == nil {
		n = r.add(name, typ, status)
	} else {
		r.touch(n)
		r.claim(n, typ)
		if always || n.Status == "planned" {
			n.Status = status
		}
	}
	if s := r.status(); s != "" {
		n.Status = s
	}
	return n
}

func (r *replayer) set(n *Node, key, value string) {
	if value != "" {
		if n.Attrs == nil {
			// Room for a few at once: growing one by one cost three
			// allocations for a node's first four attributes.
			n.Attrs = make([]Attr, 0, 4)
		}
		setAttr(&n.Attrs, key, value)
	}
}

// edge adds the edge from → to, or returns the existing one.
func (r *replayer) edge(from, to *Node, rel string) (*Edge, bool) {
	k := edgeKey{from.canon(), to.canon(), rel}
	if e := r.edges[k]; e != nil {
		return e, false
	}
	e := &Edge{From: from.Name, To: to.Name, Relation: rel, Created: r.id}
	r.g.Edges = append(r.g.Edges, e)
	r.edges[k] = e
	if !r.quiet {
		r.ch.EdgesAdded = append(r.ch.EdgesAdded, e.Label())
	}
	return e, true
}

func (r *replayer) edgeUpdated(e *Edge) {
	if r.quiet {
		return
	}
	l := e.Label()
	if !contains(r.ch.EdgesAdded, l) && !contains(r.ch.EdgesUpdated, l) {
		r.ch.EdgesUpdated = append(r.ch.EdgesUpdated, l)
	}
}

// status reads the optional status detail, mapping common synonyms to
// the seed's statuses; "" when absent or unknown (noted).
func (r *replayer) status() string {
	v := r.detail("status")
	if v == "" {
		return ""
	}
	if s, ok := Status(v); ok {
		return s
	}
	r.note("unknown status " + strconv.Quote(v) + ": status unchanged")
	return ""
}

// Status maps a written status to the seed's, with its common synonyms
// (docs/materialize.md, "Status values"); ok is false for anything else.
func Status(v string) (string, bool) {
	s := Canon(v)
	switch s {
	case "done", "complete", "finished", "closed", "shipped":
		s = "completed"
	case "in_progress", "wip", "started", "ongoing", "open":
		s = "active"
	case "todo", "pending", "proposed", "backlog":
		s = "planned"
	case "removed", "obsolete", "superseded", "retired":
		s = "deprecated"
	}
	return s, contains(NodeStatuses, s)
}

// relations adds the edges named by relation-named details
// (`depends_on: a, b`, `precedes: x`, `after: y`, ...) from n.
func (r *replayer) relations(n *Node) {
	for _, d := range r.ev.Details {
		k := d.Norm()
		rev := false
		switch k {
		case "after", "follows":
			k, rev = "precedes", true
		case "part_of":
			k, rev = "contains", true
		case "blocked_by":
			k, rev = "blocks", true
		}
		if !contains(EdgeRelations, k) {
			continue
		}
		for _, name := range strings.Split(cleanText(d.Value), ",") {
			name = cleanName(name)
			if canonEmpty(name) || Canon(name) == n.canon() {
				continue
			}
			if why := NameProblem(name); why != "" {
				r.note(k + " " + strconv.Quote(clip(name)) + " is not a name (" + why + "): no edge")
				continue
			}
			other := r.ensure(name, "component", "planned", k+" target not created yet")
			if rev {
				r.edge(other, n, k)
			} else {
				r.edge(n, other, k)
			}
		}
	}
}

func (r *replayer) create() {
	name := r.entityOrPath("entity", "name")
	if name == "" {
		r.note("create without entity, Scope or path: no node")
		return
	}
	typ := "component"
	if t := r.detail("type"); t != "" {
		if c := Canon(t); contains(NodeTypes, c) {
			typ = c
		} else {
			r.note("unknown node type " + strconv.Quote(t) + ": component")
		}
	}
	status := r.status()
	if status == "" {
		status = "active"
	}
	n := r.find(name)
	switch {
	case n == nil:
		n = r.add(name, typ, status)
	case r.implicit[n]:
		// Named earlier (by a decision, say): this is its real creation,
		// so the row keeps its place but records this event as Created.
		n.Type = typ
		n.Status = status
		n.Created = r.id
		delete(r.implicit, n)
		r.touch(n)
	default:
		r.note("create of existing node: node updated")
		if n.Status == "deprecated" {
			n.Status = status
		}
		r.touch(n)
	}
	r.set(n, "path", r.detail("path"))
	r.set(n, "purpose", r.detail("purpose"))
	r.set(n, "priority", r.detail("priority"))
	r.attributes(n)
	r.relations(n)
}

// attributes sets the node attributes listed under an `attributes`
// detail, one nested bullet each (`- attributes:` then `  - owner:
// team-a`): how an event records an attribute no typed key sets, such
// as those `memsys adopt` carries over from a hand-kept graph.
func (r *replayer) attributes(n *Node) {
	for _, d := range r.ev.Details {
		if d.Norm() != "attributes" {
			continue
		}
		for _, c := range d.Children {
			if k := cleanName(c.Key); k != "" {
				r.set(n, k, cleanText(c.Value))
			}
		}
	}
}

// retype gives n the node type of a `type` detail on a modify: the one
// way to correct a type an earlier event got wrong.
func (r *replayer) retype(n *Node) {
	t := r.detail("type")
	if t == "" {
		return
	}
	c := Canon(t)
	switch {
	case !contains(NodeTypes, c):
		r.note("unknown node type " + strconv.Quote(t) + ": type unchanged")
	case c != n.Type:
		r.note("node " + strconv.Quote(n.Name) + " retyped from " + n.Type + " to " + c)
		n.Type = c
		delete(r.implicit, n)
	}
}

func (r *replayer) modify() {
	name := r.entityOrPath("entity", "target", "name")
	if name == "" {
		r.note("modify without entity, Scope or path: no node")
		return
	}
	n := r.find(name)
	if n == nil {
		// Implicit, so a later create still gives it its type.
		n = r.add(name, "component", "active")
		r.implicit[n] = true
		r.note("modify before create: node created")
	} else {
		r.touch(n)
		if r.implicit[n] && n.Status == "planned" {
			n.Status = "active" // being modified, so it exists
		}
	}
	if s := r.status(); s != "" {
		n.Status = s
	}
	r.retype(n)
	r.set(n, "changes", r.detail("changes", "change"))
	r.set(n, "path", r.detail("path"))
	r.set(n, "priority", r.detail("priority"))
	r.attributes(n)
	r.relations(n)
}

func (r *replayer) delete() {
	name := r.entityOrPath("entity", "target", "name")
	if name == "" {
		r.note("delete without entity, Scope or path: no node")
		return
	}
	n := r.find(name)
	if n == nil {
		n = r.add(name, "component", "deprecated")
		r.note("delete of unknown node: row added as deprecated")
	} else {
		r.touch(n)
	}
	n.Status = "deprecated"
	r.set(n, "reason", r.detail("reason"))
}

func (r *replayer) decision() {
	entity := r.name("entity")
	attr := r.name("attribute")
	var targets []string
	if entity != "" {
		targets = []string{entity}
	} else {
		targets = ScopeNames(r.ev)
	}
	// The node is named after what was decided, as the kit's worked
	// example draws it (auth_module implements "database"): the
	// attribute, else the choice, else the entity. A name already taken
	// (a superseded decision, a component of that name) gets the event.
	what := attr
	if what == "" {
		what = r.name("to", "decision", "choice")
	}
	if what == "" {
		what = entity
	}
	if what == "" {
		what = "decision"
	}
	name := what
	for i := 1; r.find(name) != nil; i++ {
		name = what + " (" + r.id + ")"
		if i > 1 {
			name = what + " (" + r.id + " #" + strconv.Itoa(i) + ")"
		}
	}
	d := r.add(name, "decision", "active")
	r.set(d, "from", r.detail("from"))
	r.set(d, "to", r.detail("to", "decision", "choice"))
	r.set(d, "rationale", r.detail("rationale", "reason"))
	if attr != "" {
		subject := entity
		if subject == "" && len(targets) > 0 {
			subject = targets[0]
		}
		key := Canon(subject) + "\x00" + Canon(attr)
		shown := attr
		if subject != "" {
			shown = subject + "." + attr
		}
		if !r.legacy {
			r.conflicts.decision(r, key, shown, r.detail("to", "decision", "choice"), r.detail("from"))
		}
		if old := r.decisions[key]; old != nil {
			old.Status = "deprecated"
			r.set(old, "superseded_by", r.id)
			r.touch(old)
			r.set(d, "supersedes", old.Name)
			if !r.quiet { // regen and lint read no note: build none (at 100k events the notes were 1 MB)
				r.note("decision supersedes " + strconv.Quote(old.Name) + ": it is now deprecated")
			}
		}
		r.decisions[key] = d
	}
	if len(targets) == 0 {
		r.note("decision without entity or Scope: no implements edge")
	}
	// The seed: "Add a decision node + implements edge to affected
	// components"; the kit draws the edge from the component, which
	// implements the decision.
	for _, t := range targets {
		c := r.ensure(t, "component", "planned", "decision before create")
		r.edge(c, d, "implements")
	}
}

func (r *replayer) dependency() {
	name := r.name("dependency", "package", "entity", "name")
	if name == "" {
		r.note("dependency without entity: no node")
		return
	}
	dep := r.upsert(name, "dependency", "active", false)
	r.set(dep, "version", r.detail("version"))
	var users []string
	if c := r.detail("component", "used_by", "dependent"); c != "" {
		users = strings.Split(c, ",")
	} else {
		users = ScopeNames(r.ev)
	}
	added := false
	for _, u := range users {
		u = cleanName(u)
		if canonEmpty(u) || Canon(u) == dep.canon() || NameProblem(u) != "" {
			continue
		}
		c := r.ensure(u, "component", "active", "dependent not created yet")
		r.edge(c, dep, "depends_on")
		added = true
	}
	if !added {
		r.note("dependency without Scope: no depends_on edge")
	}
}

func (r *replayer) blocker() {
	blocked := r.entity("blocked_entity", "blocked", "entity", "target")
	if blocked == "" {
		r.note("blocker without blocked_entity or Scope: no change")
		return
	}
	b := r.ensure(blocked, "component", "active", "blocked entity not created yet")
	rec := blockRec{blocked: b}
	if name := r.name("blocking_entity", "blocking", "blocker", "cause"); name != "" && Canon(name) != b.canon() {
		from := r.ensure(name, "component", "active", "blocking entity not created yet")
		e, added := r.edge(from, b, "blocks")
		if !added && !r.openEdge[e] {
			delAttr(&e.Attrs, "resolved")
			setAttr(&e.Attrs, "reopened", r.id)
			r.edgeUpdated(e)
			r.note("blocks edge reopened")
		}
		if r.openEdge[e] {
			r.note("blocks edge already open")
		} else {
			r.openEdge[e] = true
			rec.edge = e
			r.open[b]++
		}
	} else {
		r.note("blocker without blocking_entity: node blocked, no edge")
		r.open[b]++
	}
	if b.Status == "deprecated" {
		r.note("blocked node is deprecated: status kept")
	} else {
		b.Status = "blocked"
	}
	k := parse.EventKey(r.id)
	r.blockers[k] = append(r.blockers[k], rec)
}

// resolve resolves the blocker event id names, if it is one: its blocks
// edges get resolved = this event, and a node no open blocker holds is
// active again. It returns the nodes it unblocked. told says to note a
// blocker resolved already (a fix's Refs); a loop's closing resolves
// silently what a fix resolved before it.
func (r *replayer) resolve(id string, told bool) []*Node {
	k := parse.EventKey(id)
	recs, ok := r.blockers[k]
	if !ok {
		return nil
	}
	if len(recs) == 0 && told {
		r.note("blocker " + id + " already resolved")
	}
	var unblocked []*Node
	for _, rec := range recs {
		if rec.edge != nil {
			if !r.openEdge[rec.edge] {
				if told {
					r.note("blocker " + id + " already resolved")
				}
				continue
			}
			r.openEdge[rec.edge] = false
			setAttr(&rec.edge.Attrs, "resolved", r.id)
			r.edgeUpdated(rec.edge)
		} else if r.open[rec.blocked] == 0 {
			continue
		}
		if r.open[rec.blocked]--; r.open[rec.blocked] == 0 && rec.blocked.Status == "blocked" {
			rec.blocked.Status = "active"
		}
		r.touch(rec.blocked)
		unblocked = append(unblocked, rec.blocked)
	}
	r.blockers[k] = nil
	return unblocked
}

func (r *replayer) test() {
	name := r.entity("target", "entity")
	if name == "" {
		r.note("test without target or Scope: no node")
		return
	}
	n := r.ensure(name, "component", "active", "test target not created yet")
	r.set(n, "result", r.detail("result"))
	r.set(n, "coverage", r.detail("coverage"))
}

func (r *replayer) fix() {
	// Resolve the blockers the fix Refs.
	var unblocked []*Node
	for _, ref := range r.ev.Refs {
		unblocked = append(unblocked, r.resolve(ref, true)...)
	}
	var targets []*Node
	if name := r.name("entity", "target"); name != "" {
		targets = []*Node{r.ensure(name, "component", "active", "fix target not created yet")}
	} else if len(unblocked) > 0 {
		targets = unblocked
	} else if name := r.entity("entity"); name != "" {
		targets = []*Node{r.ensure(name, "component", "active", "fix target not created yet")}
	} else {
		r.note("fix without entity, Scope or blocker Refs: no node")
	}
	for _, n := range targets {
		r.touch(n)
		r.set(n, "fix", r.detail("resolution", "symptom"))
		r.set(n, "root_cause", r.detail("root_cause"))
	}
}

func (r *replayer) milestone() {
	name := r.name("name", "milestone")
	if name == "" {
		if NameProblem(r.ev.Summary) != "" {
			r.note("milestone without name, and its Summary is not a name: no node")
			return
		}
		name = cleanName(cleanText(r.ev.Summary))
		r.note("milestone without name: named after the Summary")
	}
	n := r.upsert(name, "milestone", "completed", true)
	r.set(n, "criteria_met", r.detail("criteria_met", "criteria"))
}

func (r *replayer) handoff() {
	name := r.entity("task", "entity")
	if name == "" {
		r.note("handoff without task or Scope: no node")
		return
	}
	n := r.upsert(name, "task", "active", false)
	to := cleanName(r.detail("to_agent", "to"))
	if to == "" {
		r.note("handoff without to_agent: assignee unchanged")
	}
	from := cleanName(r.detail("from_agent", "from"))
	if from == "" {
		from = cleanName(r.ev.Agent)
	}
	r.set(n, "assignee", to)
	r.set(n, "previous_assignee", from)
	r.set(n, "phase", r.detail("phase", "stage"))
	r.set(n, "priority", r.detail("priority"))
	r.relations(n)
}
