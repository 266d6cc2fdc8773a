package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func emptyMemory(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, parse.LogFile), []byte("# Changelog\n\n## Event Log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRoundTripGenerated: export of a generated 2,000-event log, imported
// into an empty memory, exports to the same bytes, and the log is the
// same events as the original (ID, time, agent, type, fields, details,
// refs, tags). The semantic log (commitments, closes, Supersedes) also
// replays to the same graph.md and context.md: a commitment stays a
// commitment, a Supersedes field stays one.
func TestRoundTripGenerated(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  []byte
	}{
		{"plain", loggen.Generate(2000, 7)},
		{"semantic", loggen.GenerateSemantic(2000, 7)},
	} {
		t.Run(tc.name, func(t *testing.T) { testRoundTrip(t, tc.src) })
	}
}

func testRoundTrip(t *testing.T, src []byte) {
	orig := parse.Parse(parse.LogFile, src)
	first, err := Export(orig.Events)
	if err != nil {
		t.Fatal(err)
	}
	dir := emptyMemory(t)
	r, err := Import(dir, "ledger.jsonl", first, "nobody", false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != len(orig.Events) {
		t.Fatalf("imported %d events, want %d", r.Events, len(orig.Events))
	}
	var out bytes.Buffer
	if err := ExportRoot(dir, &out); err != nil {
		t.Fatal(err)
	}
	second := out.Bytes()
	if !bytes.Equal(first, second) {
		a, b := strings.Split(string(first), "\n"), strings.Split(string(second), "\n")
		for i := range min(len(a), len(b)) {
			if a[i] != b[i] {
				t.Fatalf("line %d differs:\n%s\n%s", i+1, a[i], b[i])
			}
		}
		t.Fatalf("exports differ in length: %d and %d lines", len(a), len(b))
	}
	// Importing the same ledger again appends nothing: every line is
	// found as the event it became.
	again, err := Import(dir, "ledger.jsonl", first, "nobody", false)
	if err != nil {
		t.Fatal(err)
	}
	if again.Events != 0 || again.Skipped != len(orig.Events) {
		t.Fatalf("second import: %d events appended, %d skipped; want 0 and %d", again.Events, again.Skipped, len(orig.Events))
	}
	imported, err := os.ReadFile(filepath.Join(dir, parse.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	wantG, wantC := render(orig.Events)
	gotG, gotC := render(parse.Parse(parse.LogFile, imported).Events)
	if !bytes.Equal(gotG, wantG) || !bytes.Equal(gotC, wantC) {
		t.Fatalf("the imported log replays to other derived files:\n%s", diffLines(string(wantC), string(gotC)))
	}
}

// render replays events as regen does and renders both derived files.
func render(events []parse.Event) (graph, context []byte) {
	x := materialize.NewReplayer(materialize.Options{})
	x.Expect(materialize.Supersessions(events))
	for i := range events {
		x.Apply(&events[i])
	}
	return x.Render()
}

// diffLines names the first line where a and b differ.
func diffLines(a, b string) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return fmt.Sprintf("line %d:\n%s\n%s", i+1, x[i], y[i])
		}
	}
	return fmt.Sprintf("%d and %d lines", len(x), len(y))
}

// TestPlanTable: the mapping of seed 000's fields, one row a rule of
// the table in docs/agents.md.
func TestPlanTable(t *testing.T) {
	known := func(n int) (string, string, bool) { return "", "", false }
	for _, tc := range []struct {
		name, line string
		typ, time  string
		details    string // key=value;... in order
		refs       string
	}{
		{"fact becomes modify", `{"id":"E1","ts":"2026-01-28T14:03","type":"fact","content":"x","entity":"client_x"}`,
			"modify", "2026-01-28 14:03", "entity=client_x;ledger_type=fact;ledger_id=E1", ""},
		{"zone and seconds kept", `{"id":"E1","ts":"2026-01-28T14:03:11-05:00","type":"decision","content":"x"}`,
			"decision", "2026-01-28 14:03", "ledger_id=E1;ts=2026-01-28T14:03:11-05:00", ""},
		{"date only", `{"id":"E1","ts":"2026-01-28","type":"preference","content":"x"}`,
			"decision", "2026-01-28 00:00", "ledger_type=preference;ledger_id=E1;ts=2026-01-28", ""},
		{"open commitment is a commitment", `{"id":"E1","ts":"2026-01-28T10:00","type":"commitment","content":"x","entity":"client_x","status":"open"}`,
			"commitment", "2026-01-28 10:00", "entity=client_x;ledger_id=E1;status=open", ""},
		{"closed commitment is a milestone", `{"id":"E1","ts":"2026-01-28T10:00","type":"commitment","content":"x","status":" Closed "}`,
			"milestone", "2026-01-28 10:00", "ledger_type=commitment;ledger_id=E1;status=Closed", ""},
		{"commitment without status", `{"id":"E1","ts":"2026-01-28T10:00","type":"commitment","content":"x"}`,
			"commitment", "2026-01-28 10:00", "ledger_id=E1", ""},
		{"other fields in order", `{"id":"evt-001","ts":"2026-01-28T10:00","type":"fix","content":"x","priority":"P1","confidence":0.9,"flags":["a"]}`,
			"fix", "2026-01-28 10:00", "priority=P1;confidence=0.9;flags=[\"a\"]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := Plan("l.jsonl", []byte(tc.line), "evt-001", known, nil, "agent")
			if err != nil {
				t.Fatal(err)
			}
			d := ls[0].Draft
			var ds []string
			for _, x := range d.Details {
				ds = append(ds, x.Key+"="+x.Value)
			}
			if d.Type != tc.typ || d.Time != tc.time || strings.Join(ds, ";") != tc.details || strings.Join(d.Refs, ",") != tc.refs {
				t.Errorf("got type %q time %q details %q refs %v", d.Type, d.Time, strings.Join(ds, ";"), d.Refs)
			}
		})
	}
}

// TestPlanBOM: a ledger saved with a UTF-8 byte order mark (as Windows
// editors save it) reads like one without, as the log does.
func TestPlanBOM(t *testing.T) {
	line := `{"id":"E1","ts":"2026-01-28T14:03","type":"decision","content":"x"}` + "\n"
	known := func(int) (string, string, bool) { return "", "", false }
	want, err := Plan("l.jsonl", []byte(line), "evt-001", known, nil, "agent")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Plan("l.jsonl", []byte("\xef\xbb\xbf"+line), "evt-001", known, nil, "agent")
	if err != nil {
		t.Fatalf("with a BOM: %v", err)
	}
	if len(got) != 1 || !bytes.Equal(got[0].Text, want[0].Text) {
		t.Fatalf("with a BOM: planned %d events, want the same event as without", len(got))
	}
}

// FuzzPlan: any ledger plans without panicking, and every event it
// plans renders to text that reads back as the same event.
func FuzzPlan(f *testing.F) {
	f.Add([]byte(`{"id":"a","ts":"2026-01-28T14:03","type":"fact","content":"x","related":[]}`))
	f.Add([]byte(`{"id":"a","ts":"2026-01-28T14:03:11-05:00","type":"commitment","content":"x","status":"closed","tags":["t"]}` + "\n" +
		`{"id":"b","ts":"2026-01-29","type":"decision","content":"y","supersedes":"a","related":["a"],"details":[{"key":"k","value":"v","children":[{"key":"c","value":"d"}]}]}`))
	f.Add([]byte("not json\n"))
	f.Add([]byte(`{"id":"a","ts":"2026-01-28T14:03","type":"fact","content":"x","fields":[{"key":"Status","value":"ok"}]}`))
	if src, err := Export(parse.Parse(parse.LogFile, loggen.Generate(20, 3)).Events); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		ls, err := Plan("l.jsonl", src, "evt-001", func(int) (string, string, bool) { return "", "", false }, nil, "agent")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "l.jsonl:") {
				t.Fatalf("error without file and line: %v", err)
			}
			return
		}
		for _, l := range ls {
			if err := memory.CheckRoundTrip(l.NewID, l.Draft, memory.Render(l.NewID, l.Draft, "\n")); err != nil {
				t.Fatalf("line %d: %v", l.Line, err)
			}
		}
	})
}

// TestImportReaderLimit: a ledger on standard input over the size limit
// of a ledger file is refused, naming stdin, and nothing is written.
func TestImportReaderLimit(t *testing.T) {
	old := maxInput
	maxInput = 2 << 20
	t.Cleanup(func() { maxInput = old })
	dir := emptyMemory(t)
	line := `{"id":"a","ts":"2026-01-28T14:03","type":"fact","content":"x"}` + "\n"
	big := strings.Repeat(line, int(maxInput)/len(line)+1)
	_, err := ImportReader(dir, StdinName, strings.NewReader(big), "agent", false)
	if err == nil || err.Error() != "stdin: over the 2 MiB limit: split it" {
		t.Fatalf("err = %v, want the limit named with stdin", err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, parse.LogFile))
	if string(got) != "# Changelog\n\n## Event Log\n" {
		t.Fatalf("the log changed:\n%s", got)
	}
}

// TestReimportShifted: an export imported into a memory that already
// has events gets new IDs (and ledger_id details); importing it again
// finds every line by its ledger_id and appends nothing, and a ledger
// that grew by one line appends that line alone.
func TestReimportShifted(t *testing.T) {
	orig := parse.Parse(parse.LogFile, loggen.Generate(300, 3))
	ledger, err := Export(orig.Events)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	own := "# Changelog\n\n## Event Log\n\n### evt-001 | 2020-01-01 10:00 | a | create\n\n**Scope**: x\n**Summary**: not from the ledger\n\n**Details**:\n- entity: x\n\n**Refs**: none\n**Tags**: none\n"
	if err := os.WriteFile(filepath.Join(dir, parse.LogFile), []byte(own), 0o644); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(bytes.TrimSuffix(ledger, []byte("\n")), []byte("\n"))
	head := bytes.Join(lines[:len(lines)-1], nil)
	r, err := Import(dir, "ledger.jsonl", head, "nobody", false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != len(lines)-1 || r.Skipped != 0 || r.First != "evt-002" {
		t.Fatalf("first import: %+v", *r)
	}
	r, err = Import(dir, "ledger.jsonl", ledger, "nobody", false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != 1 || r.Skipped != len(lines)-1 {
		t.Fatalf("grown ledger: %d appended, %d skipped; want 1 and %d", r.Events, r.Skipped, len(lines)-1)
	}
	r, err = Import(dir, "ledger.jsonl", ledger, "nobody", false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Events != 0 || r.Skipped != len(lines) {
		t.Fatalf("third import: %d appended, %d skipped; want 0 and %d", r.Events, r.Skipped, len(lines))
	}
}

// TestExportRefusesControl: export refuses an event of the log or the
// archive that holds a control character import would refuse, naming
// its file and line, and writes nothing; one outside the Event Log
// section (not exported) stops nothing.
func TestExportRefusesControl(t *testing.T) {
	ev := func(n int, summary string) string {
		return "### evt-00" + string(rune('0'+n)) + " | 2026-03-01 10:00 | ada | test\n\n**Scope**: s\n**Summary**: " + summary + "\n\n**Details**:\n- target: s\n- result: pass\n"
	}
	for _, c := range []struct {
		name, archive, log, want string
	}{
		{"log", "", "# Changelog\n\n## Event Log\n\n" + ev(1, "ok") + "\n" + ev(2, "bad\x07bell"),
			"CHANGELOG.md:17: evt-002 holds the control character U+0007, which memsys import refuses: delete it from the log (lint: MS136), then export again, or leave out what import refuses with memsys export --skip-invalid"},
		{"archive", "# Changelog Archive\n\n" + ev(1, "nul\x00"), "# Changelog\n\n## Event Log\n\n" + ev(2, "ok"),
			"changelog-archive.md:6: evt-001 holds the control character U+0000, which memsys import refuses: delete it from the log (lint: MS121), then export again, or leave out what import refuses with memsys export --skip-invalid"},
		{"outside the log", "", "# Changelog\n\nrelease \x1b notes\n\n## Event Log\n\n" + ev(1, "ok"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, parse.LogFile), []byte(c.log), 0o644); err != nil {
				t.Fatal(err)
			}
			if c.archive != "" {
				if err := os.WriteFile(filepath.Join(dir, parse.ArchiveFile), []byte(c.archive), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var out bytes.Buffer
			err := ExportRoot(dir, &out)
			if c.want == "" {
				if err != nil || out.Len() == 0 {
					t.Fatalf("export: %v, %d bytes", err, out.Len())
				}
				return
			}
			if err == nil || err.Error() != c.want || out.Len() != 0 {
				t.Errorf("export: %v (%d bytes written), want %q", err, out.Len(), c.want)
			}
		})
	}
}

// TestPlanRenamesShortIDs: a memory's IDs match by number ("evt-1" is
// evt-001), so a ref, a Supersedes field or a closes detail written
// short names the earlier line as the long form does, and import gives
// it that line's new ID, not the memory's own event of the old number.
func TestPlanRenamesShortIDs(t *testing.T) {
	ledger := `{"id":"evt-001","ts":"2026-03-01T09:00","type":"commitment","scope":"api","content":"Bob will write docs","details":[{"key":"owner","value":"bob"}],"related":[],"tags":[]}
{"id":"evt-002","ts":"2026-03-02T09:00","type":"milestone","scope":"api","content":"Docs out","details":[{"key":"name","value":"docs"},{"key":"closes","value":"evt-1"}],"related":["evt-1"],"tags":[]}
{"id":"evt-003","ts":"2026-03-03T09:00","type":"modify","scope":"api","content":"Not yet","details":[{"key":"entity","value":"api"},{"key":"closes","value":"evt-001"}],"related":[],"tags":[],"fields":[{"key":"Supersedes","value":"evt-2"}]}
`
	// The memory holds evt-001 and evt-002 already; evt-001 is a
	// blocker, which a closes left unrenamed would close.
	known := func(n int) (string, string, bool) {
		switch n {
		case 1:
			return "evt-001", "blocker", true
		case 2:
			return "evt-002", "create", true
		}
		return "", "", false
	}
	ls, err := Plan("l.jsonl", []byte(ledger), "evt-003", known, nil, "agent")
	if err != nil {
		t.Fatal(err)
	}
	closes := func(d memory.Draft) string {
		for _, x := range d.Details {
			if x.Key == "closes" {
				return x.Value
			}
		}
		return ""
	}
	if got := strings.Join(ls[1].Draft.Refs, ","); got != "evt-003" {
		t.Errorf("line 2 refs %q, want evt-003", got)
	}
	if got := closes(ls[1].Draft); got != "evt-003" {
		t.Errorf("line 2 closes %q, want evt-003", got)
	}
	if got := closes(ls[2].Draft); got != "evt-003" {
		t.Errorf("line 3 closes %q, want evt-003", got)
	}
	if got := strings.Join(ls[2].Draft.Supersedes, ","); got != "evt-004" {
		t.Errorf("line 3 supersedes %q, want evt-004", got)
	}
}

// TestExportSupersedesList: a Supersedes field written as a bullet
// list (read like Refs) exports its targets, as the one-line form
// does, so the import of the line still supersedes them; it exported
// an empty value, and the imported memory showed the corrected event.
func TestExportSupersedesList(t *testing.T) {
	ev := func(n int, extra string) string {
		return fmt.Sprintf("\n### evt-%03d | 2026-03-0%d 09:00 | ada | modify\n\n**Scope**: api\n**Summary**: Change %d\n\n**Details**:\n- entity: api\n- changes: c%d\n\n**Refs**: none\n**Tags**: none\n%s", n, n, n, n, extra)
	}
	src := []byte("# Changelog\n\n## Event Log\n" + ev(1, "") + ev(2, "") + ev(3, "**Supersedes**:\n- evt-001\n- evt-2\n"))
	orig := parse.Parse(parse.LogFile, src)
	if got := strings.Join(orig.Events[2].Supersedes, ","); got != "evt-001,evt-2" {
		t.Fatalf("the log reads Supersedes %q", got)
	}
	out, err := Export(orig.Events)
	if err != nil {
		t.Fatal(err)
	}
	want := `"fields":[{"key":"Supersedes","value":"evt-001, evt-2"}]`
	if !strings.Contains(string(out), want) {
		t.Fatalf("export lacks %s:\n%s", want, out)
	}
	rec := ToRecord(&orig.Events[2])
	if len(rec.Fields) != 1 || rec.Fields[0].Value != "evt-001, evt-2" {
		t.Fatalf("ToRecord's fields %+v, want the targets as export writes them", rec.Fields)
	}
	dir := emptyMemory(t)
	if _, err := Import(dir, "ledger.jsonl", out, "nobody", false); err != nil {
		t.Fatal(err)
	}
	imported, err := os.ReadFile(filepath.Join(dir, parse.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(parse.Parse(parse.LogFile, imported).Events[2].Supersedes, ","); got != "evt-001,evt-002" {
		t.Fatalf("the imported event supersedes %q, want evt-001,evt-002", got)
	}
}

// TestImportSeedCommitmentLoops: seed 000's commitments are its Open
// Loops ("status": "open"; "When fulfilled, append a closing event
// with "status": "closed""), so an open one imports as a commitment
// that memsys loops lists, and the closing line, a milestone, closes
// the commitments its "related" or "supersedes" name and opens none.
// A commitment no closing line names stays open. They imported as a
// create of the entity's node (no loop at all) and a modify that
// marked the entity (the client) completed.
func TestImportSeedCommitmentLoops(t *testing.T) {
	ledger := `{"ts":"2026-01-28T14:03:11-05:00","id":"EVT-1","type":"commitment","priority":"P0","content":"Follow up Client X by Feb 1","entity":"client_x","status":"open"}
{"ts":"2026-01-28T15:00","id":"EVT-2","type":"commitment","content":"Send Client Y the quote","entity":"client_y","status":"open"}
{"ts":"2026-01-29T09:00","id":"EVT-3","type":"commitment","content":"Send Client Z the invoice","entity":"client_z","status":"open"}
{"ts":"2026-01-31T10:00","id":"EVT-4","type":"commitment","content":"Followed up Client X","entity":"client_x","status":"closed","related":["EVT-1"]}
{"ts":"2026-02-01T10:00","id":"EVT-5","type":"commitment","content":"Invoice sent","entity":"client_z","status":"closed","supersedes":"EVT-3"}
`
	none := func(int) (string, string, bool) { return "", "", false }
	ls, err := Plan("ledger.jsonl", []byte(ledger), "evt-001", none, nil, "agent")
	if err != nil {
		t.Fatal(err)
	}
	var src bytes.Buffer
	src.WriteString("# Changelog\n\n## Event Log\n\n")
	for _, l := range ls {
		src.Write(l.Text)
		src.WriteString("\n")
	}
	log := parse.Parse(parse.LogFile, src.Bytes())
	if len(log.Problems) > 0 {
		t.Fatalf("imported log: %v", log.Problems)
	}
	x := materialize.NewReplayer(materialize.Options{})
	x.Expect(materialize.Supersessions(log.Events))
	for i := range log.Events {
		x.Apply(&log.Events[i])
	}
	g := x.Graph()
	var open []string
	for _, l := range g.OpenLoops() {
		open = append(open, l.ID+" "+l.Type+" "+l.Summary)
	}
	if got, want := strings.Join(open, "\n"), "evt-002 commitment Send Client Y the quote"; got != want {
		t.Errorf("open loops:\n%s\nwant:\n%s", got, want)
	}
	// The clients are entities the commitments are about, not tasks
	// the closing lines complete.
	for _, n := range g.Nodes {
		if strings.HasPrefix(n.Name, "client_") && n.Status == "completed" {
			t.Errorf("node %s is %s: a closing line marked the entity", n.Name, n.Status)
		}
	}
}
