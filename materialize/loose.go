package materialize

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
)

// ReadLoose reads a hand-kept graph.md: the first table under a heading
// that names nodes and the first under one that names edges, with the
// columns found by their header (Node or Name, Type, Status,
// Attributes; From, To, Relation; see headerKey for headers of several
// words, such as "Key Attributes"). It is lenient where
// ParseGraph is exact: hand-kept files have no Meta counts
// to trust, extra columns, backticks and "key: value, ..." attributes.
// Rows it cannot read are returned as problems, one line each.
func ReadLoose(src []byte) (*Graph, []string) {
	g := &Graph{}
	var problems []string
	section := ""
	var cols map[string]int
	// extra is the current table's columns ReadLoose does not read,
	// with how many cells of each hold text: named when the table ends,
	// so a curated column (an Owner) is not dropped without a word.
	var extra []*extraColumn
	flush := func() {
		for _, x := range extra {
			if x.cells > 0 {
				verb, it := "is", "it"
				if x.cells > 1 {
					verb, it = "are", "them"
				}
				fix := fmt.Sprintf("write %s under Attributes (key=value) to keep %s", it, it)
				if x.edges {
					// An event draws an edge as a relation detail of its
					// source node: it carries no edge attributes.
					fix = "no event carries an edge's notes: keep them as attributes of a node"
				}
				problems = append(problems, fmt.Sprintf("graph.md:%d: column %q is not one memsys keeps: its %s %s not adopted; %s",
					x.line, x.name, words.Plural(x.cells, "cell"), verb, fix))
			}
		}
		extra = nil
	}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	for i, line := range lines {
		ln := i + 1
		t := strings.TrimSpace(line)
		if h, ok := headingText(lines, i); ok {
			h = strings.ToLower(h)
			switch {
			case strings.Contains(h, "node") || strings.Contains(h, "entit"):
				section = "nodes"
			case strings.Contains(h, "edge") || strings.Contains(h, "relation"):
				section = "edges"
			default:
				section = ""
			}
			cols = nil
			flush()
			continue
		}
		if section == "" || !strings.HasPrefix(t, "|") {
			if t == "" {
				cols = nil
				flush()
			}
			continue
		}
		cells := splitCells(t)
		if isRuleRow(cells) {
			continue
		}
		if cols == nil {
			cols = map[string]int{}
			for j, c := range cells {
				k := headerKey(c, section)
				cols[k] = j
				if !looseColumns[section][k] && !derivedColumns[k] {
					extra = append(extra, &extraColumn{name: cleanCell(c), index: j, line: ln, edges: section == "edges"})
				}
			}
			continue
		}
		for _, x := range extra {
			if x.index < len(cells) && cleanCell(cells[x.index]) != "" {
				x.cells++
			}
		}
		raw := func(names ...string) string {
			for _, n := range names {
				if j, ok := cols[n]; ok && j < len(cells) {
					return cells[j]
				}
			}
			return ""
		}
		cell := func(names ...string) string { return cleanCell(raw(names...)) }
		switch section {
		case "nodes":
			name := cell("node", "name", "entity", "id")
			if name == "" {
				problems = append(problems, "graph.md:"+strconv.Itoa(ln)+": node row has no name: skipped")
				continue
			}
			g.Nodes = append(g.Nodes, &Node{Name: name, Type: strings.ToLower(cell("type")),
				Status: cell("status"), Attrs: readAttrs(raw("attributes", "attrs", "properties"))})
		case "edges":
			from, to, rel := cell("from", "source"), cell("to", "target"), cell("relation", "type", "rel")
			if from == "" || to == "" || rel == "" {
				problems = append(problems, "graph.md:"+strconv.Itoa(ln)+": edge row lacks from, to or relation: skipped")
				continue
			}
			g.Edges = append(g.Edges, &Edge{From: from, To: to, Relation: strings.ToLower(rel),
				Attrs: readAttrs(raw("attributes", "attrs"))})
		}
	}
	flush()
	return g, problems
}

// headingText returns the text of the heading lines[i] starts, if it
// starts one: an ATX heading ("## Nodes"), or the text of a setext
// heading, which the next line underlines with "=" or "-" ("Nodes" over
// "-----"), as hand-kept files also write them. The setext form was read
// as no heading: the table under it was skipped, so lint and status
// counted its rows as nothing curated, and adopt wrote graph.md without
// them. A table row, list item, quote or HTML line is no heading text.
func headingText(lines []string, i int) (string, bool) {
	t := strings.TrimSpace(lines[i])
	if strings.HasPrefix(t, "#") {
		return strings.TrimSpace(strings.Trim(strings.TrimLeft(t, "#"), " \t#")), true
	}
	if t == "" || i+1 >= len(lines) || strings.ContainsAny(t[:1], "|<>-*+=") {
		return "", false
	}
	u := strings.TrimSpace(lines[i+1])
	if u != "" && (strings.Trim(u, "=") == "" || strings.Trim(u, "-") == "") {
		return t, true
	}
	return "", false
}

// extraColumn is a column of a hand-kept table that ReadLoose does not
// read: its header, index and line, and how many of its cells hold text.
type extraColumn struct {
	name        string
	index, line int
	cells       int
	edges       bool // a column of the edges table
}

// derivedColumns are columns regen derives from the events ("Created
// (evt)", "Last Event", "Last Modified"), and a row number ("#"): a
// hand-kept file loses nothing when adopt does not read them.
var derivedColumns = map[string]bool{"created": true, "last": true, "#": true, "": true}

// headerKey reduces a header cell to a column name: "Created (evt)" →
// "created", "Node" → "node". Of a header of several words it takes the
// last when that names a column of the section ("Key Attributes" →
// "attributes", "Node Type" → "type"), else the first ("From Node" →
// "from").
func headerKey(c, section string) string {
	c = strings.ToLower(cleanCell(c))
	if i := strings.Index(c, "("); i > 0 {
		c = c[:i]
	}
	words := strings.Fields(c)
	if len(words) == 0 {
		return ""
	}
	if last := words[len(words)-1]; looseColumns[section][last] {
		return last
	}
	return words[0]
}

// looseColumns are the column names ReadLoose reads, per section.
var looseColumns = map[string]map[string]bool{
	"nodes": {"node": true, "name": true, "entity": true, "id": true, "type": true, "status": true,
		"attributes": true, "attrs": true, "properties": true},
	"edges": {"from": true, "source": true, "to": true, "target": true, "relation": true, "type": true,
		"rel": true, "attributes": true, "attrs": true},
}

func splitCells(row string) []string {
	row = strings.TrimPrefix(strings.TrimSuffix(row, "|"), "|")
	// A "\|" inside a cell is text, not a column break.
	row = strings.ReplaceAll(row, `\|`, "\x00")
	cells := strings.Split(row, "|")
	for i := range cells {
		cells[i] = strings.ReplaceAll(cells[i], "\x00", "|")
	}
	return cells
}

func isRuleRow(cells []string) bool {
	for _, c := range cells {
		c = strings.TrimSpace(c)
		if strings.Trim(c, ":-") != "" || c == "" {
			return false
		}
	}
	return true
}

// cleanCell unescapes what memsys and markdown writers escape (HTML
// character references, backticks, bold) and trims the cell.
func cleanCell(c string) string {
	c = html.UnescapeString(strings.TrimSpace(c))
	c = strings.Trim(c, "`")
	if strings.HasPrefix(c, "**") && strings.HasSuffix(c, "**") && len(c) > 4 {
		c = c[2 : len(c)-2]
	}
	c = strings.TrimSpace(c)
	if c == "—" || c == "-" {
		return ""
	}
	return c
}

// readAttrs reads the raw cell "k=v; k=v" (memsys's form), or "k: v,
// k: v" as hand writers put it. Text without a key becomes the
// attribute "note". The cell is split before it is unescaped: memsys
// writes a ';' inside a value as &#59;, which must not split it.
func readAttrs(cell string) []Attr {
	if cleanCell(cell) == "" {
		return nil
	}
	parts := splitSemis(cell, false)
	if len(parts) == 1 && strings.Contains(cell, ",") {
		commaParts := strings.Split(cell, ",")
		keyed := true
		for _, p := range commaParts {
			if !strings.ContainsAny(p, "=:") {
				keyed = false
			}
		}
		if keyed {
			parts = commaParts
		}
	}
	var out []Attr
	var notes []string
	for _, p := range parts {
		if cleanCell(p) == "" {
			continue
		}
		// Cut before unescaping too: a key's '=' is written &#61;.
		k, v, ok := strings.Cut(p, "=")
		if !ok || !IsKey(cleanCell(k)) {
			k, v, ok = strings.Cut(p, ":")
		}
		if !ok || !IsKey(cleanCell(k)) {
			notes = append(notes, cleanCell(p))
			continue
		}
		out = append(out, Attr{Key: cleanCell(k), Value: cleanCell(v)})
	}
	if len(notes) > 0 {
		out = append(out, Attr{Key: "note", Value: strings.Join(notes, "; ")})
	}
	return out
}

// IsKey reports whether k can be a detail key that the parser reads
// back as written: letters, digits, spaces, '_' and '-', at most 40.
func IsKey(k string) bool {
	k = strings.TrimSpace(k)
	if k == "" || len(k) > 40 {
		return false
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r == ' ' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// Missing lists what of the hand-kept graph g lacks: nodes (by name),
// their type, status and attributes, and edges. memsys adopt checks its plan
// with it; lint names such rows when graph.md drifts.
func Missing(hand, g *Graph) []string {
	return MissingAll(hand, []*Graph{g})
}

// MissingAll is Missing against several graphs: it lists what every one
// of gs lacks. regen reads a sealed graph.md that is behind the log
// against the replay at the file's horizon and the current one: a row
// either draws was written by memsys (a later event may have superseded
// it), one neither draws was added by hand. A type or status that
// differs is quoted as the first graph holding the node has it.
func MissingAll(hand *Graph, gs []*Graph) []string {
	var out []string
	// each reports whether f holds for every graph.
	each := func(f func(g *Graph) bool) bool {
		for _, g := range gs {
			if !f(g) {
				return false
			}
		}
		return true
	}
	for _, h := range hand.Nodes {
		if NameProblem(h.Name) != "" {
			continue
		}
		var n *Node // the node as the first graph holding it has it
		for _, g := range gs {
			if n = g.Node(h.Name); n != nil {
				break
			}
		}
		if n == nil {
			out = append(out, "node "+h.Name)
			continue
		}
		if h.Type != "" && contains(NodeTypes, h.Type) && each(func(g *Graph) bool {
			m := g.Node(h.Name)
			return m == nil || m.Type != h.Type
		}) {
			out = append(out, "node "+h.Name+" type "+h.Type+" (replay: "+n.Type+")")
		}
		if s, ok := Status(h.Status); ok && each(func(g *Graph) bool {
			m := g.Node(h.Name)
			return m == nil || m.Status != s
		}) {
			out = append(out, "node "+h.Name+" status "+s+" (replay: "+n.Status+")")
		}
		for _, a := range h.Attrs {
			if IsKey(a.Key) && each(func(g *Graph) bool {
				m := g.Node(h.Name)
				if m == nil {
					return true
				}
				v, ok := m.Attr(a.Key)
				return !ok || v != a.Value
			}) {
				out = append(out, "node "+h.Name+" attribute "+a.Key+"="+a.Value)
			}
		}
	}
	if len(hand.Edges) == 0 {
		return out
	}
	// HasEdge for each hand edge would scan every edge of each graph: an
	// index per graph keeps a 4 MB graph.md's comparison linear.
	sets := make([]map[edgeKey]*Edge, len(gs))
	for i, g := range gs {
		sets[i] = make(map[edgeKey]*Edge, len(g.Edges))
		for _, x := range g.Edges {
			sets[i][canonEdge(x)] = x
		}
	}
	for _, e := range hand.Edges {
		if !contains(EdgeRelations, e.Relation) || NameProblem(e.From) != "" || NameProblem(e.To) != "" {
			continue
		}
		k, drawn := canonEdge(e), false
		for _, set := range sets {
			drawn = drawn || set[k] != nil
		}
		if !drawn {
			out = append(out, "edge "+e.Label())
			continue
		}
		// No event carries an edge's attributes but those replay sets
		// (resolved=evt-NNN): a hand-written one is named, as a node's
		// is, rather than dropped while adopt reports success.
		for _, a := range e.Attrs {
			if !IsKey(a.Key) {
				continue
			}
			hand := true // no replay draws it
			for _, set := range sets {
				if x := set[k]; x != nil {
					if v, ok := x.Attr(a.Key); ok && v == a.Value {
						hand = false
					}
				}
			}
			if hand {
				out = append(out, "edge "+e.Label()+" attribute "+a.Key+"="+a.Value)
			}
		}
	}
	return out
}

// IsEdgeAttr reports whether item, one of MissingAll's, names an
// attribute of an edge the replay draws ("edge a -rel-> b attribute
// k=v"): no event carries one, so memsys adopt cannot record it and
// the advice differs (lint.HandKeptAdvice).
func IsEdgeAttr(item string) bool {
	rest, ok := strings.CutPrefix(item, "edge ")
	if !ok {
		return false
	}
	_, rest, ok = strings.Cut(rest, "-> ")
	// A name may hold " attribute " too: an attribute is one followed
	// by key=value.
	for ok {
		_, rest, ok = strings.Cut(rest, " attribute ")
		if k, _, kv := strings.Cut(rest, "="); ok && kv && IsKey(k) {
			return true
		}
	}
	return false
}

// canonEdge is what HasEdge matches an edge by: its ends by canonical
// name, and its relation.
func canonEdge(e *Edge) edgeKey { return edgeKey{Canon(e.From), Canon(e.To), e.Relation} }

// HasEdge reports whether g has an edge with e's ends (by canonical name)
// and relation.
func HasEdge(g *Graph, e *Edge) bool { return findEdge(g, e) != nil }

// findEdge is g's edge with e's ends (by canonical name) and relation,
// or nil.
func findEdge(g *Graph, e *Edge) *Edge {
	f, t := Canon(e.From), Canon(e.To)
	for _, x := range g.Edges {
		if x.Relation == e.Relation && Canon(x.From) == f && Canon(x.To) == t {
			return x
		}
	}
	return nil
}

// ReadConstraints returns the items of context.md's "Active
// Constraints" section, without the " — evt-NNN" a derived item ends
// with; "(none)" and "… and N more" are not items.
func ReadConstraints(src []byte) []string {
	items := readConstraintItems(src)
	for i, item := range items {
		if j := strings.LastIndex(item, " — evt-"); j > 0 {
			items[i] = item[:j]
		}
	}
	return items
}

// readConstraintItems returns the Active Constraints items as written.
func readConstraintItems(src []byte) []string {
	var out []string
	in := false
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if h, ok := headingText(lines, i); ok {
			in = strings.EqualFold(h, "active constraints")
			continue
		}
		if !in || !(strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ")) {
			continue
		}
		item := html.UnescapeString(strings.TrimSpace(t[2:]))
		if item == "" || item == "(none)" || strings.HasPrefix(item, "… and ") {
			continue
		}
		out = append(out, item)
	}
	return out
}

// HandConstraints lists the items of context.md's Active Constraints
// in src that look written by hand (no " — evt-NNN" ending, which every
// derived item has) and that want, the context.md regen writes, lacks;
// with several, that every one lacks (as MissingAll).
func HandConstraints(src []byte, want ...[]byte) []string {
	have := map[string]bool{}
	for _, w := range want {
		for _, c := range ReadConstraints(w) {
			have[c] = true
		}
	}
	var out []string
	for _, c := range readConstraintItems(src) {
		if !strings.Contains(c, " — evt-") && !have[c] {
			out = append(out, "constraint "+strconv.Quote(c))
		}
	}
	return out
}
