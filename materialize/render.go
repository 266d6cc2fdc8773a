package materialize

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
)

// none is what graph.md and context.md show for a missing horizon or
// timestamp, as the seed's empty template does.
const none = "—"

const (
	nodesHeader = "| Node | Type | Status | Created (evt) | Last Event | Attributes |"
	nodesRule   = "|------|------|--------|---------------|------------|------------|"
	edgesHeader = "| From | To | Relation | Created (evt) | Attributes |"
	edgesRule   = "|------|----|----------|---------------|------------|"
)

// RenderGraph writes graph.md in the seed template's shape: rows in
// graph order (creation order), attributes as "key=value; key=value".
// An empty graph renders the template with empty tables.
func RenderGraph(g *Graph) []byte {
	var b bytes.Buffer
	b.Grow(graphSize(g))
	writeGraph(&b, g, nil)
	return b.Bytes()
}

// writeGraph writes RenderGraph's output to b. With a flush, it hands b
// over whenever b holds graphChunk bytes or more, and flush empties it:
// a caller that only compares the file (GraphMatches) never holds it
// whole.
func writeGraph(b *bytes.Buffer, g *Graph, flush func(*bytes.Buffer)) {
	b.WriteString("# Knowledge Graph\n\n")
	b.WriteString("<!-- LAYER 2: Materialized view of the Event Log in CHANGELOG.md. Written by memsys regen; never edit by hand. -->\n")
	b.WriteString("<!-- Materialization rules: docs/materialize.md. -->\n\n")
	b.WriteString("## Nodes\n\n")
	b.WriteString("<!-- Node Types: " + strings.Join(NodeTypes, ", ") + " -->\n")
	b.WriteString("<!-- Statuses: " + strings.Join(NodeStatuses, ", ") + " -->\n\n")
	b.WriteString(nodesHeader + "\n" + nodesRule + "\n")
	for _, n := range g.Nodes {
		row(b, escCell(n.Name), escCell(n.Type), escCell(n.Status), escCell(n.Created), escCell(n.LastEvent))
		attrsCell(b, n.Attrs)
		if flush != nil && b.Len() >= graphChunk {
			flush(b)
		}
	}
	b.WriteString("\n## Edges\n\n")
	b.WriteString("<!-- Relations: " + strings.Join(EdgeRelations, ", ") + " -->\n\n")
	b.WriteString(edgesHeader + "\n" + edgesRule + "\n")
	for _, e := range g.Edges {
		row(b, escCell(e.From), escCell(e.To), escCell(e.Relation), escCell(e.Created))
		attrsCell(b, e.Attrs)
		if flush != nil && b.Len() >= graphChunk {
			flush(b)
		}
	}
	b.WriteString("\n## Meta\n\n")
	b.WriteString("- **Last updated**: " + orNone(escCell(g.Updated)) + "\n")
	b.WriteString("- **Event horizon**: " + orNone(escCell(g.Horizon)) + "\n")
	b.WriteString("- **Nodes**: " + strconv.Itoa(len(g.Nodes)) + "\n")
	b.WriteString("- **Edges**: " + strconv.Itoa(len(g.Edges)) + "\n")
	if flush != nil {
		flush(b)
	}
}

// graphChunk is how much of graph.md writeGraph gathers before a flush.
const graphChunk = 32 << 10

// graphMatches reports whether file is RenderGraph(g) sealed with the
// digest source (sealOwned), without building that file: each chunk
// is compared with file and added to the seal's hash as it is written.
func graphMatches(g *Graph, file, source []byte) bool {
	h := sealHash(source)
	rest, same := file, true
	var b bytes.Buffer
	b.Grow(graphChunk + 4<<10)
	writeGraph(&b, g, func(b *bytes.Buffer) {
		if p := b.Bytes(); same && bytes.HasPrefix(rest, p) {
			rest = rest[len(p):]
			h.Write(p)
		} else {
			same = false
		}
		b.Reset()
	})
	return same && string(rest) == sealPrefix+sealHex(h)+" -->\n"
}

func orNone(s string) string {
	if s == "" {
		return none
	}
	return s
}

// graphSize is about the length of RenderGraph's output, escapes
// aside, plus room for the seal: at 100k events graph.md is 4 MB, and
// a buffer grown by doubling copied it several times over.
func graphSize(g *Graph) int {
	n := 1024 + len(sealPrefix) + 64
	for _, x := range g.Nodes {
		n += 20 + len(x.Name) + len(x.Type) + len(x.Status) + len(x.Created) + len(x.LastEvent) + attrsSize(x.Attrs)
	}
	for _, e := range g.Edges {
		n += 17 + len(e.From) + len(e.To) + len(e.Relation) + len(e.Created) + attrsSize(e.Attrs)
	}
	return n + n/64
}

func attrsSize(as []Attr) int {
	n := 0
	for _, a := range as {
		n += len(a.Key) + len(a.Value) + 3
	}
	return n
}

// row writes the first cells of a table row; attrsCell writes the last
// and ends the row.
func row(b *bytes.Buffer, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(c)
		b.WriteString(" |")
	}
}

// attrsCell writes the attributes as the row's last cell,
// "key=value; key=value", and ends the row.
func attrsCell(b *bytes.Buffer, as []Attr) {
	b.WriteString(" ")
	for i, a := range as {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(esc(a.Key, keyEsc))
		b.WriteString("=")
		b.WriteString(esc(a.Value, valEsc))
	}
	b.WriteString(" |\n")
}

// ParseGraph reads graph.md back into a Graph: RenderGraph's output
// round-trips exactly. Errors name the 1-based line and what is wrong.
func ParseGraph(src []byte) (*Graph, error) {
	g := &Graph{}
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	section := ""
	seen := map[string]int{}
	metaNodes, metaEdges := -1, -1
	for i, line := range strings.Split(text, "\n") {
		ln := i + 1
		line = strings.TrimRight(line, " \t")
		if strings.HasPrefix(line, "## ") {
			section = strings.TrimSpace(line[3:])
			seen[section] = ln
			continue
		}
		switch section {
		case "Nodes", "Edges":
			if !strings.HasPrefix(line, "|") {
				continue
			}
			if err := g.addRow(section, line, ln); err != nil {
				return nil, err
			}
		case "Meta":
			k, v, ok := metaItem(line)
			if !ok {
				continue
			}
			if v == none {
				v = ""
			}
			var err error
			switch k {
			case "Last updated":
				g.Updated = unesc(v)
			case "Event horizon":
				g.Horizon = unesc(v)
			case "Nodes":
				metaNodes, err = strconv.Atoi(v)
			case "Edges":
				metaEdges, err = strconv.Atoi(v)
			}
			if err != nil {
				return nil, fmt.Errorf("line %d: %s count %q is not a number", ln, k, v)
			}
		}
	}
	for _, s := range []string{"Nodes", "Edges", "Meta"} {
		if seen[s] == 0 {
			return nil, fmt.Errorf("no %q section", "## "+s)
		}
	}
	if metaNodes >= 0 && metaNodes != len(g.Nodes) {
		return nil, fmt.Errorf("line %d: Meta counts %s, the table has %d", seen["Meta"], words.Plural(metaNodes, "node"), len(g.Nodes))
	}
	if metaEdges >= 0 && metaEdges != len(g.Edges) {
		return nil, fmt.Errorf("line %d: Meta counts %s, the table has %d", seen["Meta"], words.Plural(metaEdges, "edge"), len(g.Edges))
	}
	g.reindex()
	return g, nil
}

// nodeFromCells reads the cells of a Nodes row.
func nodeFromCells(cells []string) (*Node, error) {
	if len(cells) != 6 {
		return nil, fmt.Errorf("node row has %s, want 6", words.Plural(len(cells), "cell"))
	}
	attrs, err := parseAttrs(cells[5])
	if err != nil {
		return nil, err
	}
	return &Node{Name: unesc(cells[0]), Type: unesc(cells[1]), Status: unesc(cells[2]),
		Created: unesc(cells[3]), LastEvent: unesc(cells[4]), Attrs: attrs}, nil
}

// edgeFromCells reads the cells of an Edges row.
func edgeFromCells(cells []string) (*Edge, error) {
	if len(cells) != 5 {
		return nil, fmt.Errorf("edge row has %s, want 5", words.Plural(len(cells), "cell"))
	}
	attrs, err := parseAttrs(cells[4])
	if err != nil {
		return nil, err
	}
	return &Edge{From: unesc(cells[0]), To: unesc(cells[1]), Relation: unesc(cells[2]),
		Created: unesc(cells[3]), Attrs: attrs}, nil
}

func isRule(line string) bool {
	return strings.Trim(line, "|-: ") == "" && strings.Contains(line, "-")
}

// splitRow splits "| a | b |" into its trimmed cells. RenderGraph never
// writes a raw '|' inside a cell, so every '|' is a boundary.
func splitRow(line string) ([]string, error) {
	if !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil, fmt.Errorf("table row does not end with %q", "|")
	}
	parts := strings.Split(line[1:len(line)-1], "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts, nil
}

func parseAttrs(cell string) ([]Attr, error) {
	if cell == "" {
		return nil, nil
	}
	var out []Attr
	for _, p := range splitAttrs(cell) {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, fmt.Errorf("attribute %q is not key=value", p)
		}
		out = append(out, Attr{unesc(k), unesc(v)})
	}
	return out, nil
}

// metaItem reads "- **Key**: value".
func metaItem(line string) (k, v string, ok bool) {
	rest, ok := strings.CutPrefix(line, "- **")
	if !ok {
		return "", "", false
	}
	k, v, ok = strings.Cut(rest, "**:")
	return k, strings.TrimSpace(v), ok
}

// addRow adds the table row line (line number ln) of the Nodes or Edges
// section to g; the header and the delimiter row add nothing. Both
// graph.md readers (ParseGraph and ParseGraphWhere) use it, so they read
// a row alike.
func (g *Graph) addRow(section, line string, ln int) error {
	if line == nodesHeader || line == edgesHeader || isRule(line) {
		return nil
	}
	cells, err := splitRow(line)
	if err != nil {
		return fmt.Errorf("line %d: %v", ln, err)
	}
	if section == "Nodes" {
		n, err := nodeFromCells(cells)
		if err != nil {
			return fmt.Errorf("line %d: %v", ln, err)
		}
		g.Nodes = append(g.Nodes, n)
		return nil
	}
	e, err := edgeFromCells(cells)
	if err != nil {
		return fmt.Errorf("line %d: %v", ln, err)
	}
	g.Edges = append(g.Edges, e)
	return nil
}
