package mcpserver

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
)

// TestUnreadableDerivedOverMCP: memsys_regen and memsys_lint with "fix"
// decide as memsys regen and lint --fix do about a derived file memsys
// cannot read (a folder at context.md): a tool error naming it, and
// nothing written (graph.md, one event behind, stays as it was);
// memsys_status calls it unreadable, advising no memsys_regen.
func TestUnreadableDerivedOverMCP(t *testing.T) {
	root := t.TempDir()
	ev := func(n int) string {
		return fmt.Sprintf("### evt-%03d | 2026-03-01 1%d:00 | alice | test\n\n**Scope**: a\n**Summary**: s\n\n**Details**:\n- target: a\n- result: ok\n\n**Refs**: none\n**Tags**: none\n", n, n)
	}
	head := "# Changelog\n\n## Event Log\n\n"
	for name, data := range map[string]string{"CHANGELOG.md": head + ev(1), "TODO.md": "# TODO\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := memory.Regenerate(root, memory.RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "CHANGELOG.md"), []byte(head+ev(1)+"\n---\n\n"+ev(2)), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := filepath.Join(root, ".memory", "context.md")
	if err := os.Remove(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(ctx, 0o755); err != nil {
		t.Fatal(err)
	}
	graph := filepath.Join(root, ".memory", "graph.md")
	before, _ := os.ReadFile(graph)
	cs := connect(t, root)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"memsys_regen", map[string]any{}}, {"memsys_regen", map[string]any{"force": true}}, {"memsys_lint", map[string]any{"fix": true}}} {
		res := call(t, cs, c.tool, c.args)
		if msg := text(res); !res.IsError || !strings.Contains(msg, ".memory/context.md: is a directory, not a file: move it away") {
			t.Errorf("%s %v = error %v, %q", c.tool, c.args, res.IsError, msg)
		}
		if now, _ := os.ReadFile(graph); !bytes.Equal(now, before) {
			t.Fatalf("%s %v wrote graph.md", c.tool, c.args)
		}
	}
	res := call(t, cs, "memsys_status", map[string]any{})
	msg := text(res)
	if !strings.Contains(msg, ".memory/context.md: unreadable: is a directory, not a file: move it away") || strings.Contains(msg, "context.md: missing") {
		t.Errorf("memsys_status:\n%s", msg)
	}
	var r memory.StatusReport
	structured(t, res, &r)
	if r.Context.State != "unreadable" || !strings.HasPrefix(r.Context.Reason, "is a directory, not a file: move it away") {
		t.Errorf("memsys_status structured context: %+v", r.Context)
	}
}
