package memory

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
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

// TestSnapshotStreamedEqualsKept: the snapshot built as the events
// stream by (Snapshot, which keeps none) is the one built from the kept
// history (keptSnapshot), for every entity of every log of the corpus
// (the testscripts', the examples', materialize's semantics cases with
// their Supersedes fields, archives, a generated log), and for a name
// no node has (the error with its suggestions). A prediction of the
// Supersedes fields the events contradict (one in a code fence) makes
// Snapshot stream again, with the same answer.
func TestSnapshotStreamedEqualsKept(t *testing.T) {
	corpora := corpusOf(t, []string{parse.LogFile, "changelog-archive.md", "CHANGELOG-archive.md"}, "../../../materialize/testdata/semantics/*.md")
	fenced := []byte(strings.ReplaceAll(newEvent, "%s", "9001") + "\n```\n**Supersedes**: evt-001\n```\n")
	corpora = append(corpora, map[string][]byte{parse.LogFile: append(loggen.Generate(40, 3), fenced...)})
	compared := 0
	for i, files := range corpora {
		root := newCachedRoot(t, files)
		names := []string{"no_such_entity_here"}
		if mem, err := LoadHistory(root); err == nil {
			g, _ := materialize.Replay(mem.Events)
			for _, n := range g.Nodes {
				names = append(names, n.Name, strings.ToUpper(n.Name))
			}
		}
		for _, name := range names {
			got, want := snapshotResult(Snapshot(root, name, "")), snapshotResult(keptSnapshot(root, name, ""))
			if got != want {
				t.Fatalf("log %d, %q: streamed snapshot\n%s\nkept\n%s", i, name, got, want)
			}
			compared++
		}
	}
	if compared < 200 {
		t.Errorf("%d snapshots compared over %d logs: the comparison hardly ran", compared, len(corpora))
	}
	t.Logf("%d logs, %d snapshots equal", len(corpora), compared)
}
