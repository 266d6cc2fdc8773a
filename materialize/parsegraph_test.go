package materialize

import (
	"os"
	"strings"
	"testing"
)

// TestParseGraphErrors pins ParseGraph's messages for a graph.md edited
// by hand, counts of one included ("1 node", not "1 nodes").
func TestParseGraphErrors(t *testing.T) {
	empty, err := os.ReadFile("testdata/empty-graph.golden")
	if err != nil {
		t.Fatal(err)
	}
	src := string(empty)
	for _, c := range []struct{ name, old, new, want string }{
		{"meta counts one node", "- **Nodes**: 0", "- **Nodes**: 1", "line 21: Meta counts 1 node, the table has 0"},
		{"meta counts two edges", "- **Edges**: 0", "- **Edges**: 2", "line 21: Meta counts 2 edges, the table has 0"},
		{"node row of one cell", "|------------|\n\n## Edges", "|------------|\n| x |\n\n## Edges", "line 13: node row has 1 cell, want 6"},
	} {
		if !strings.Contains(src, c.old) {
			t.Fatalf("%s: %q is not in the golden", c.name, c.old)
		}
		_, err := ParseGraph([]byte(strings.Replace(src, c.old, c.new, 1)))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: ParseGraph error %v, want %q", c.name, err, c.want)
		}
	}
}
