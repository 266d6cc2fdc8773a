package memory

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestCommandsOnAFolder runs init, append, regen, show, log and lint
// the way the command line calls them, on a temporary folder.
func TestCommandsOnAFolder(t *testing.T) {
	root := t.TempDir()
	r, err := Init(root, parse.Full)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{parse.LogFile, parse.TodoFile, parse.GraphFile, parse.ContextFile, parse.AgentsFile} {
		if !slices.ContainsFunc(r.Done, func(l string) bool { return strings.HasSuffix(l, " "+f) || strings.Contains(l, " "+f+" ") }) {
			t.Errorf("init did not report %s: %q", f, r.Done)
		}
	}
	if again, err := Init(root, parse.Full); err != nil || len(again.Done) != 0 {
		t.Errorf("a second init: %q, %v", again.Done, err)
	}

	for _, d := range []Draft{
		{Agent: "a", Time: "2026-01-02 10:00", Type: "create", Scope: "auth", Summary: "auth module", Details: []DraftDetail{{Key: "entity", Value: "auth"}}},
		{Agent: "b", Time: "2026-01-02 11:00", Type: "test", Scope: "auth", Summary: "auth tested", Refs: []string{"evt-1"},
			Details: []DraftDetail{{Key: "target", Value: "auth"}, {Key: "result", Value: "pass"}}},
	} {
		if _, err := Append(root, d, false, false); err != nil {
			t.Fatal(err)
		}
	}

	check, err := Regenerate(root, RegenOptions{Check: true})
	if err != nil || !strings.Contains(check.Diff, "+<!-- Last generated: 2026-01-02 11:00 | Event horizon: evt-002 -->") {
		t.Fatalf("regen --check after two appends: %v\n%s", err, check.Diff)
	}
	wrote, err := Regenerate(root, RegenOptions{})
	if err != nil || !slices.Equal(wrote.Wrote, []string{parse.GraphFile, parse.ContextFile}) {
		t.Fatalf("regen wrote %q, %v", wrote.Wrote, err)
	}
	if check, err = Regenerate(root, RegenOptions{Check: true}); err != nil || check.Diff != "" {
		t.Errorf("regen --check after regen: %v\n%s", err, check.Diff)
	}
	graph, err := Regenerate(root, RegenOptions{Stdout: "graph", At: "evt-001"})
	if err != nil || !strings.Contains(string(graph.Output), "Event horizon**: evt-001") {
		t.Errorf("regen --stdout graph --at evt-001: %v\n%s", err, graph.Output)
	}

	show, err := Show(root, "", "evt-001")
	if err != nil || len(show.ReferencedBy) != 1 || show.ReferencedBy[0].ID != "evt-002" || !slices.Equal(show.Changes.NodesAdded, []string{"auth"}) {
		t.Errorf("show evt-001: %+v, %v", show, err)
	}
	lines, matched, err := Log(root, LogFilter{Types: []string{" TEST"}})
	if err != nil || len(lines) != 1 || lines[0].ID != "evt-002" || matched != 1 {
		t.Errorf("log --type test: %v, %d, %v", lines, matched, err)
	}
	// --limit keeps the newest of what matched, oldest first, and says
	// how many matched.
	lines, matched, err = Log(root, LogFilter{Limit: 1})
	if err != nil || len(lines) != 1 || lines[0].ID != "evt-002" || matched != 2 {
		t.Errorf("log --limit 1: %v, %d, %v", lines, matched, err)
	}
	if _, _, err := Log(root, LogFilter{Since: "yesterday"}); err == nil {
		t.Error("log --since yesterday passed")
	}
	if _, _, err := Log(root, LogFilter{Limit: -1}); err == nil {
		t.Error("log --limit -1 passed")
	}

	// A hand edit of context.md is drift; --fix rewrites it.
	ctxPath := filepath.Join(root, filepath.FromSlash(parse.ContextFile))
	good, _ := os.ReadFile(ctxPath)
	if err := os.WriteFile(ctxPath, append(good, "edited by hand\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	rules := func(fix bool) []string {
		r, err := Lint(context.Background(), root, LintOptions{Fix: fix})
		if err != nil || r.Events != 2 {
			t.Fatalf("lint: %v, %v", r, err)
		}
		var ids []string
		for _, d := range r.Diagnostics {
			ids = append(ids, d.Rule)
		}
		return ids
	}
	if got := rules(false); !slices.Contains(got, "MS205") {
		t.Errorf("lint after a hand edit: %v, want MS205", got)
	}
	if got := rules(true); slices.Contains(got, "MS205") {
		t.Errorf("lint --fix left %v", got)
	}
	if after, _ := os.ReadFile(ctxPath); string(after) != string(good) {
		t.Error("lint --fix did not restore context.md")
	}
}
