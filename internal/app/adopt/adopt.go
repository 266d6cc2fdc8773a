package adopt

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Tag marks every event adopt appends, so they can be told apart from
// the events the team wrote (and found with memsys log --tag).
const Tag = "adopted"

// Input is what Plan compares.
type Input struct {
	Events []parse.Event // the history: archive, then log
	Graph  []byte        // the hand-kept .memory/graph.md; nil when none
	// Context is the hand-kept .memory/context.md; nil when none.
	Context []byte
	Options materialize.Options
}

// A Plan is the events that make the replay reproduce the hand-kept
// files, and what could not be carried over.
type Plan struct {
	Drafts []memory.Draft // in the order they are to be appended
	// Nodes, Edges and Constraints count what the drafts carry over.
	Nodes, Edges, Constraints int
	// Problems are hand-kept rows that no event can reproduce, one line
	// each, saying why.
	Problems []string
}

// Make compares the hand-kept graph and constraints with the replay of
// in.Events and returns the events to append: per hand-kept node that
// the replay lacks or draws differently, one create (missing) or modify
// (present) event with its type, status, attributes (under an
// `attributes` detail) and outgoing edges (relation details), tagged
// Tag; then one decision per hand-written constraint the replay does
// not produce. Agent and Time are left for the caller to fill.
// Make then replays the history with those events and reports anything
// still missing, so a Plan without Problems keeps everything curated.
func Make(in Input) Plan {
	var p Plan
	g := materialize.ReplayGraph(in.Events)
	var hand *materialize.Graph
	if in.Graph != nil {
		var probs []string
		hand, probs = materialize.ReadLoose(in.Graph)
		p.Problems = append(p.Problems, probs...)
	} else {
		hand = &materialize.Graph{}
	}

	drafts := map[string]*memory.Draft{} // canonical node → its draft
	var order []string
	draftFor := func(n *materialize.Node, name string) *memory.Draft {
		k := materialize.Canon(name)
		if d := drafts[k]; d != nil {
			return d
		}
		typ, verb := "modify", "Adopt the hand-kept state of "
		if n == nil {
			typ, verb = "create", "Adopt "
		}
		d := &memory.Draft{Type: typ, Scope: name, Summary: verb + name + " from graph.md",
			Tags: []string{Tag}, Details: memory.DraftDetails{{Key: "entity", Value: name}}}
		drafts[k] = d
		order = append(order, k)
		return d
	}
	bad := map[string]bool{}
	for _, h := range hand.Nodes {
		if why := materialize.NameProblem(h.Name); why != "" {
			p.Problems = append(p.Problems, fmt.Sprintf("node %q is not a name (%s): not adopted; rename it in graph.md", words.Clip(h.Name), why))
			bad[materialize.Canon(h.Name)] = true
			continue
		}
		cur := g.Node(h.Name)
		var details memory.DraftDetails
		typ := h.Type
		if typ != "" && !contains(materialize.NodeTypes, typ) {
			p.Problems = append(p.Problems, fmt.Sprintf("node %q has type %q, not one of the seed's: adopted as component", words.Clip(h.Name), words.Clip(h.Type)))
			typ = "component"
		}
		if typ == "" {
			typ = "component"
		}
		if cur == nil || cur.Type != typ {
			details = append(details, memory.DraftDetail{Key: "type", Value: typ})
		}
		status := ""
		if h.Status != "" {
			s, ok := materialize.Status(h.Status)
			if !ok {
				p.Problems = append(p.Problems, fmt.Sprintf("node %q has status %q, not one of the seed's: status not adopted", words.Clip(h.Name), words.Clip(h.Status)))
			} else {
				status = s
			}
		}
		if status != "" && (cur == nil && status != "active" || cur != nil && cur.Status != status) {
			details = append(details, memory.DraftDetail{Key: "status", Value: status})
		}
		var attrs []memory.DraftDetail
		for _, a := range h.Attrs {
			if !materialize.IsKey(a.Key) {
				p.Problems = append(p.Problems, fmt.Sprintf("node %q attribute %q: the key is not letters, digits, spaces, '_' or '-': not adopted", words.Clip(h.Name), words.Clip(a.Key)))
				continue
			}
			if cur != nil {
				if v, ok := cur.Attr(a.Key); ok && v == a.Value {
					continue
				}
			}
			attrs = append(attrs, memory.DraftDetail{Key: a.Key, Value: a.Value})
		}
		if len(attrs) > 0 {
			details = append(details, memory.DraftDetail{Key: "attributes", Children: attrs})
		}
		if cur != nil && len(details) == 0 {
			continue // the replay already draws it
		}
		d := draftFor(cur, h.Name)
		d.Details = append(d.Details, details...)
		p.Nodes++
	}
	for _, e := range hand.Edges {
		if bad[materialize.Canon(e.From)] || bad[materialize.Canon(e.To)] {
			continue
		}
		if !contains(materialize.EdgeRelations, e.Relation) {
			p.Problems = append(p.Problems, fmt.Sprintf("edge %s -%s-> %s: %q is not one of the seed's relations: not adopted", e.From, e.Relation, e.To, words.Clip(e.Relation)))
			continue
		}
		if why := materialize.NameProblem(e.To); why != "" {
			p.Problems = append(p.Problems, fmt.Sprintf("edge %s -%s-> %s: %q is not a name (%s): not adopted", e.From, e.Relation, e.To, words.Clip(e.To), why))
			continue
		}
		if why := materialize.NameProblem(e.From); why != "" {
			p.Problems = append(p.Problems, fmt.Sprintf("edge %s -%s-> %s: %q is not a name (%s): not adopted", e.From, e.Relation, e.To, words.Clip(e.From), why))
			continue
		}
		if materialize.HasEdge(g, e) {
			continue
		}
		from := e.From
		if h := hand.Node(e.From); h != nil {
			from = h.Name
		}
		d := draftFor(g.Node(from), from)
		addRelation(d, e.Relation, e.To)
		p.Edges++
	}
	for _, k := range order {
		p.Drafts = append(p.Drafts, *drafts[k])
	}
	if in.Context != nil {
		have := map[string]bool{}
		for _, item := range materialize.BuildContext(in.Events, g, in.Options).Section(materialize.SecConstraints).Items {
			if i := strings.LastIndex(item, " — evt-"); i > 0 {
				item = item[:i]
			}
			have[item] = true
		}
		// Number after the constraints adopted before, so a new one
		// never supersedes an old one (same attribute).
		n := 0
		for _, x := range g.Nodes {
			if x.Type == "decision" && strings.HasPrefix(materialize.Canon(x.Name), "constraint_") {
				n++
			}
		}
		for _, c := range materialize.ReadConstraints(in.Context) {
			if have[c] {
				continue
			}
			n++
			p.Drafts = append(p.Drafts, memory.Draft{
				Type: "decision",
				// Not a name, so the decision names no component: the
				// constraint was written for the whole project.
				Scope:   "constraints written by hand in context.md.",
				Summary: oneLine(c),
				Details: memory.DraftDetails{
					{Key: "attribute", Value: "constraint " + strconv.Itoa(n)},
					{Key: "from", Value: "none"},
					{Key: "to", Value: oneLine(c)},
					{Key: "rationale", Value: "written by hand in context.md before memsys adopt"},
				},
				Tags: []string{Tag},
			})
			p.Constraints++
		}
	}
	return p
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func addRelation(d *memory.Draft, rel, to string) {
	for i := range d.Details {
		if d.Details[i].Key == rel {
			d.Details[i].Value += ", " + to
			return
		}
	}
	d.Details = append(d.Details, memory.DraftDetail{Key: rel, Value: to})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
