package memory

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGraph: memory.Graph on the bundled example, with and without a
// status filter, as of an event, and with an unknown status.
func TestGraph(t *testing.T) {
	root := filepath.Join("..", "..", "..", "examples", "multi-agent")
	g, err := Graph(root, "", nil)
	if err != nil || len(g.Nodes) == 0 || g.Horizon == "" {
		t.Fatalf("graph: %v", err)
	}
	dep, err := Graph(root, "", []string{" Deprecated "})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range dep.Nodes {
		if n.Status != "deprecated" {
			t.Errorf("--status deprecated kept %q (%s)", n.Name, n.Status)
		}
	}
	if len(dep.Nodes) == 0 || len(dep.Nodes) >= len(g.Nodes) {
		t.Errorf("--status deprecated: %d of %d nodes", len(dep.Nodes), len(g.Nodes))
	}
	if at, err := Graph(root, "evt-001", nil); err != nil || at.Horizon != "evt-001" {
		t.Errorf("--at evt-001: %v", err)
	}
	if _, err := Graph(root, "", []string{"done"}); err == nil || !strings.Contains(err.Error(), `--status "done": unknown status: use active, blocked`) {
		t.Errorf("unknown status: %v", err)
	}
}
