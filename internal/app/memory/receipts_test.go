package memory

import (
	"testing"

	"github.com/memsys/memsys/materialize"
)

// TestSnapshotMarkdownSections: Attributes, Edges and History each say
// "- (none)" when empty, with no table header left without rows, and
// print their table or list otherwise.
func TestSnapshotMarkdownSections(t *testing.T) {
	head := "# core\n\n- **Type**: component\n- **Status**: active\n- **Created**: evt-001\n- **Last event**: evt-001\n- **Event horizon**: evt-002\n"
	s := &materialize.Snapshot{Name: "core", Type: "component", Status: "active", Created: "evt-001", LastEvent: "evt-001", Horizon: "evt-002"}
	want := head + "\n## Attributes\n\n- (none)\n\n## Edges\n\n- (none)\n\n## History\n\n- (none)\n"
	if got := SnapshotMarkdown(s); got != want {
		t.Errorf("empty snapshot:\n%s\nwant\n%s", got, want)
	}
	s.Attrs = []materialize.SnapshotAttr{{Key: "path", Value: "src/a|b", Event: "evt-001"}}
	s.Edges = []materialize.SnapshotEdge{{From: "core", To: "db", Relation: "uses", Created: "evt-002"}}
	s.History = []materialize.SnapshotStep{{ID: "evt-001", Time: "2025-01-01 09:00", Agent: "ada", Type: "create", Summary: "Core\nmodule"}}
	want = head + "\n## Attributes\n\n| Key | Value | Set by |\n|-----|-------|--------|\n| path | src/a&#124;b | evt-001 |\n" +
		"\n## Edges\n\n| From | To | Relation | Created | Attributes |\n|------|----|----------|---------|------------|\n| core | db | uses | evt-002 |  |\n" +
		"\n## History\n\n- evt-001 | 2025-01-01 09:00 | ada | create | Core module\n"
	if got := SnapshotMarkdown(s); got != want {
		t.Errorf("full snapshot:\n%s\nwant\n%s", got, want)
	}
}
