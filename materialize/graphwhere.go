package materialize

import (
	"bytes"
	"fmt"
	"strings"
)

// ParseGraphWhere reads only some rows of graph.md: the nodes whose
// canonical name (Canon) keepNode accepts and the edges whose ends'
// canonical names keepEdge accepts; a nil function keeps no row of its
// table. Rows keep graph.md's order, so the result is the sub-graph
// ParseGraph would give filtered the same way. Unlike ParseGraph it
// does not check the Meta counts (they count every row) and reads the
// attributes of the kept rows only, which is what makes a look at a
// few entities of a 100k-event graph a fraction of a full parse
// (`memsys recall`).
func ParseGraphWhere(src []byte, keepNode func(key string) bool, keepEdge func(fromKey, toKey string) bool) (*Graph, error) {
	g := &Graph{}
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	section := ""
	seen := map[string]bool{}
	ln := 0
	for len(src) > 0 {
		ln++
		var line []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			line, src = src, nil
		}
		line = bytes.TrimRight(line, " \t\r")
		if bytes.HasPrefix(line, []byte("## ")) {
			section = string(bytes.TrimSpace(line[3:]))
			seen[section] = true
			continue
		}
		if len(line) == 0 || line[0] != '|' && section != "Meta" {
			continue
		}
		switch {
		case section == "Nodes" && keepNode != nil:
			name, ok := firstCell(line)
			if !ok || !keepNode(Canon(unesc(name))) {
				continue
			}
		case section == "Edges" && keepEdge != nil:
			from, rest, ok := cutCell(line[1:])
			to, _, ok2 := cutCell(rest)
			if !ok || !ok2 || !keepEdge(Canon(unesc(from)), Canon(unesc(to))) {
				continue
			}
		case section == "Meta":
			k, v, ok := metaItem(string(line))
			if !ok {
				continue
			}
			if v == none {
				v = ""
			}
			switch k {
			case "Last updated":
				g.Updated = unesc(v)
			case "Event horizon":
				g.Horizon = unesc(v)
			}
			continue
		default:
			continue
		}
		if err := g.addRow(section, string(line), ln); err != nil {
			return nil, err
		}
	}
	for _, s := range []string{"Nodes", "Edges", "Meta"} {
		if !seen[s] {
			return nil, fmt.Errorf("no %q section", "## "+s)
		}
	}
	g.reindex()
	return g, nil
}

// firstCell returns the trimmed first cell of a table row.
func firstCell(line []byte) (string, bool) {
	c, _, ok := cutCell(line[1:])
	return c, ok
}

// cutCell splits "a | rest" at the first '|' (RenderGraph escapes every
// '|' inside a cell) and returns the trimmed cell.
func cutCell(b []byte) (cell string, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '|')
	if i < 0 {
		return "", nil, false
	}
	return strings.TrimSpace(string(b[:i])), b[i+1:], true
}
