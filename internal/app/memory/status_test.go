package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// TestStatusTextFronts: each advice line of status's text, as memsys
// status prints it (the CLI lines are the text it has always printed;
// the testscripts pin most of them) and as memsys_status words it, from
// the same report. Only the advice differs.
func TestStatusTextFronts(t *testing.T) {
	stale := DerivedStatus{File: ".memory/graph.md", Expected: true, State: "stale", Horizon: "evt-001"}
	planErr := front.Errorf("CHANGELOG.md:9:1: bad ID: fix the log (%s) before archiving", front.Lint.Word())
	for _, tc := range []struct {
		name     string
		r        StatusReport
		cli, mcp string
	}{
		{"stale", StatusReport{Graph: stale},
			".memory/graph.md: stale (horizon evt-001, last event evt-002): run memsys regen\n",
			".memory/graph.md: stale (horizon evt-001, last event evt-002): run memsys_regen\n"},
		{"differs", StatusReport{Graph: DerivedStatus{File: ".memory/graph.md", Expected: true, State: "stale", Horizon: "evt-002", Differs: true}},
			"or another version of memsys): run memsys regen\n",
			"or another version of memsys): run memsys_regen\n"},
		{"missing", StatusReport{Context: DerivedStatus{File: ".memory/context.md", Expected: true, State: "missing"}},
			".memory/context.md: missing: run memsys regen\n",
			".memory/context.md: missing: run memsys_regen\n"},
		{"not in the tier", StatusReport{Tier: "mvp", Graph: DerivedStatus{File: ".memory/graph.md", State: "stale", Horizon: "evt-001"}},
			"last event evt-002): the mvp tier does not use it, so memsys regen does not write it: delete it, or declare a tier that has it\n",
			"last event evt-002): the mvp tier does not use it, so memsys_regen does not write it: delete it, or declare a tier that has it\n"},
		{"unread headings", StatusReport{Unread: 60, FirstUnread: "CHANGELOG.md:10"},
			"unread headings: 60 (the first at CHANGELOG.md:10): memsys lint says why\n",
			"unread headings: 60 (the first at CHANGELOG.md:10): memsys_lint says why\n"},
		{"open loops", StatusReport{OpenLoops: 3},
			"open loops: 3: memsys loops lists them, oldest first\n",
			"open loops: 3: memsys_log with \"open\" lists them, oldest first\n"},
		{"due, unplanned", StatusReport{ArchiveDue: true, ArchiveThreshold: 1, Log: FileCount{Events: 2}},
			"archive: due (2 events in the log, threshold 1): run memsys archive\n",
			"archive: due (2 events in the log, threshold 1): run memsys_archive\n"},
		{"due, at least", StatusReport{ArchiveDue: true, ArchiveThreshold: 1, Log: FileCount{Events: 60}, ArchivePlan: &ArchivePreview{Moves: 21, AtLeast: true}},
			": run memsys archive (it moves at least 21 events; archive --dry-run names them)\n",
			": run memsys_archive (it moves at least 21 events; memsys_archive with \"dry_run\" names them)\n"},
		{"due, planned", StatusReport{ArchiveDue: true, ArchiveThreshold: 1, Log: FileCount{Events: 5}, ArchivePlan: &ArchivePreview{Moves: 2, Boundary: "evt-003", Reason: "keeping the last 3 events"}},
			": run memsys archive (moves 2 events; evt-003 stays: keeping the last 3 events)\n",
			": run memsys_archive (moves 2 events; evt-003 stays: keeping the last 3 events)\n"},
		{"due, cannot run", StatusReport{ArchiveDue: true, ArchiveThreshold: 1, Log: FileCount{Events: 5}, ArchivePlan: &ArchivePreview{Error: planErr.Error(), err: planErr}},
			", but archive cannot run: CHANGELOG.md:9:1: bad ID: fix the log (memsys lint) before archiving\n",
			", but archive cannot run: CHANGELOG.md:9:1: bad ID: fix the log (memsys_lint) before archiving\n"},
	} {
		tc.r.LastEvent = &EventLine{ID: "evt-002"}
		if tc.r.Graph.File == "" {
			tc.r.Graph = DerivedStatus{File: ".memory/graph.md", Expected: true, State: "fresh", Horizon: "evt-002"}
		}
		if tc.r.Context.File == "" {
			tc.r.Context = DerivedStatus{File: ".memory/context.md", Expected: true, State: "fresh", Horizon: "evt-002"}
		}
		var cli, mcp strings.Builder
		tc.r.WriteText(&cli, front.CLI)
		tc.r.WriteText(&mcp, front.MCP)
		if !strings.Contains(cli.String(), tc.cli) {
			t.Errorf("%s: CLI:\n%s\nwant it to contain %q", tc.name, cli.String(), tc.cli)
		}
		if !strings.Contains(mcp.String(), tc.mcp) {
			t.Errorf("%s: MCP:\n%s\nwant it to contain %q", tc.name, mcp.String(), tc.mcp)
		}
		// Every other line is the same.
		if a, b := strings.Replace(cli.String(), tc.cli, "", 1), strings.Replace(mcp.String(), tc.mcp, "", 1); a != b {
			t.Errorf("%s: the fronts differ outside the advice:\n%s\n%s", tc.name, a, b)
		}
	}
}

// TestStatusForWordsPlanError: the structured result of memsys_status
// (For(MCP)) carries the plan's error in the agent's words, the JSON of
// memsys status --format json the CLI's, and For leaves the report
// itself as it was.
func TestStatusForWordsPlanError(t *testing.T) {
	err := front.Errorf("fix the log (%s) before archiving: %w", front.Lint.Word(), errors.New("x"))
	r := &StatusReport{ArchivePlan: &ArchivePreview{Error: err.Error(), err: err}}
	if got := r.For(front.MCP).ArchivePlan.Error; got != "fix the log (memsys_lint) before archiving: x" {
		t.Errorf("For(MCP): %q", got)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"error":"fix the log (memsys lint) before archiving: x"`) {
		t.Errorf("JSON: %s", b)
	}
	if r.For(front.CLI).ArchivePlan.Error != r.ArchivePlan.Error || r.ArchivePlan.Error != err.Error() {
		t.Errorf("For changed the report: %q", r.ArchivePlan.Error)
	}
	if plain := (&StatusReport{}); plain.For(front.MCP) != plain {
		t.Error("For of a report with nothing to word is not the report")
	}
}

// TestStatusUnreadHeadings: a log whose event headings the parser
// cannot read ("### evt-001: Title") is no empty, healthy memory:
// status counts them (in the log and the archive), names the first and
// fails, whether it parsed the headings itself or resumed from the
// history cache's checkpoint; a readable log counts none.
func TestStatusUnreadHeadings(t *testing.T) {
	var log strings.Builder
	log.WriteString("# Changelog\n\n## Event Log\n\n### evt-003 | 2025-01-04 10:00 | ada | test\n\n**Scope**: api\n**Summary**: Readable\n")
	for i := 4; i <= 8; i++ {
		fmt.Fprintf(&log, "\n### evt-%03d: Title %d\n\n**Date**: 2025-01-05\n", i, i)
	}
	// A readable last event: the cache keeps no checkpoint before a
	// problem after the last event (resumableProblems).
	log.WriteString("\n### evt-009 | 2025-01-06 10:00 | ada | test\n\n**Scope**: api\n**Summary**: Readable\n")
	archive := "# Changelog Archive\n\n## Event Log\n\n### evt-001: Old\n\n### evt-002 | 2025-01-02 10:00 | ada | test\n\n**Scope**: api\n**Summary**: Old\n"
	root := newCachedRoot(t, map[string][]byte{"CHANGELOG.md": []byte(log.String()), "changelog-archive.md": []byte(archive)})
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Regenerate(root, RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	hits := statusHits
	for _, cached := range []bool{false, true} {
		func() {
			defer useCache(cached)()
			r, err := Status(root)
			if err != nil {
				t.Fatal(err)
			}
			if r.Unread != 6 || r.FirstUnread != "changelog-archive.md:5" || r.Log.Events != 2 || r.Stale || !r.Fails() {
				t.Errorf("cached %v: %d unread (first %q), %d events, stale %v, fails %v; want 6 unread from changelog-archive.md:5, 2 events, fresh, failing",
					cached, r.Unread, r.FirstUnread, r.Log.Events, r.Stale, r.Fails())
			}
		}()
	}
	if statusHits == hits {
		t.Error("no status went through the cache")
	}
	if err := os.WriteFile(filepath.Join(root, "CHANGELOG.md"), []byte("# Changelog\n\n## Event Log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "changelog-archive.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := Regenerate(root, RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	r, err := Status(root)
	if err != nil {
		t.Fatal(err)
	}
	if r.Unread != 0 || r.FirstUnread != "" || r.Fails() {
		t.Errorf("a readable log: %d unread (%q), fails %v", r.Unread, r.FirstUnread, r.Fails())
	}
}

// TestStatusLastEventClipped: status quotes a long last summary as
// messages quote input (words.Clip) in the report itself, so its text
// on both fronts and its JSON (memsys status --format json, and
// memsys_status's structured result) stay short with a 1 MB summary,
// on a second read too (which may come from the history cache).
func TestStatusLastEventClipped(t *testing.T) {
	long := strings.Repeat("é", 1<<19-64) // 1 MB, under the line limit
	root := t.TempDir()
	write(t, root, "CHANGELOG.md", "# Changelog\n\n## Event Log\n\n### evt-001 | 2026-03-01 09:00 | alice | decision\n\n**Scope**: auth\n**Summary**: Start\n\n"+
		"### evt-002 | 2026-03-02 09:00 | bob | fix\n\n**Scope**: auth\n**Summary**: "+long+"\n")
	want := "last event: evt-002 | 2026-03-02 09:00 | bob | fix | " + words.Clip(long) + "\n"
	for run := range 2 {
		r, err := Status(root)
		if err != nil {
			t.Fatal(err)
		}
		if r.LastEvent == nil || r.LastEvent.Summary != words.Clip(long) {
			t.Fatalf("run %d: the report's last event is not clipped", run)
		}
		for _, f := range []front.Front{front.CLI, front.MCP} {
			var b strings.Builder
			r.WriteText(&b, f)
			if !strings.Contains(b.String(), want) || b.Len() > 4096 {
				t.Errorf("run %d, front %v: %d bytes, want the line %q", run, f, b.Len(), want)
			}
		}
		if j, err := json.Marshal(r.For(front.MCP)); err != nil || len(j) > 4096 {
			t.Errorf("run %d: JSON of %d bytes (%v)", run, len(j), err)
		}
	}
}
