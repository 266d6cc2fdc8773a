package materialize

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// UnknownEntityError is a name that is no node of the graph. recall,
// log --entity and snapshot (and their MCP tools) all return it, so the
// same misspelt name reads the same sentence whichever one was asked.
type UnknownEntityError struct {
	Name string // as the user typed it
	// At is the event the graph was cut at (--at), "" for the whole
	// history: a node created later is no node yet, and the message
	// says so rather than that the node does not exist.
	At string
	// Nearest are the closest node names, best first (see Nearest).
	Nearest []string
}

// UnknownEntity is the error for name, which no node of g has: it names
// up to 3 nearest nodes. at is the event g was cut at ("" for none).
func UnknownEntity(g *Graph, name, at string) *UnknownEntityError {
	return &UnknownEntityError{Name: name, At: at, Nearest: Nearest(g, name, 3)}
}

// CheckEntityName returns the error for a name that cannot name a node
// because it is empty once canonical (Canon: "", blanks, "-" or "_"
// alone), else nil. recall, snapshot and log --entity give it before
// they read the graph: such a name is no misspelling, and Nearest would
// suggest the first nodes of the graph, since every key contains "".
func CheckEntityName(name string) error {
	if Canon(name) == "" {
		return fmt.Errorf("entity %q is empty: name a node of the graph", words.Clip(name))
	}
	return nil
}

func (e *UnknownEntityError) Error() string { return e.For(front.CLI) }

// For is the message as front end f words it: what is wrong, the
// nearest names if any, and what to do, which names memsys graph on the
// command line and memsys_graph over MCP.
func (e *UnknownEntityError) For(f front.Front) string {
	msg := fmt.Sprintf("unknown entity %q: no such node in the graph", words.Clip(e.Name))
	if e.At != "" {
		msg += " at " + e.At
	}
	if len(e.Nearest) > 0 {
		q := make([]string, len(e.Nearest))
		for i, n := range e.Nearest {
			q[i] = strconv.Quote(n)
		}
		msg += "; nearest: " + strings.Join(q, ", ")
	}
	return msg + ": " + front.Graph.Word().For(f) + " lists the nodes"
}

// Nearest returns up to n node names closest to name: names that
// contain it or that it contains first, then by edit distance between
// canonical keys, ties broken by graph order, so the suggestion is the
// same on every run. recall, log --entity and snapshot suggest them for
// a name that is no node.
func Nearest(g *Graph, name string, n int) []string {
	want := Canon(name)
	type cand struct {
		name  string
		score int
		pos   int
	}
	var cs []cand
	for i, node := range g.Nodes {
		k := Canon(node.Name)
		s := distance(want, k)
		if strings.Contains(k, want) || strings.Contains(want, k) && k != "" {
			s -= 1000
		}
		cs = append(cs, cand{node.Name, s, i})
	}
	slices.SortStableFunc(cs, func(a, b cand) int {
		if a.score != b.score {
			return a.score - b.score
		}
		return a.pos - b.pos
	})
	var out []string
	for _, c := range cs {
		if len(out) == n {
			break
		}
		// A suggestion further than half the name away is noise.
		if c.score > max(2, len([]rune(want))/2) {
			break
		}
		out = append(out, c.name)
	}
	return out
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := prev[j-1]
			if ra[i-1] != rb[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
