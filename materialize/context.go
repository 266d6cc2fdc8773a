package materialize

import (
	"bytes"
	"container/heap"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

// Options bound context.md. Zero fields take the defaults.
type Options struct {
	ContextWords int // total word budget of context.md, default 3000
	WindowHours  int // Recent Changes: events this close to the newest, default 48
	WindowEvents int // ... or at least this many last events, default 20
	// DecayP2Days and DecayP3Days are the ages in days (horizon date
	// minus event date) beyond which P2 and P3 events leave context.md,
	// default 90 and 30 (seed 000). Never less than WindowHours/24 + 2:
	// an event in the time window of Recent Changes is never decayed.
	DecayP2Days int
	DecayP3Days int
}

// DefaultOptions returns the seed's numbers: a 48-hour or 20-event
// window, the 3,000-word recall-pack budget, P2 kept 90 days and P3
// 30.
func DefaultOptions() Options {
	return Options{ContextWords: 3000, WindowHours: 48, WindowEvents: 20, DecayP2Days: 90, DecayP3Days: 30}
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.ContextWords <= 0 {
		o.ContextWords = d.ContextWords
	}
	if o.WindowHours <= 0 {
		o.WindowHours = d.WindowHours
	}
	if o.WindowEvents <= 0 {
		o.WindowEvents = d.WindowEvents
	}
	if o.DecayP2Days <= 0 {
		o.DecayP2Days = d.DecayP2Days
	}
	if o.DecayP3Days <= 0 {
		o.DecayP3Days = d.DecayP3Days
	}
	floor := o.WindowHours/24 + 2
	o.DecayP2Days = max(o.DecayP2Days, floor)
	o.DecayP3Days = max(o.DecayP3Days, floor)
	return o
}

// Section titles of context.md, in the template's order.
const (
	SecMission     = "Active Mission"
	SecSprint      = "Current Sprint"
	SecConstraints = "Active Constraints"
	SecBlockers    = "Blockers"
	SecRecent      = "Recent Changes"
	SecDeps        = "Key Dependencies"
	SecNext        = "Next Actions"
	// SecLoops and SecConflicts appear only when they have items.
	SecLoops     = "Open Loops"
	SecConflicts = "Conflicts"
)

// Section caps: the most items a section shows before its "… and N
// more" line. The word budget may cut further (trimOrder).
var sectionCaps = map[string]int{
	SecMission: 2, SecSprint: 10, SecConstraints: 10, SecBlockers: 10,
	SecRecent: 25, SecDeps: 15, SecNext: 10, SecLoops: 10, SecConflicts: 10,
}

// trimOrder is the order in which the word budget shortens sections,
// one item at a time from the end, never below one item.
var trimOrder = []string{SecRecent, SecDeps, SecConstraints, SecSprint, SecNext, SecConflicts, SecLoops, SecBlockers, SecMission}

// itemWords and itemBytes cap the event text of one item.
const (
	itemWords = 40
	itemBytes = 300
)

// Section is one "## Title" of context.md. Items are rendered markdown
// (escaped), without their list marker.
type Section struct {
	Title string
	// Kind is how items render: "list" ("- item"), "numbered"
	// ("1. item") or "table" (items are whole table rows under Header).
	Kind   string
	Header []string
	Items  []string
	// Prios holds each item's priority where the section has them
	// (Active Constraints, Open Loops, Recent Changes); nil means P1
	// for every item. The budget drops P3 items first, then P2, and
	// never a P0 item.
	Prios []Priority
	More  int // items cut by the cap or the word budget
	// p0Cut counts the P0 items a builder counted in More without
	// building them: binding counts them, so the cap in build keeps
	// exactly the items it would keep had they been built.
	p0Cut int
}

func (s *Section) prio(i int) Priority {
	if i < len(s.Prios) {
		return s.Prios[i]
	}
	return DefaultPriority
}

// add appends an item of priority p.
func (s *Section) add(item string, p Priority) {
	for len(s.Prios) < len(s.Items) {
		s.Prios = append(s.Prios, DefaultPriority)
	}
	s.Items = append(s.Items, item)
	s.Prios = append(s.Prios, p)
}

// room reports whether an item added now survives build's cap of
// limit items (the cap itself, or more when the section has more P0
// items): the builders make only those, and count the rest in More.
// On a long history most of the matching rows fall past the cap (a
// hundred thousand events leave thousands of open blocks edges and
// loops), and rendering their lines only to drop them was most of
// context.md's cost.
func (s *Section) room(limit int) bool { return len(s.Items) < limit }

// skip counts an item of priority p past the cap without building it.
func (s *Section) skip(p Priority) {
	s.More++
	if p == P0 {
		s.p0Cut++
	}
}

// cap cuts the section to its cap, or to its P0 items where it has
// more: P0 items sort first where a section has them, and are never
// cut.
func (s *Section) cap() {
	if limit := max(sectionCaps[s.Title], s.binding()); len(s.Items) > limit {
		s.More += len(s.Items) - limit
		s.Items = s.Items[:limit]
		if len(s.Prios) > limit {
			s.Prios = s.Prios[:limit]
		}
	}
	s.p0Cut = 0
}

// remove drops item i, counting it in More.
func (s *Section) remove(i int) {
	s.Items = append(s.Items[:i], s.Items[i+1:]...)
	if i < len(s.Prios) {
		s.Prios = append(s.Prios[:i], s.Prios[i+1:]...)
	}
	s.More++
}

// binding counts the section's P0 items, which no cap or budget cuts.
func (s *Section) binding() int {
	n := s.p0Cut
	for _, p := range s.Prios {
		if p == P0 {
			n++
		}
	}
	return n
}

// Context is the model of context.md.
type Context struct {
	Generated string // horizon event's timestamp, "" when no events
	Horizon   string // last event ID, "" when no events
	Sections  []*Section
}

// Section returns the section titled title, or nil.
func (c *Context) Section(title string) *Section {
	for _, s := range c.Sections {
		if s.Title == title {
			return s
		}
	}
	return nil
}

// BuildContext fills context.md's sections from the events and their
// replayed graph g, per the seed's Regeneration Algorithm made exact
// (docs/materialize.md). Pure: the window counts back from the newest
// event's timestamp, never from a clock. A Replayer builds the same
// context without keeping the events.
func BuildContext(events []parse.Event, g *Graph, opt Options) *Context {
	d := newDigest(opt)
	for _, n := range g.Nodes {
		if n.Created != "" {
			d.want(&parse.Event{ID: n.Created})
		}
	}
	sup := newSupersession(Supersessions(events))
	for i := range events {
		if sup.supersededBy(&events[i]) < 0 {
			d.observe(&events[i])
		}
		sup.observe(&events[i])
	}
	return d.build(g)
}

// build fills the sections from what the digest kept and the graph.
func (d *digest) build(g *Graph) *Context {
	c := &Context{Horizon: g.Horizon, Generated: g.Updated}
	b := &ctxBuilder{d: d, g: g, h: g.HorizonTime()}
	b.openBlocks()
	c.Sections = []*Section{
		b.mission(),
		b.sprint(),
		b.constraints(),
	}
	for _, s := range []*Section{b.openLoops(), b.conflicts()} {
		if len(s.Items) > 0 {
			c.Sections = append(c.Sections, s)
		}
	}
	c.Sections = append(c.Sections,
		b.blockers(),
		b.recent(),
		b.dependencies(),
		b.next(),
	)
	for _, s := range c.Sections {
		s.cap()
	}
	budget(c, d.opt.ContextWords)
	return c
}

type ctxBuilder struct {
	d *digest
	g *Graph
	h parse.Time // the horizon event's time: ages and decay count from it
	// blockedBy lists, per blocked node, the nodes with an open blocks
	// edge to it.
	blockedBy map[*Node][]*Node
}

func (b *ctxBuilder) openBlocks() {
	b.blockedBy = map[*Node][]*Node{}
	for _, e := range b.g.Edges {
		if e.Relation != "blocks" {
			continue
		}
		if _, done := e.Attr("resolved"); done {
			continue
		}
		// Only tasks are looked up (sprint, next).
		if to, from := b.g.Node(e.To), b.g.Node(e.From); to != nil && from != nil && to.Type == "task" {
			b.blockedBy[to] = append(b.blockedBy[to], from)
		}
	}
}

// summary is an event's Summary, shortened, escaped for inside a line.
func (b *ctxBuilder) summary(e *brief) string {
	s := cleanText(e.summary)
	if s == "" {
		s = "(" + e.typ + " event without summary)"
	}
	return escInline(shorten(s))
}

// shorten caps text at itemWords words and itemBytes bytes.
func shorten(s string) string {
	if len(s) <= itemBytes && plainWords(s, itemWords) {
		return s // what Fields and Join would give back: no allocation
	}
	f := strings.Fields(s)
	cut := false
	if len(f) > itemWords {
		f, cut = f[:itemWords], true
	}
	s = strings.Join(f, " ")
	if len(s) > itemBytes {
		n := itemBytes
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = strings.TrimSpace(s[:n]), true
	}
	if cut {
		s += " …"
	}
	return s
}

// plainWords reports whether s is at most max ASCII words separated by
// single spaces, with no space before or after them: text shorten
// leaves as it is. Most summaries and names are, and context.md
// shortens one per line it writes.
func plainWords(s string, max int) bool {
	words, space := 0, true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ':
			if space {
				return false
			}
			space = true
		default:
			if space {
				if words++; words > max {
					return false
				}
			}
			space = false
		}
	}
	return !space || s == ""
}

func idSuffix(id string) string { return " — " + escInline(orNone(id)) }

func (b *ctxBuilder) mission() *Section {
	s := &Section{Title: SecMission, Kind: "list"}
	ms, dec := &b.d.milestone, &b.d.decision
	if ms.pos >= 0 {
		s.Items = append(s.Items, "Milestone: "+b.summary(ms)+idSuffix(ms.id))
	}
	// A decision older than the milestone is history the milestone
	// already stands for.
	if dec.pos >= 0 && dec.pos > ms.pos {
		s.Items = append(s.Items, "Latest decision: "+b.summary(dec)+idSuffix(dec.id))
	}
	return s
}

func attrOr(n *Node, key string) string {
	if v, ok := n.Attr(key); ok && v != "" {
		return escInline(shorten(v))
	}
	return none
}

func (b *ctxBuilder) sprint() *Section {
	s := &Section{Title: SecSprint, Kind: "table", Header: []string{
		"| Task | Priority | Assignee | Status | Blockers |",
		"|------|----------|----------|--------|----------|",
	}}
	limit := sectionCaps[SecSprint]
	for _, n := range b.g.Nodes {
		if n.Type != "task" || (n.Status != "active" && n.Status != "blocked") {
			continue
		}
		if !s.room(limit) {
			s.skip(DefaultPriority)
			continue
		}
		blockers := none
		if bs := b.blockedBy[n]; len(bs) > 0 {
			names := make([]string, len(bs))
			for i, x := range bs {
				names[i] = escInline(shorten(x.Name))
			}
			blockers = strings.Join(names, ", ")
		}
		s.Items = append(s.Items, "| "+escInline(shorten(n.Name))+" | "+attrOr(n, "priority")+" | "+attrOr(n, "assignee")+" | "+n.Status+" | "+blockers+" |")
	}
	return s
}

// constraints lists the decisions in force: P0 first (binding, never
// cut), then the others, newest first within each; P2 and P3 decisions
// past their age are left out.
func (b *ctxBuilder) constraints() *Section {
	s := &Section{Title: SecConstraints, Kind: "list"}
	// The decisions that make items: every P0 one (the first pass), then
	// the others while there is room under the cap.
	type kept struct {
		n  *Node
		c  created
		ok bool
		p  Priority
	}
	var keep []kept
	limit := 0
	for pass := 0; pass < 2; pass++ {
		if pass == 1 {
			limit = max(sectionCaps[SecConstraints], len(keep))
		}
		for i := len(b.g.Nodes) - 1; i >= 0; i-- {
			n := b.g.Nodes[i]
			if n.Type != "decision" || n.Status != "active" {
				continue
			}
			c, ok := b.d.createdBy(n.Created)
			p := DefaultPriority
			if ok {
				p = c.prio
			}
			if (p == P0) != (pass == 0) || c.decayed(b.d.opt, p, b.h) {
				continue
			}
			if pass == 1 && len(keep) >= limit {
				s.skip(p)
				continue
			}
			keep = append(keep, kept{n, c, ok, p})
		}
	}
	// Each constraint names the component that implements it first, as
	// "auth.database": the decision node alone ("database") does not say
	// whose database.
	by := map[string]string{}
	if len(keep) > 0 {
		want := make(map[string]bool, len(keep))
		for _, k := range keep {
			want[k.n.canon()] = true
		}
		for _, e := range b.g.Edges {
			if e.Relation == "implements" {
				if to := Canon(e.To); want[to] {
					if _, ok := by[to]; !ok {
						by[to] = e.From
					}
				}
			}
		}
	}
	for _, k := range keep {
		n, c := k.n, k.c
		text := ""
		if k.ok && cleanText(c.summary) != "" {
			text = b.summary(&brief{summary: c.summary})
		} else if to, ok := n.Attr("to"); ok {
			text = escInline(shorten(to))
		} else {
			text = escInline(shorten(n.Name))
		}
		label := displayDecision(n.Name)
		if c := by[n.canon()]; c != "" && Canon(c) != Canon(label) {
			label = c + "." + label
		}
		s.add(escLine(shorten(label))+": "+text+idSuffix(n.Created), k.p)
	}
	return s
}

// openLoops lists the loops still open, oldest first, with their age
// in days at the horizon and their due date, flagged when past.
func (b *ctxBuilder) openLoops() *Section {
	s := &Section{Title: SecLoops, Kind: "list"}
	ls := b.g.OpenLoops()
	p0 := 0
	for _, l := range ls {
		if l.Priority == P0 {
			p0++
		}
	}
	limit := max(sectionCaps[SecLoops], p0)
	for _, l := range ls {
		if !s.room(limit) {
			s.skip(l.Priority)
			continue
		}
		s.add(LoopLine(l, b.h), l.Priority)
	}
	return s
}

// LoopLine is an open loop as context.md and memsys loops print it:
// "<summary> — <type>, <age> days, owner <o>, due <d> (past due) — evt-NNN"
// ("1 day" for one).
func LoopLine(l *Loop, h parse.Time) string {
	sum := cleanText(l.Summary)
	if sum == "" {
		sum = "(" + l.Type + " event without summary)"
	}
	item := escLine(shorten(sum)) + " — " + escInline(l.Type)
	if days, ok := l.AgeDays(h); ok {
		item += ", " + words.Plural(days, "day")
	}
	if o := cleanName(l.Owner); o != "" {
		item += ", owner " + escInline(shorten(o))
	}
	if d := cleanName(l.Due); d != "" {
		item += ", due " + escInline(shorten(d))
		if l.PastDue(h) {
			item += " (past due)"
		}
	}
	return item + idSuffix(l.ID)
}

// conflicts lists the decisions that disagree, naming both events.
func (b *ctxBuilder) conflicts() *Section {
	s := &Section{Title: SecConflicts, Kind: "list"}
	limit := sectionCaps[SecConflicts]
	for _, c := range b.g.Conflicts() {
		if !s.room(limit) {
			s.skip(P1)
			continue
		}
		s.add(ConflictLine(c), P1)
	}
	return s
}

// ConflictLine is a conflict as context.md prints it.
func ConflictLine(c Conflict) string {
	return escLine(shorten(c.Key)) + ": " + escInline(orNone(c.Earlier.ID)) + " says " + escInline(shorten(orNone(c.Earlier.Value))) +
		", " + escInline(orNone(c.Later.ID)) + " says " + escInline(shorten(orNone(c.Later.Value))) + " — resolve with a decision that supersedes one"
}

// displayDecision drops the " (evt-NNN)" suffix Replay adds to a
// decision node whose name was taken; the item ends with the event
// anyway.
func displayDecision(name string) string {
	if i := strings.LastIndex(name, " (evt-"); i > 0 && strings.HasSuffix(name, ")") {
		return name[:i]
	}
	return name
}

func (b *ctxBuilder) blockers() *Section {
	s := &Section{Title: SecBlockers, Kind: "list"}
	limit := sectionCaps[SecBlockers]
	withEdge := map[*Node]bool{}
	for _, e := range b.g.Edges {
		if e.Relation != "blocks" {
			continue
		}
		if _, done := e.Attr("resolved"); done {
			continue
		}
		to := b.g.Node(e.To)
		if to == nil || to.Status == "completed" || to.Status == "deprecated" {
			continue
		}
		withEdge[to] = true
		if !s.room(limit) {
			s.skip(DefaultPriority)
			continue
		}
		s.Items = append(s.Items, escLine(shorten(e.From))+" blocks "+escInline(shorten(e.To))+idSuffix(e.Created))
	}
	for _, n := range b.g.Nodes {
		if n.Status == "blocked" && !withEdge[n] {
			if !s.room(limit) {
				s.skip(DefaultPriority)
				continue
			}
			s.Items = append(s.Items, escLine(shorten(n.Name))+" is blocked"+idSuffix(n.LastEvent))
		}
	}
	return s
}

// recent lists the window: every event within WindowHours of the
// newest timestamp, or the last WindowEvents events, whichever is
// more; newest first (timestamp, then log position).
func (b *ctxBuilder) recent() *Section {
	s := &Section{Title: SecRecent, Kind: "list"}
	shown, more := b.d.recent(sectionCaps[SecRecent], b.h)
	s.More = more
	for i := range shown {
		e := &shown[i]
		t := none
		if !e.time.IsZero() {
			t = e.time.String()
		} else if r := cleanName(e.time.Raw); r != "" {
			t = r
		}
		s.add(escLine(t)+" — "+b.summary(e)+idSuffix(e.id), e.prio)
	}
	return s
}

func (b *ctxBuilder) dependencies() *Section {
	s := &Section{Title: SecDeps, Kind: "list"}
	limit := sectionCaps[SecDeps]
	for _, e := range b.g.Edges {
		if e.Relation != "depends_on" {
			continue
		}
		from, to := b.g.Node(e.From), b.g.Node(e.To)
		if from == nil || to == nil || (from.Status != "active" && from.Status != "blocked") || to.Status == "deprecated" {
			continue
		}
		if !s.room(limit) {
			s.skip(DefaultPriority)
			continue
		}
		item := escLine(shorten(e.From)) + " depends on " + escInline(shorten(e.To))
		if v, ok := to.Attr("version"); ok && v != "" {
			item += " " + escInline(shorten(v))
		}
		s.Items = append(s.Items, item+idSuffix(e.Created))
	}
	return s
}

// next orders the unblocked active and planned tasks so that every
// `precedes` edge between them is respected; ties, and cycles, go to
// the task created first.
func (b *ctxBuilder) next() *Section {
	s := &Section{Title: SecNext, Kind: "numbered"}
	pos := map[*Node]int{}
	var cand []*Node
	for _, n := range b.g.Nodes {
		if n.Type == "task" && (n.Status == "active" || n.Status == "planned") && len(b.blockedBy[n]) == 0 {
			pos[n] = len(cand)
			cand = append(cand, n)
		}
	}
	if len(cand) == 0 {
		return s
	}
	indeg := make([]int, len(cand))
	succ := make([][]int, len(cand))
	after := make([][]string, len(cand)) // unfinished predecessors outside the list
	for _, e := range b.g.Edges {
		if e.Relation != "precedes" {
			continue
		}
		from, to := b.g.Node(e.From), b.g.Node(e.To)
		if from == nil || to == nil {
			continue
		}
		ti, ok := pos[to]
		if !ok {
			continue
		}
		if fi, ok := pos[from]; ok {
			succ[fi] = append(succ[fi], ti)
			indeg[ti]++
		} else if from.Status != "completed" && from.Status != "deprecated" {
			after[ti] = append(after[ti], from.Name)
		}
	}
	done := make([]bool, len(cand))
	h := &intHeap{}
	for i := range cand {
		if indeg[i] == 0 {
			heap.Push(h, i)
		}
	}
	order := make([]int, 0, len(cand))
	for len(order) < len(cand) {
		if h.Len() == 0 {
			// A cycle: release the earliest task still waiting.
			for i := range cand {
				if !done[i] {
					indeg[i] = 0
					heap.Push(h, i)
					break
				}
			}
		}
		i := heap.Pop(h).(int)
		if done[i] {
			continue
		}
		done[i] = true
		order = append(order, i)
		for _, j := range succ[i] {
			if indeg[j]--; indeg[j] == 0 && !done[j] {
				heap.Push(h, j)
			}
		}
	}
	limit := sectionCaps[SecNext]
	for _, i := range order {
		n := cand[i]
		if !s.room(limit) {
			s.skip(DefaultPriority)
			continue
		}
		item := escLine(shorten(n.Name))
		if a, ok := n.Attr("assignee"); ok && a != "" {
			item += " — " + escInline(shorten(a))
		}
		if len(after[i]) > 0 {
			names := make([]string, len(after[i]))
			for k, x := range after[i] {
				names[k] = escInline(shorten(x))
			}
			item += " (after " + strings.Join(names, ", ") + ")"
		}
		s.Items = append(s.Items, item+idSuffix(n.LastEvent))
	}
	return s
}

type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// budget cuts items until the document fits in words: first P3 items,
// then P2, each time from the end of the sections in trimOrder; then
// any item but a P0 one, from the end, in trimOrder. No section goes
// below one item.
func budget(c *Context, words int) {
	total := countWords(RenderContext(c))
	if total <= words {
		return
	}
	for _, p := range []Priority{P3, P2, -1} {
		for _, title := range trimOrder {
			s := c.Section(title)
			if s == nil {
				continue
			}
			for total > words && len(s.Items) > 1 {
				i := len(s.Items) - 1
				for i >= 0 && !(p < 0 && s.prio(i) != P0 || s.prio(i) == p) {
					i--
				}
				if i < 0 {
					break
				}
				before := sectionWords(s)
				s.remove(i)
				total += sectionWords(s) - before
			}
			if total <= words {
				return
			}
		}
	}
}

func sectionWords(s *Section) int {
	var b bytes.Buffer
	renderSection(&b, s)
	return countWords(b.Bytes())
}

// countWords counts white-space separated words, as the budget does.
func countWords(b []byte) int { return words.Count(b) }

func moreLine(n int) string { return "… and " + strconv.Itoa(n) + " more" }

// RenderContext writes context.md in the seed template's shape.
func RenderContext(c *Context) []byte {
	var b bytes.Buffer
	b.WriteString("# Current Context\n\n")
	b.WriteString("<!-- LAYER 3: Derived projection of CHANGELOG.md and graph.md. Written by memsys regen; never edit by hand. -->\n")
	b.WriteString("<!-- Last generated: " + orNone(escInline(c.Generated)) + " | Event horizon: " + orNone(escInline(c.Horizon)) + " -->\n")
	for _, s := range c.Sections {
		renderSection(&b, s)
	}
	return b.Bytes()
}

func renderSection(b *bytes.Buffer, s *Section) {
	b.WriteString("\n## " + s.Title + "\n\n")
	switch {
	case s.Kind == "table":
		for _, h := range s.Header {
			b.WriteString(h + "\n")
		}
		for _, it := range s.Items {
			b.WriteString(it + "\n")
		}
		if len(s.Items) == 0 {
			b.WriteString("| " + none + " | " + none + " | " + none + " | " + none + " | " + none + " |\n")
		}
		if s.More > 0 {
			b.WriteString("\n" + moreLine(s.More) + "\n")
		}
		return
	case len(s.Items) == 0:
		b.WriteString("- (none)\n")
		return
	}
	for i, it := range s.Items {
		if s.Kind == "numbered" {
			b.WriteString(strconv.Itoa(i+1) + ". " + it + "\n")
		} else {
			b.WriteString("- " + it + "\n")
		}
	}
	if s.More > 0 {
		if s.Kind == "numbered" {
			b.WriteString(strconv.Itoa(len(s.Items)+1) + ". " + moreLine(s.More) + "\n")
		} else {
			b.WriteString("- " + moreLine(s.More) + "\n")
		}
	}
}

// CountItems counts the items of the section titled title in a
// context.md that RenderContext wrote, including those its "… and N
// more" line stands for; a section that is absent has none (Open Loops
// and Conflicts are only written when they have items). ok is false
// when src does not look like context.md. A CRLF checkout of the file
// (core.autocrlf) counts as the LF file it is to git: before, status
// found no "# Current Context" line in it and counted the loops again
// from a replay.
func CountItems(src []byte, title string) (n int, ok bool) {
	if bytes.Contains(src, []byte("\r\n")) {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	}
	if !bytes.HasPrefix(src, []byte("# Current Context\n")) {
		return 0, false
	}
	head := []byte("\n## " + title + "\n")
	i := bytes.Index(src, head)
	if i < 0 {
		return 0, true
	}
	rest := src[i+len(head):]
	if j := bytes.Index(rest, []byte("\n## ")); j >= 0 {
		rest = rest[:j+1]
	}
	for _, line := range bytes.Split(rest, []byte("\n")) {
		item, isItem := bytes.CutPrefix(line, []byte("- "))
		if !isItem {
			if k := bytes.IndexByte(line, ' '); k > 0 && bytes.HasSuffix(line[:k], []byte(".")) {
				item, isItem = line[k+1:], true // a numbered item
			}
		}
		if !isItem {
			continue
		}
		if more, found := bytes.CutPrefix(item, []byte("… and ")); found {
			if m, err := strconv.Atoi(string(bytes.TrimSuffix(more, []byte(" more")))); err == nil {
				n += m
				continue
			}
		}
		if string(item) != "(none)" {
			n++
		}
	}
	return n, true
}
