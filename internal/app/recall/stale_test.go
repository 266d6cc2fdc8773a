package recall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// TestGraphFileEditedUnderneath: recall reads graph.md only when it is
// what regen writes now, not merely when its horizon is the last event.
// An event edited in place (the horizon unchanged) or a hand edit of
// graph.md left recall (and so memsys_recall, in a server whose memory
// is edited between calls) serving the old rows, while status and lint
// called the file stale. With the history cache and without it.
func TestGraphFileEditedUnderneath(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		if noCache {
			t.Setenv(workspace.EnvNoCache, "1")
		}
		root := memoryOf(t, 40)
		g, err := os.ReadFile(filepath.Join(root, parse.GraphFile))
		if err != nil {
			t.Fatal(err)
		}
		rows := strings.Split(string(g), "\n")
		var name string
		for _, r := range rows {
			if f := strings.Split(r, "|"); len(f) > 6 && strings.TrimSpace(f[3]) == "active" {
				name = strings.TrimSpace(f[1])
				break
			}
		}
		if name == "" {
			t.Fatal("no active node in graph.md")
		}
		q := Query{Entities: []string{name}, Depth: 1, Budget: DefaultBudget}
		fresh := pack(t, root, q, true)

		// graph.md edited by hand: the node's status changed, the
		// horizon kept.
		for i, r := range rows {
			if strings.HasPrefix(r, "| "+name+" |") {
				rows[i] = strings.Replace(r, "| active |", "| deprecated |", 1)
			}
		}
		edited := strings.Join(rows, "\n")
		if edited == string(g) {
			t.Fatal("the edit changed nothing")
		}
		if err := os.WriteFile(filepath.Join(root, parse.GraphFile), []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := pack(t, root, q, false); got != fresh {
			t.Errorf("no cache %v: graph.md edited by hand: the pack is not the replay's:\n got %s\nwant %s", noCache, got, fresh)
		}

		// An event edited in place in the log, graph.md as regen wrote it
		// before: the horizon is still the last event.
		if err := os.WriteFile(filepath.Join(root, parse.GraphFile), g, 0o644); err != nil {
			t.Fatal(err)
		}
		log := filepath.Join(root, parse.LogFile)
		src, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(src), "**Summary**: ")
		if i < 0 {
			t.Fatal("no summary")
		}
		src = []byte(string(src[:i]) + "**Summary**: Edited, " + string(src[i+len("**Summary**: "):]))
		if err := os.WriteFile(log, src, 0o644); err != nil {
			t.Fatal(err)
		}
		pack(t, root, q, false)
	}
}

// TestBrokenConfigReplays: a .memsys.json that does not load leaves
// recall's pack what it is with a good one. The graph does not depend
// on the file, and recall read it only to check graph.md's seal, so a
// broken file made recall exit 2 while graph.md was fresh, and answer
// once it was stale. With the history cache and without it.
func TestBrokenConfigReplays(t *testing.T) {
	for _, noCache := range []bool{false, true} {
		if noCache {
			t.Setenv(workspace.EnvNoCache, "1")
		}
		root := memoryOf(t, 40)
		q := Query{Entities: []string{"protobuf"}, Depth: 1, Budget: DefaultBudget}
		want := pack(t, root, q, true)
		if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(`{"context": {"words": "x"}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := pack(t, root, q, false); got != want {
			t.Errorf("no cache %v: broken .memsys.json: the pack is not the one graph.md gave:\n got %s\nwant %s", noCache, got, want)
		}
		if _, err := Recall(root, q); err != nil {
			t.Errorf("no cache %v: broken .memsys.json: Recall: %v", noCache, err)
		}
	}
}
