package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// toolRefs matches a tool that a result advises, with the parameter it
// names ("memsys_archive with \"dry_run\"").
var toolRefs = regexp.MustCompile(`\bmemsys_[a-z]+(?: with "([a-z_]+)")?`)

// htmlComments are the bookkeeping comments of the derived files
// ("Written by memsys regen; never edit by hand", the digest): the
// file's own bytes, which memsys_context and memsys_graph return as
// they are on disk.
var htmlComments = regexp.MustCompile(`(?s)<!--.*?-->`)

// TestResultsNameTools drives every tool through the real server on
// memories that trigger each advice line of the results (stale, missing
// and hand-edited derived files, a file the tier does not use, open
// loops, archival due with and without a plan, an archive that cannot
// run) and checks what an agent reads, text and structured result
// alike: no flag and no command spelled for the shell, every advice the
// expected tool, and every tool and parameter it names one the server
// offers. memsys_lint's findings are lint's rule texts (the CLI's; see
// docs/agents.md); the CLI's words for the same lines are the
// testscripts', unchanged.
func TestResultsNameTools(t *testing.T) {
	blocker := map[string]any{"type": "blocker", "scope": "stripe", "summary": "Sandbox down",
		"details": []map[string]any{{"key": "blocked", "value": "stripe"}, {"key": "reason", "value": "outage"}}}
	withConfig := func(t *testing.T, root, cfg string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type step struct {
		tool string
		args map[string]any
		want []string // in the text or the structured result
	}
	every := []step{ // the read-only tools, after the scenario's steps
		{tool: "memsys_show", args: map[string]any{"id": "evt-19"}},
		{tool: "memsys_log", args: map[string]any{"limit": 3}},
		{tool: "memsys_recall", args: map[string]any{"entities": []string{"stripe"}}},
		{tool: "memsys_graph", args: map[string]any{"format": "md"}},
		{tool: "memsys_graph", args: map[string]any{}},
		{tool: "memsys_context"},
		{tool: "memsys_lint"},
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, root string)
		steps []step
	}{
		{"due, a loop open, derived files stale",
			func(t *testing.T, root string) { withConfig(t, root, `{"archive": {"threshold": 10, "keep": 5}}`) },
			[]step{
				{tool: "memsys_append", args: blocker},
				{tool: "memsys_status", want: []string{
					".memory/graph.md: stale (horizon evt-019, last event evt-020): run memsys_regen\n",
					"open loops: 1: memsys_log with \"open\" lists them, oldest first\n",
					"archive: due (20 events in the log, threshold 10): run memsys_archive (it moves at least 11 events; memsys_archive with \"dry_run\" names them)\n"}},
				{tool: "memsys_log", args: map[string]any{"open": true}, want: []string{"| blocker | Sandbox down"}},
				{tool: "memsys_archive", args: map[string]any{"dry_run": true}, want: []string{"would move 14 events"}},
				{tool: "memsys_lint", args: map[string]any{"fix": true}},
				{tool: "memsys_archive", want: []string{"moved 14 events"}},
				{tool: "memsys_regen", want: []string{`"written":[".memory/graph.md",".memory/context.md"]`}},
				{tool: "memsys_append", args: map[string]any{"type": "fix", "scope": "x", "summary": "y", "regen": true}},
			}},
		{"context.md missing",
			func(t *testing.T, root string) { os.Remove(filepath.Join(root, parse.ContextFile)) },
			[]step{
				{tool: "memsys_status", want: []string{".memory/context.md: missing: run memsys_regen\n"}},
				{tool: "memsys_lint", want: []string{"is missing (full tier): run memsys_regen"}},
			}},
		{"graph.md edited by hand",
			func(t *testing.T, root string) { appendFile(t, root, parse.GraphFile, "\nhand edit\n") },
			[]step{
				{tool: "memsys_status", want: []string{"or another version of memsys): run memsys_regen\n"}},
				{tool: "memsys_lint", want: []string{"differs from what regen writes (edited by hand?): run memsys_regen or memsys_lint with \\\"fix\\\""}},
			}},
		{"files the tier does not use",
			func(t *testing.T, root string) { withConfig(t, root, `{"tier": "mvp"}`) },
			[]step{
				{tool: "memsys_append", args: map[string]any{"type": "fix", "scope": "x", "summary": "y", "regen": true}},
				{tool: "memsys_status", want: []string{"the mvp tier does not use it, so memsys_regen does not write it"}},
			}},
		{"archive cannot run",
			func(t *testing.T, root string) {
				withConfig(t, root, `{"archive": {"threshold": 15, "keep": 12}}`)
				appendFile(t, root, "CHANGELOG.md", "\n---\n\n### evt-0x1 | 2026-05-01 12:00 | a | fix\n\n**Scope**: x\n**Summary**: y\n\n**Refs**: none\n**Tags**: none\n")
			},
			[]step{{tool: "memsys_status", want: []string{
				"but archive cannot run: CHANGELOG.md:299:1: event ID \"evt-0x1\" has characters other than digits after evt-: use evt-NNN: fix the log (memsys_lint) before archiving\n",
				// The structured result says the same.
				`"error":"CHANGELOG.md:299:1: event ID \"evt-0x1\" has characters other than digits after evt-: use evt-NNN: fix the log (memsys_lint) before archiving"`}}}},
		{"archive refuses a log out of order",
			func(t *testing.T, root string) {
				withConfig(t, root, `{"archive": {"threshold": 10, "keep": 5}}`)
				swapIDs(t, root, "evt-002", "evt-003")
			},
			[]step{{tool: "memsys_status", want: []string{
				"but archive cannot run: CHANGELOG.md:43: evt-002 comes after evt-003 (line 26), and archive takes the events at the top of the log as the oldest: move evt-002 back to its place in ascending ID order (lint: MS109), then run memsys_archive again\n",
				`"error":"CHANGELOG.md:43: evt-002 comes after evt-003 (line 26), `}}}},
		{"a merge conflict in the log",
			func(t *testing.T, root string) { appendFile(t, root, "CHANGELOG.md", "\n<<<<<<< HEAD\n") },
			// status's merge_conflict, and the conflict's advice marked as
			// the CLI's in status, lint's finding and regen's warning
			// alike (lint and regen said "memsys renumber --onto REV").
			[]step{
				{tool: "memsys_status", want: []string{`"merge_conflict":"CHANGELOG.md:297"`,
					`event log: CHANGELOG.md:297: unresolved merge conflict (git's "<<<<<<<" marker): finish the merge: the CLI command "memsys renumber --onto REV" resolves the log`}},
				{tool: "memsys_lint", want: []string{`finish the merge: the CLI command "memsys renumber --onto REV" resolves the log, or keep one side by hand and delete the markers [MS134]`}},
				{tool: "memsys_regen", want: []string{`finish the merge: the CLI command \"memsys renumber --onto REV\" resolves the log, or keep one side by hand and delete the markers [MS134]`}},
			}},
		{"an append cut short",
			func(t *testing.T, root string) {
				appendFile(t, root, "CHANGELOG.md", "\n---\n\n### evt-020 | 2026-04-08 09:00 | a | fix\n\n**Scope**: co")
			},
			// status's cut_short, in append's words, before an append fails.
			[]step{{tool: "memsys_status", want: []string{`"cut_short":"CHANGELOG.md:299"`,
				"event log: CHANGELOG.md:299: the last event is cut short: the file ends mid-line in it"}}}},
		{"an ID used twice",
			func(t *testing.T, root string) {
				appendFile(t, root, "CHANGELOG.md", "\n---\n\n### evt-019 | 2026-05-01 12:00 | a | fix\n\n**Scope**: x\n**Summary**: y\n\n**Refs**: none\n**Tags**: none\n")
			},
			// memsys_show's text is memsys show's, with its note.
			[]step{{tool: "memsys_show", args: map[string]any{"id": "evt-19"}, want: []string{"(an ID used twice: memsys_lint reports it)\n"}}}},
		{"due, nothing can move",
			func(t *testing.T, root string) { withConfig(t, root, `{"archive": {"threshold": 15, "keep": 12}}`) },
			[]step{
				{tool: "memsys_status", want: []string{`but nothing can move: evt-001 set the current state of active node "protocol"`}},
				{tool: "memsys_archive", args: map[string]any{"dry_run": true}, want: []string{"nothing to archive: "}},
			}},
		{"due, a plan",
			func(t *testing.T, root string) {
				// A new memory of five fixes: nothing pins them, and the
				// log is short enough for status to plan the move.
				for _, f := range []string{"CHANGELOG.md", ".memsys.json", parse.GraphFile, parse.ContextFile} {
					os.Remove(filepath.Join(root, f))
				}
				if _, err := memory.Init(root, parse.Full); err != nil {
					t.Fatal(err)
				}
				for i := range 5 {
					if _, err := memory.Append(root, memory.Draft{Type: "fix", Scope: "x", Summary: "fix " + string(rune('a'+i)), Agent: "a",
						Time: "2026-05-01 12:0" + string(rune('0'+i))}, true, false); err != nil {
						t.Fatal(err)
					}
				}
				withConfig(t, root, `{"archive": {"threshold": 4, "keep": 3}}`)
			},
			[]step{{tool: "memsys_status", want: []string{": run memsys_archive (moves 2 events; evt-003 stays: keeping the last 3 events)\n"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyExample(t)
			tc.setup(t, root)
			cs := connect(t, root)
			steps := tc.steps
			if !strings.HasPrefix(tc.name, "due, a plan") {
				steps = append(slices.Clip(steps), every...)
			}
			for _, s := range steps {
				res := call(t, cs, s.tool, s.args)
				// The JSON as written, its <!-- not escaped, so that the
				// derived files' comments are found in it too.
				var js strings.Builder
				enc := json.NewEncoder(&js)
				enc.SetEscapeHTML(false)
				if err := enc.Encode(res.StructuredContent); err != nil {
					t.Fatal(err)
				}
				got := text(res) + "\n" + js.String()
				if res.IsError {
					t.Errorf("%s %v: %s", s.tool, s.args, text(res))
					continue
				}
				for _, w := range s.want {
					if !strings.Contains(got, w) {
						t.Errorf("%s %v:\n%s\nwant it to contain %q", s.tool, s.args, got, w)
					}
				}
				if testing.Verbose() {
					t.Logf("%s %v:\n%s", s.tool, s.args, got)
				}
				bare := htmlComments.ReplaceAllString(got, "")
				if w := cliWords.FindString(cliOnly.ReplaceAllString(bare, "")); w != "" {
					t.Errorf("%s %v: says %q, the command line's words:\n%s", s.tool, s.args, w, got)
				}
				for _, m := range toolRefs.FindAllStringSubmatch(bare, -1) {
					tool := strings.TrimSuffix(strings.Fields(m[0])[0], ",")
					if !slices.Contains(Tools, tool) {
						t.Errorf("%s: advises %q, which the server does not offer", s.tool, tool)
					} else if m[1] != "" && !hasParam(t, cs, tool, m[1]) {
						t.Errorf("%s: advises %s with %q, which it does not take", s.tool, tool, m[1])
					}
				}
			}
			// What status advises for the open loops is what they are.
			var st memory.StatusReport
			structured(t, call(t, cs, "memsys_status", nil), &st)
			var lg LogOut
			structured(t, call(t, cs, "memsys_log", map[string]any{"open": true}), &lg)
			if st.OpenLoops != lg.Matched {
				t.Errorf("status: %d open loops; memsys_log with \"open\": %d", st.OpenLoops, lg.Matched)
			}
		})
	}
}
