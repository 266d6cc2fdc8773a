package ledger

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// writeMemory writes files into a new temporary memory root.
func writeMemory(t *testing.T, files map[string][]byte) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// importIntoEmpty imports ledger into a new empty memory and returns
// the result and the memory's log.
func importIntoEmpty(t *testing.T, ledger []byte) (*Result, string, error) {
	t.Helper()
	root := writeMemory(t, map[string][]byte{workspace.LogName: []byte("# Changelog\n\n## Event Log\n")})
	r, err := Import(root, "export.jsonl", ledger, "agent", false)
	log, rerr := os.ReadFile(filepath.Join(root, workspace.LogName))
	if rerr != nil {
		t.Fatal(rerr)
	}
	return r, string(log), err
}

// TestExportSkippingCorpus runs export --skip-invalid on every memory
// of exportMemories. Where plain export writes, it writes the same
// bytes and skips nothing; where plain export refuses an event, it
// leaves that event out (the first Skip names it) and writes a ledger
// that imports whole into an empty memory, one event for each event
// of the history it did not leave out; where the memory cannot be
// read, it fails as plain export does.
func TestExportSkippingCorpus(t *testing.T) {
	refusedCount := 0
	for _, m := range exportMemories(t) {
		root := writeMemory(t, m.files)
		var plain, got bytes.Buffer
		err := ExportRoot(root, &plain)
		skips, serr := ExportRootSkipping(root, &got)
		refused := err != nil && (strings.Contains(err.Error(), "memsys import would refuse") || strings.Contains(err.Error(), "which memsys import refuses"))
		switch {
		case err == nil:
			if serr != nil || len(skips) > 0 || !bytes.Equal(got.Bytes(), plain.Bytes()) {
				t.Errorf("%s: export writes, but --skip-invalid gave %v, %v skips and %d bytes of %d", m.name, serr, skips, got.Len(), plain.Len())
			}
		case refused:
			refusedCount++
			if serr != nil || len(skips) == 0 || !strings.HasPrefix(skips[0].Why, "left out: ") {
				t.Errorf("%s: export refused (%v), but --skip-invalid gave %v and %v", m.name, err, serr, skips)
				continue
			}
			if !strings.Contains(err.Error(), " "+skips[0].ID) || !strings.HasPrefix(err.Error(), skips[0].File+":") {
				t.Errorf("%s: export refused %v, but the first skip is %v", m.name, err, skips[0])
			}
			mem, lerr := workspace.Load(root)
			if lerr != nil {
				t.Fatal(lerr)
			}
			events := 0
			for i := range mem.Events {
				if mem.Events[i].InLog {
					events++
				}
			}
			for _, s := range skips {
				if strings.HasPrefix(s.Why, "left out: ") {
					events--
				}
			}
			if events == 0 {
				if got.Len() != 0 {
					t.Errorf("%s: every event left out, yet %d bytes written", m.name, got.Len())
				}
				continue
			}
			r, _, ierr := importIntoEmpty(t, got.Bytes())
			if ierr != nil {
				t.Errorf("%s: export --skip-invalid wrote a ledger import refuses: %v", m.name, ierr)
				continue
			}
			if r.Events != events {
				t.Errorf("%s: %d events imported, want %d (the history's but the %v left out)", m.name, r.Events, events, skips)
			}
		default:
			if serr == nil || serr.Error() != err.Error() || got.Len() != 0 {
				t.Errorf("%s: export failed with %v, --skip-invalid with %v (%d bytes)", m.name, err, serr, got.Len())
			}
		}
	}
	// The corpus must hold refused events, or the test proves nothing.
	if refusedCount < 4 {
		t.Errorf("%d memories with an event export refuses, want at least 4", refusedCount)
	}
}

// TestExportSkippingRefs: an event naming one left out (in its Refs,
// a Supersedes field written inline or as a bullet list, a closes
// detail) is written without that ID, keeping the IDs of events
// written, and the ledger imports into an empty memory without a ref
// to the renumbered event that took the left-out one's number. An ID
// used twice leaves out the second event; a ref to that ID names the
// first, which is written, so it stays.
func TestExportSkippingRefs(t *testing.T) {
	log := "# Changelog\n\n## Event Log\n\n" +
		canonical("evt-001", "commitment", "open A", "- owner: a\n- due: 2026-02-01\n", "none") +
		canonical("evt-002", "deploy", "bad type", "", "none") +
		canonical("evt-003", "commitment", "open B", "- owner: a\n- due: 2026-02-01\n", "none") +
		canonical("evt-003", "test", "same ID", "", "none") +
		canonical("evt-004", "test", "refers", "", "evt-002, evt-001, evt-003") +
		"### evt-005 | 2026-01-02 03:04 | a | decision\n\n**Scope**: s\n**Summary**: corrects inline\n\n**Supersedes**: evt-002\n\n" +
		"### evt-006 | 2026-01-02 03:04 | a | decision\n\n**Scope**: s\n**Summary**: corrects as a list\n\n**Supersedes**:\n- evt-002\n- evt-004\n\n" +
		canonical("evt-007", "milestone", "closes", "- closes: evt-002, evt-001\n- closes: evt-2\n", "none")
	root := writeMemory(t, map[string][]byte{workspace.LogName: []byte(log)})
	if err := ExportRoot(root, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "memsys export --skip-invalid") {
		t.Fatalf("plain export: %v, want a refusal naming --skip-invalid", err)
	}
	var out bytes.Buffer
	skips, err := ExportRootSkipping(root, &out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range skips {
		got = append(got, s.String())
	}
	want := []string{
		`CHANGELOG.md:17: evt-002: left out: memsys import would refuse it: unknown type "deploy": use one of ` + strings.Join(allTypes(), ", "),
		`CHANGELOG.md:37: evt-003: left out: memsys import would refuse it: id "evt-003" appears twice: give every line its own id`,
		`CHANGELOG.md:45: evt-004: written without its reference to evt-002, which is left out`,
		`CHANGELOG.md:53: evt-005: written without its reference to evt-002, which is left out`,
		`CHANGELOG.md:60: evt-006: written without its reference to evt-002, which is left out`,
		`CHANGELOG.md:69: evt-007: written without its references to evt-002 and evt-2, which are left out`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("skips:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantLines := []string{
		`"id":"evt-001"`,
		`"id":"evt-003","ts":"2026-01-02T03:04","type":"commitment"`,
		`"related":["evt-001","evt-003"]`,
		`"id":"evt-005","ts":"2026-01-02T03:04","type":"decision","agent":"a","scope":"s","content":"corrects inline","details":[],"related":[],"tags":[]}`,
		`"fields":[{"key":"Supersedes","value":"evt-004"}]`,
		`"details":[{"key":"closes","value":"evt-001"}],`,
	}
	if len(lines) != len(wantLines) {
		t.Fatalf("%d lines written, want %d:\n%s", len(lines), len(wantLines), out.String())
	}
	for i, w := range wantLines {
		if !strings.Contains(lines[i], w) {
			t.Errorf("line %d: %s\nwant it to hold %s", i+1, lines[i], w)
		}
	}
	r, newLog, err := importIntoEmpty(t, out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != 6 {
		t.Errorf("%d events imported, want 6", r.Events)
	}
	// evt-004 became evt-003 and evt-005 evt-004: no line names the
	// left-out evt-002 by a number another event now has.
	l := parse.Parse(workspace.LogName, []byte(newLog))
	if len(l.Problems) > 0 {
		t.Errorf("imported log has problems: %v", l.Problems)
	}
	for _, e := range l.Events {
		if e.ID == "evt-003" && strings.Join(e.Refs, ",") != "evt-001,evt-002" {
			t.Errorf("imported evt-003 refs %v, want evt-001 and evt-002 (the commitment, renumbered)", e.Refs)
		}
		if e.ID == "evt-005" && strings.Join(e.Supersedes, ",") != "evt-003" {
			t.Errorf("imported evt-005 supersedes %v, want evt-003", e.Supersedes)
		}
	}
}
