package memory

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

func TestAppendWritesNextIDAndRegenerates(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, parse.LogFile), genLog(3, "\n---\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, parse.MemoryDir), 0o755); err != nil {
		t.Fatal(err)
	}
	d := Draft{Agent: "a", Time: "2026-01-02 10:00", Type: "create", Scope: "s", Summary: "x",
		Details: []DraftDetail{{Key: "entity", Value: "svc"}}}
	res, err := Append(root, d, false, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != "evt-004" || res.File != parse.LogFile || len(res.Regenerated) != 0 {
		t.Errorf("first append = %+v", res)
	}
	res, err = Append(root, d, true, true)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := os.ReadFile(filepath.Join(root, parse.LogFile))
	line := strings.Count(string(log[:strings.Index(string(log), "### evt-005")]), "\n") + 1
	if res.ID != "evt-005" || res.Line != line || !slices.Equal(res.Regenerated, []string{parse.ContextFile}) {
		t.Errorf("second append = %+v", res)
	}
	ctx, err := os.ReadFile(filepath.Join(root, parse.ContextFile))
	if err != nil || !strings.Contains(string(ctx), "evt-005") {
		t.Errorf("context.md after append --regen: %v\n%s", err, ctx)
	}
}

func TestAppendRefusesUnknownRef(t *testing.T) {
	root := t.TempDir()
	src := genLog(2, "\n---\n\n")
	if err := os.WriteFile(filepath.Join(root, parse.LogFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"evt-+1", "evt-9"} {
		d := Draft{Agent: "a", Time: "2026-01-02 10:00", Type: "test", Scope: "s", Summary: "x", Refs: []string{ref}}
		if _, err := Append(root, d, false, false); err == nil {
			t.Errorf("ref %q appended", ref)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, parse.LogFile)); string(got) != string(src) {
		t.Error("a refused append changed the log")
	}
}
