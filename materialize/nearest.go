package materialize

import (
	"slices"
	"strings"
)

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
