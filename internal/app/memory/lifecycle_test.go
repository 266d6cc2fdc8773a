package memory

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

const head = "# Changelog\n\n## Event Log\n\n"

func event(n int, typ string) string {
	return fmt.Sprintf("### evt-%03d | 2026-01-%02d 10:%02d | alice | %s\n\n**Scope**: core\n**Summary**: event %d\n\n**Details**:\n- entity: comp%d\n\n**Refs**: none\n**Tags**: t\n", n, 1+n/60, n%60, typ, n, n)
}

func genLog(n int, sep string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(sep)
		}
		b.WriteString(event(i, "create"))
	}
	return []byte(b.String())
}

func TestAddDetailFlag(t *testing.T) {
	var ds []DraftDetail
	var err error
	for _, a := range []string{"changes=parser", "changes.files=parse.go", "changes.files.why=speed", "rationale= simpler "} {
		if ds, err = AddDetailFlag(ds, a); err != nil {
			t.Fatal(err)
		}
	}
	d := Draft{Type: "modify", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: ds}
	got := string(Render("evt-001", d, "\n"))
	want := "- changes: parser\n  - files: parse.go\n    - why: speed\n- rationale: simpler\n"
	if !strings.Contains(got, want) {
		t.Errorf("rendered:\n%s\nwant details:\n%s", got, want)
	}
	if err := CheckRoundTrip("evt-001", d, []byte(got)); err != nil {
		t.Errorf("round trip: %v", err)
	}
	for arg, msg := range map[string]string{
		"novalue":     `--detail "novalue" has no "=": write it as key=value, e.g. --detail 'rationale=simpler'`,
		"x.y=1":       `--detail "x.y=1" nests under "x", which no earlier --detail defines: add --detail 'x=...' before it`,
		"=v":          `--detail "=v": empty key: write key=value`,
		"a:b=c":       `--detail "a:b=c": key "a:b" has ':': keys are letters, digits, spaces, '_' and '-'`,
		"changes..=c": `--detail "changes..=c": empty key: write key=value`,
	} {
		if _, err := AddDetailFlag(ds, arg); err == nil || err.Error() != msg {
			t.Errorf("AddDetailFlag(%q) = %v, want %s", arg, err, msg)
		}
	}
}

func TestNormalize(t *testing.T) {
	l := parse.Parse("CHANGELOG.md", []byte(head+event(1, "create")+"\n"+event(2, "handoff")+"\n"+event(3, "Blocker")))
	known := KnownIn(l)
	ok := Draft{Type: "Fix", Scope: "core", Summary: "s", Agent: "a", Time: "2026-02-01 09:05", Refs: []string{"evt-1, evt-003"}, Tags: []string{"a", " b ", "none"}}
	if err := Normalize(&ok, known); err != nil {
		t.Fatal(err)
	}
	// One tag is one entry: the flag form is split before Normalize
	// (SplitList); a comma inside one tag cannot round-trip.
	comma := Draft{Type: "fix", Scope: "core", Summary: "s", Agent: "a", Time: "2026-02-01 09:05", Tags: []string{"a,b"}}
	if err := Normalize(&comma, known); err == nil || !strings.Contains(err.Error(), `tag "a,b" contains a comma`) {
		t.Errorf("Normalize of tag \"a,b\": %v", err)
	}
	if ok.Type != "fix" || strings.Join(ok.Refs, " ") != "evt-001 evt-003" || strings.Join(ok.Tags, " ") != "a b" {
		t.Errorf("normalised to %+v", ok)
	}
	sup := Draft{Type: "decision", Scope: "core", Summary: "s", Agent: "a", Time: "2026-02-01 09:05", Supersedes: []string{"evt-2,evt-1", "evt-002"},
		Details: []DraftDetail{{Key: "priority", Value: "p0"}, {Key: "closes", Value: "evt-3"}}}
	if err := Normalize(&sup, known); err != nil {
		t.Fatal(err)
	}
	if strings.Join(sup.Supersedes, " ") != "evt-002 evt-001" {
		t.Errorf("supersedes normalised to %q", sup.Supersedes)
	}
	text := Render("evt-004", sup, "\n")
	if err := CheckRoundTrip("evt-004", sup, text); err != nil || !strings.HasSuffix(string(text), "**Tags**: none\n**Supersedes**: evt-002, evt-001\n") {
		t.Errorf("round trip: %v\n%s", err, text)
	}
	for _, c := range []struct {
		d    Draft
		want string
	}{
		{Draft{Type: "launch", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00"}, `unknown event type "launch": use one of decision, create, modify, delete, test, fix, dependency, blocker, milestone, escalation, handoff, archive, commitment`},
		{Draft{Type: "fix", Summary: "x", Agent: "a", Time: "2026-01-01 10:00"}, "missing scope: pass --scope with the area the event affects"},
		{Draft{Type: "fix", Scope: "s", Agent: "a", Time: "2026-01-01 10:00"}, "missing summary: pass --summary with a one-line description"},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a|b", Time: "2026-01-01 10:00"}, `agent "a|b" contains '|' or a line break: use a plain name`},
		{Draft{Type: "fix", Scope: "s", Summary: "x\ny", Agent: "a", Time: "2026-01-01 10:00"}, `summary "x\ny" spans several lines: keep it on one line and put the rest in --detail`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-02-30 10:00"}, `--time "2026-02-30 10:00" is not "YYYY-MM-DD HH:MM": give a valid date and 24-hour time`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01"}, `--time "2026-01-01" has no time of day: write "YYYY-MM-DD HH:MM"`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Refs: []string{"evt-009"}}, `ref "evt-009" names no event in the log or the archive: refer to an existing event`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Refs: []string{"#4"}}, `ref "#4" is not an event ID: write evt-NNN`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Supersedes: []string{"evt-009"}}, `supersedes "evt-009" names no event in the log or the archive: name the earlier event this one corrects`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Supersedes: []string{"the last one"}}, `supersedes "the last one" is not an event ID: write evt-NNN`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "priority", Value: "urgent"}}}, `priority "urgent" is not P0, P1, P2 or P3: write one of them (P1 is the default)`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "closes", Value: "evt-003, evt-004"}}}, `closes "evt-004" names no event in the log or the archive: a loop is closed after it is opened, so name an earlier event`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "closes", Value: "evt-3; evt-002"}}}, `closes "evt-002" names a handoff, which opens no loop: close a blocker, escalation or commitment, or list evt-002 in refs instead`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "closes", Value: "evt-1"}}}, `closes "evt-1" names a create, which opens no loop: close a blocker, escalation or commitment, or list evt-1 in refs instead`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "Closes", Value: "soon"}}}, `closes "soon" is not an event ID: write evt-NNN`},
		{Draft{Type: "fix", Scope: "s", Summary: "x\x1b[2J", Agent: "a", Time: "2026-01-01 10:00"}, `summary "x\x1b[2J" contains the control character U+001B: remove it`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a\x7f", Time: "2026-01-01 10:00"}, `agent "a\x7f" contains the control character U+007F: remove it`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Tags: []string{"t\x00"}}, `tag "t\x00" contains the control character U+0000: remove it`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "k\x07", Value: "v"}}}, `detail key "k\a" contains the control character U+0007: remove it`},
		{Draft{Type: "fix", Scope: "s", Summary: "caf\xe9", Agent: "a", Time: "2026-01-01 10:00"}, `summary "caf\xe9" is not valid UTF-8: pass UTF-8 text (convert it from its encoding, e.g. Latin-1)`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "\xff", Time: "2026-01-01 10:00"}, `agent "\xff" is not valid UTF-8: pass UTF-8 text (convert it from its encoding, e.g. Latin-1)`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Tags: []string{"t\xff"}}, `tag "t\xff" is not valid UTF-8: pass UTF-8 text (convert it from its encoding, e.g. Latin-1)`},
		{Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00", Details: []DraftDetail{{Key: "a", Value: "b", Children: []DraftDetail{{Key: "c", Value: "\xfe"}}}}}, `detail "c" value "\xfe" is not valid UTF-8: pass UTF-8 text (convert it from its encoding, e.g. Latin-1)`},
	} {
		if err := Normalize(&c.d, known); err == nil || err.Error() != c.want {
			t.Errorf("Normalize(%+v) = %v\nwant %s", c.d, err, c.want)
		}
	}
}

func TestRoundTripCatchesMarkdown(t *testing.T) {
	d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-01-01 10:00",
		Details: []DraftDetail{{Value: "a: b"}}}
	if err := CheckRoundTrip("evt-001", d, Render("evt-001", d, "\n")); err == nil {
		t.Error("a value the parser reads differently passed the round trip")
	}
}

func TestNextID(t *testing.T) {
	one := func(id string) *parse.Log {
		return parse.Parse("CHANGELOG.md", []byte(head+"### "+id+" | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: x\n"))
	}
	l := parse.Parse("c", genLog(3, "\n"))
	for _, c := range []struct {
		name    string
		logs    []*parse.Log
		want    string
		wantErr string
	}{
		{"next", []*parse.Log{l, nil}, "evt-004", ""},
		{"widest", []*parse.Log{l, one("evt-0009")}, "evt-0010", ""},
		{"empty", []*parse.Log{parse.Parse("c", []byte(head))}, "evt-001", ""},
		{"last number", []*parse.Log{one("evt-999999998")}, "evt-999999999", ""},
		{"no number left", []*parse.Log{l, one("evt-999999999")}, "",
			"CHANGELOG.md:" + strconv.Itoa(strings.Count(head, "\n")+1) + ": evt-999999999 is the largest event ID there can be (9 digits), so no event can follow it: if the number is a typo, correct it before it is committed"},
	} {
		got, err := NextID(c.logs...)
		if gotErr := fmt.Sprint(err); c.wantErr != "" && gotErr != c.wantErr || c.wantErr == "" && err != nil {
			t.Errorf("%s: error %v, want %q", c.name, err, c.wantErr)
		}
		if got != c.want {
			t.Errorf("%s: NextID = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestAppendEvent(t *testing.T) {
	ev := []byte(event(9, "fix"))
	for _, c := range []struct{ name, src, want string }{
		{"empty", head, head + event(9, "fix")},
		{"empty no blank", "## Event Log", "## Event Log\n\n" + event(9, "fix")},
		{"one event defaults to rule", head + event(1, "create"), head + event(1, "create") + "\n---\n\n" + event(9, "fix")},
		{"rules", string(genLog(2, "\n---\n\n")), string(genLog(2, "\n---\n\n")) + "\n---\n\n" + event(9, "fix")},
		{"blank lines", string(genLog(2, "\n")), string(genLog(2, "\n")) + "\n" + event(9, "fix")},
		{"trailing rule", head + event(1, "create") + "\n---\n", head + event(1, "create") + "\n---\n\n" + event(9, "fix")},
		{"no final newline", strings.TrimSuffix(string(genLog(2, "\n")), "\n"), string(genLog(2, "\n")) + "\n" + event(9, "fix")},
	} {
		l := parse.Parse("CHANGELOG.md", []byte(c.src))
		got, err := AppendEvent("CHANGELOG.md", []byte(c.src), l, ev)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s: got\n%q\nwant\n%q", c.name, got, c.want)
		}
		if n := len(parse.Parse("c", got).Events); n != len(l.Events)+1 {
			t.Errorf("%s: %d events after append", c.name, n)
		}
	}
	src := []byte(head + event(1, "create") + "\n## Notes\n\ntext\n")
	_, err := AppendEvent("CHANGELOG.md", src, parse.Parse("CHANGELOG.md", src), ev)
	if want := `CHANGELOG.md:16: section "## Notes" follows the Event Log: move it above "## Event Log" so events can be appended at the end`; err == nil || err.Error() != want {
		t.Errorf("trailing section: %v", err)
	}
	src = []byte("# Changelog\n")
	if _, err := AppendEvent("CHANGELOG.md", src, parse.Parse("CHANGELOG.md", src), ev); err == nil {
		t.Error("no Event Log section: no error")
	}
	crlf := bytes.ReplaceAll(genLog(2, "\n---\n\n"), []byte("\n"), []byte("\r\n"))
	if Newline(crlf) != "\r\n" {
		t.Error("CRLF not detected")
	}
	// Lone-CR line endings: the event is appended with them, after a
	// blank line and a rule, so it stays one event and nothing joins
	// the last CR to an LF (a CRLF break, the rule a setext underline).
	cr := bytes.ReplaceAll(genLog(2, "\n---\n\n"), []byte("\n"), []byte("\r"))
	if Newline(cr) != "\r" {
		t.Errorf("lone CR: Newline %q", Newline(cr))
	}
	evCR := bytes.ReplaceAll(ev, []byte("\n"), []byte("\r"))
	got, err := AppendEvent("CHANGELOG.md", cr, parse.Parse("CHANGELOG.md", cr), evCR)
	if want := string(cr) + "\r---\r\r" + string(evCR); err != nil || string(got) != want {
		t.Errorf("lone CR: got %q, %v\nwant %q", got, err, want)
	}
	if n := len(parse.Parse("c", got).Events); n != 3 {
		t.Errorf("lone CR: %d events after append, want 3", n)
	}
}

func TestArchive(t *testing.T) {
	for _, sep := range []string{"\n---\n\n", "\n"} {
		for _, crlf := range []bool{false, true} {
			src := genLog(60, sep)
			if crlf {
				src = bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
			}
			log := parse.Parse("CHANGELOG.md", src)
			p := PlanArchive(log, map[string]string{"evt-045": "x"}, 20, 50)
			if len(p.Moved) != 40 || p.Boundary.ID != "evt-041" || p.Reason != "keeping the last 20 events" {
				t.Fatalf("plan: %d moved, boundary %s, %s", len(p.Moved), p.Boundary.ID, p.Reason)
			}
			p = PlanArchive(log, map[string]string{"evt-030": "auth"}, 20, 50)
			if len(p.Moved) != 29 || p.Reason != `evt-030 set the current state of active node "auth"` {
				t.Fatalf("pinned plan: %d moved, %s", len(p.Moved), p.Reason)
			}
			newLog, newArch := BuildArchive(src, nil, DefaultArchiveName, "2026-01-02", p)
			before := []Source{{src, log}}
			after := []Source{{newArch, parse.Parse("a", newArch, parse.Archive())}, {newLog, parse.Parse("l", newLog)}}
			if err := VerifyMove(before, after, 0); err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(newArch, []byte("## Archive: evt-001 through evt-029 | Archived 2026-01-02")) ||
				!bytes.Contains(newLog, []byte("<!-- memsys: evt-001 through evt-029 archived to changelog-archive.md -->")) {
				t.Errorf("marker or comment missing:\n%s", newLog[:200])
			}
			if n := len(parse.Parse("a", newArch, parse.Archive()).Problems) + len(parse.Parse("l", newLog).Problems); n != 0 {
				t.Errorf("%d parse problems after the move", n)
			}
			// A second archival appends a section to the archive.
			log2 := parse.Parse("l", newLog)
			p2 := PlanArchive(log2, nil, 5, 10)
			log3, arch3 := BuildArchive(newLog, newArch, DefaultArchiveName, "2026-01-03", p2)
			if err := VerifyMove(after, []Source{{arch3, parse.Parse("a", arch3, parse.Archive())}, {log3, parse.Parse("l", log3)}}, 0); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(arch3, newArch) {
				t.Error("second archival changed the existing archive bytes")
			}
		}
	}
	// keep 0 (refused at the flag and in .memsys.json) still plans a
	// boundary: every event but the last moves.
	if p := PlanArchive(parse.Parse("c", genLog(3, "\n")), nil, 0, 0); len(p.Moved) != 2 || p.Boundary.ID != "evt-003" {
		t.Errorf("keep 0: %d moved, boundary %q", len(p.Moved), p.Boundary.ID)
	}
	small := parse.Parse("c", genLog(50, "\n"))
	if p := PlanArchive(small, nil, 20, 50); p.Due || len(p.Moved) != 0 {
		t.Errorf("50 events: due %v", p.Due)
	}
	// A pin more than keep-1 events before the last keep is not
	// honoured by keeping it in the log (it stays a valid ref in the
	// archive): the log keeps at most 2×keep events, archive event
	// included, whatever the graph looks like.
	log := parse.Parse("c", genLog(51, "\n"))
	if p := PlanArchive(log, map[string]string{"evt-001": "root"}, 20, 50); !p.Due || len(p.Moved) != 31 || p.Reason != "keeping the last 20 events" {
		t.Errorf("pinned first event: %d moved, %s", len(p.Moved), p.Reason)
	}
	for _, n := range []int{51, 120, 1000} {
		log := parse.Parse("c", genLog(n, "\n"))
		pins := map[string]string{}
		for i := 1; i <= n; i++ {
			pins[parse.FormatID(i, 3)] = "node"
		}
		if p := PlanArchive(log, pins, 20, 50); n-len(p.Moved)+1 > 40 {
			t.Errorf("%d events, every one pinned: %d stay with the archive event, want at most 40", n, n-len(p.Moved)+1)
		}
	}
}

func TestVerifyMoveDetectsLoss(t *testing.T) {
	src := genLog(5, "\n")
	log := parse.Parse("c", src)
	cut := parse.Parse("c", genLog(4, "\n"))
	if err := VerifyMove([]Source{{src, log}}, []Source{{genLog(4, "\n"), cut}}, 0); err == nil {
		t.Error("a lost event passed")
	}
	edited := bytes.Replace(src, []byte("event 3"), []byte("event 9"), 1)
	if err := VerifyMove([]Source{{src, log}}, []Source{{edited, parse.Parse("c", edited)}}, 0); err == nil {
		t.Error("an edited event passed")
	}
}

// TestArchiveKeepsTextBetween checks that BuildArchive loses no byte
// but separators: text after the last moved event (a "### retro"
// section, a comment) used to be
// in neither file, in every line ending.
func TestArchiveKeepsTextBetween(t *testing.T) {
	gap := "### Sprint 1 retro\n\nWe learned that the cache must be warmed.\n\n<!-- sprint 2 starts here -->\n"
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		lf := string(genLog(6, "\n---\n\n"))
		b := PlanArchive(parse.Parse("CHANGELOG.md", []byte(lf)), nil, 2, 3).Boundary.ID
		i := strings.Index(lf, "### "+b+" ")
		lf = lf[:i] + gap + "\n---\n\n" + lf[i:]
		src := []byte(strings.ReplaceAll(lf, "\n", nl))
		log := parse.Parse("CHANGELOG.md", src)
		p := PlanArchive(log, nil, 2, 3)
		if p.Boundary.ID != b {
			t.Fatalf("%q: boundary %s, want %s", nl, p.Boundary.ID, b)
		}
		newLog, newArch := BuildArchive(src, nil, DefaultArchiveName, "2026-01-02", p)
		for _, line := range strings.Split(lf, "\n") {
			if line == "" || line == "---" {
				continue
			}
			if !bytes.Contains(newArch, []byte(line)) && !bytes.Contains(newLog, []byte(line)) {
				t.Errorf("%q: line %q is in neither file", nl, line)
			}
		}
		if want := strings.ReplaceAll("<!-- sprint 2 starts here -->\n\n---\n", "\n", nl); bytes.Contains(newArch, []byte(want)) {
			t.Errorf("%q: the separator before the boundary moved too", nl)
		}
	}
}
