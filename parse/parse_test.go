package parse

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/testkit/loggen"
)

const head = "# Changelog\n\n## Event Log\n\n"

const canonical = head + `### evt-001 | 2026-02-27 10:00 | alice | decision

**Scope**: auth, database
**Summary**: use PostgreSQL
  instead of SQLite

**Details**:
- from: sqlite
- to: postgres
  - reason: concurrency
- rationale: many writers
- path: C:\Users\dev\db

**Refs**: none
**Tags**: db, #arch

---

### evt-002 | 2026-02-27 11:30 | bob | create

**Scope**: auth
**Summary**: create the auth module
**Refs**: evt-001
**Tags**: auth
`

func TestParseCanonical(t *testing.T) {
	l := Parse("CHANGELOG.md", []byte(canonical))
	if len(l.Problems) != 0 {
		t.Fatalf("problems: %v", l.Problems)
	}
	if !l.HasEventLog || l.EventLogLine != 3 {
		t.Errorf("event log = %v at %d, want true at 3", l.HasEventLog, l.EventLogLine)
	}
	if len(l.Events) != 2 {
		t.Fatalf("got %d events, want 2", len(l.Events))
	}
	e := l.Events[0]
	want := Event{
		ID: "evt-001", Num: 1, Agent: "alice", Type: "decision",
		Time:    Time{Year: 2026, Month: 2, Day: 27, Hour: 10, Raw: "2026-02-27 10:00"},
		Scope:   "auth, database",
		Scopes:  []string{"auth", "database"},
		Summary: "use PostgreSQL instead of SQLite",
		Details: []Detail{
			{Key: "from", Value: "sqlite", Line: 12},
			{Key: "to", Value: "postgres", Line: 13, Children: []Detail{{Key: "reason", Value: "concurrency", Line: 14}}},
			{Key: "rationale", Value: "many writers", Line: 15},
			{Key: "path", Value: `C:\Users\dev\db`, Line: 16},
		},
		Tags: []string{"db", "arch"},
		Fields: []Field{
			{Key: "Scope", Value: "auth, database", Line: 7},
			{Key: "Summary", Value: "use PostgreSQL instead of SQLite", Line: 8},
			{Key: "Details", Line: 11},
			{Key: "Refs", Value: "none", Line: 18},
			{Key: "Tags", Value: "db, #arch", Line: 19},
		},
		Level: 3, InLog: true,
	}
	e.Range, e.Text = Range0(), ""
	e.Details = withoutNorm(e.Details)
	if !reflect.DeepEqual(e, want) {
		t.Errorf("event 1:\n got %+v\nwant %+v", e, want)
	}
	for _, d := range l.Events[0].Details {
		if d.norm != NormKey(d.Key) || d.Norm() != NormKey(d.Key) {
			t.Errorf("detail %q: norm %q", d.Key, d.norm)
		}
	}
	r := l.Events[0].Range
	if r.Line != 5 || r.EndLine != 19 {
		t.Errorf("range lines %d-%d, want 5-19", r.Line, r.EndLine)
	}
	if !strings.HasSuffix(l.Events[0].Text, "**Tags**: db, #arch\n") {
		t.Errorf("text does not end at the Tags line: %q", l.Events[0].Text)
	}
	if got := canonical[r.Offset:r.EndOffset]; got != l.Events[0].Text {
		t.Errorf("offsets give %q, want the event text", got)
	}
	if l.Events[1].Refs[0] != "evt-001" || l.Events[1].Range.Line != 23 {
		t.Errorf("event 2: refs %v line %d", l.Events[1].Refs, l.Events[1].Range.Line)
	}
}

// Range0 is the zero Range, so DeepEqual can ignore positions.
func Range0() (r diag.Range) { return }

// TestLineEndings: CRLF, a BOM, trailing spaces and tabs parse like
// clean LF input.
func TestLineEndings(t *testing.T) {
	clean := Parse("f", []byte(canonical))
	variants := map[string]string{
		"crlf":     strings.ReplaceAll(canonical, "\n", "\r\n"),
		"bom":      "\ufeff" + canonical,
		"trailing": strings.ReplaceAll(canonical, "\n", " \t\n"),
		"bom+crlf": "\ufeff" + strings.ReplaceAll(canonical, "\n", "\r\n"),
	}
	for name, src := range variants {
		t.Run(name, func(t *testing.T) {
			l := Parse("f", []byte(src))
			if len(l.Events) != len(clean.Events) || len(l.Problems) != 0 {
				t.Fatalf("got %d events, problems %v", len(l.Events), l.Problems)
			}
			for i := range l.Events {
				a, b := l.Events[i], clean.Events[i]
				if a.Range.Line != b.Range.Line || a.Range.EndLine != b.Range.EndLine {
					t.Errorf("event %d lines %d-%d, want %d-%d", i, a.Range.Line, a.Range.EndLine, b.Range.Line, b.Range.EndLine)
				}
				if got := src[a.Range.Offset:a.Range.EndOffset]; !strings.Contains(got, a.ID) {
					t.Errorf("original offsets of %s give %q", a.ID, got)
				}
				a.Range, b.Range = Range0(), Range0()
				if name != "trailing" {
					if !reflect.DeepEqual(a, b) {
						t.Errorf("event %d differs:\n got %+v\nwant %+v", i, a, b)
					}
				} else {
					a.Text, b.Text = "", ""
					if !reflect.DeepEqual(a, b) {
						t.Errorf("event %d differs:\n got %+v\nwant %+v", i, a, b)
					}
				}
			}
		})
	}
}

// TestNotEvents: headings in code, HTML, or before the Event Log
// section are never events.
func TestNotEvents(t *testing.T) {
	src := "# Changelog\n\n## 1.2.0\n\n### Added\n- a feature\n\n### evt-900 | 2026-01-01 10:00 | x | create\n\n" +
		head[len("# Changelog\n\n"):] +
		"### evt-001 | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: one\n\n" +
		"```\n### evt-002 | 2026-01-01 10:00 | a | create\n```\n\n" +
		"    ### evt-003 | 2026-01-01 10:00 | a | create\n\n" +
		"<!--\n### evt-004 | 2026-01-01 10:00 | a | create\n-->\n\n" +
		"<div>\n### evt-005 | 2026-01-01 10:00 | a | create\n</div>\n\n" +
		"- ```\n  ### evt-006 | 2026-01-01 10:00 | a | create\n  ```\n\n" +
		"~~~~\n```\n### evt-007 | 2026-01-01 10:00 | a | create\n~~~~\n\n" +
		"### evt-008 | 2026-01-01 11:00 | a | modify\n\n**Scope**: s\n**Summary**: two\n"
	l := Parse("CHANGELOG.md", []byte(src))
	var ids []string
	for _, e := range l.Events {
		ids = append(ids, e.ID)
	}
	if want := []string{"evt-001", "evt-008"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("events %v, want %v", ids, want)
	}
	var got []string
	for _, p := range l.Problems {
		got = append(got, p.String())
	}
	want := []string{`CHANGELOG.md:8:1: evt-900 is outside the "## Event Log" section: move it under that heading`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems\n got %q\nwant %q", got, want)
	}
}

// TestProblems lists malformed input and the exact problem it gives.
func TestProblems(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
		events     int
	}{
		{"date only", "### evt-001 | 2026-02-27 | a | milestone\n", []string{
			`f:5:1: timestamp "2026-02-27" has no time of day: write "YYYY-MM-DD HH:MM"`}, 1},
		{"feb 30", "### evt-001 | 2025-02-30 10:00 | a | fix\n", []string{
			`f:5:1: timestamp "2025-02-30 10:00" is not a valid "YYYY-MM-DD HH:MM": fix the date or time`}, 1},
		{"24:61", "### evt-001 | 2025-02-03 24:61 | a | fix\n", []string{
			`f:5:1: timestamp "2025-02-03 24:61" is not a valid "YYYY-MM-DD HH:MM": fix the date or time`}, 1},
		{"letters", "### evt-01a | 2025-02-03 10:00 | a | fix\n", []string{
			`f:5:1: event ID "evt-01a" has characters other than digits after evt-: use evt-NNN`}, 0},
		{"ten digits", "### evt-0123456789 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:5:1: event ID "evt-0123456789" has 10 digits, at most 9 are allowed: use the next number after the last event`}, 0},
		{"truncated", "### evt-001 | 2025-02-03 10:00\n", []string{
			`f:5:1: event header has 2 parts, want 4: write it as "### evt-001 | YYYY-MM-DD HH:MM | agent | type"`}, 1},
		// One part: the parts were separated by something other than
		// "|" (dashes, commas), or the header is the ID alone.
		{"no pipes", "### evt-001 — 2025-02-03 10:00 — a — fix\n", []string{
			`f:5:1: event header has no "|" between its parts: write it as "### evt-001 | YYYY-MM-DD HH:MM | agent | type"`}, 1},
		{"empty agent", "### evt-001 | 2025-02-03 10:00 |  | fix\n", []string{
			`f:5:1: event header has an empty agent or type: fill in both`}, 1},
		{"level 2", "## evt-001 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:5:1: evt-001 heading is level 2, not 3: write it as "### evt-001 | ..."`}, 1},
		{"free text", "### evt-001 | 2025-02-03 10:00 | a | fix\n\nsome prose\n", []string{
			`f:7:1: text "some prose" in evt-001 is not a field: write it as "**Key**: value" or a Details bullet`}, 1},
		{"duplicate field", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: a\n**Summary**: b\n", []string{
			`f:8:1: field "Summary" appears twice in evt-001: keep one`}, 1},
		// A heading whose ID cannot be read still opens an event, so its
		// body is read: the body's problems name the heading's line, not
		// an empty ID ("in  is not a field").
		{"free text, unreadable ID", "### evt-060: Title\nSomething 60.\n", []string{
			`f:5:1: event ID "evt-060:" has characters other than digits after evt-: use evt-NNN`,
			`f:6:1: text "Something 60." in the event at line 5 is not a field: write it as "**Key**: value" or a Details bullet`}, 0},
		{"duplicate field, unreadable ID", "### evt-06a | 2025-02-03 10:00 | a | fix\n\n**Summary**: a\n**Summary**: b\n", []string{
			`f:5:1: event ID "evt-06a" has characters other than digits after evt-: use evt-NNN`,
			`f:8:1: field "Summary" appears twice in the event at line 5: keep one`}, 0},
		{"not evt", "### Notes | 2025-02-03 10:00 | a | fix\n", []string{
			`f:5:1: heading "Notes | 2025-02-03 10:00 | a | fix" looks like an event but does not start with evt-NNN: write it as "### evt-NNN | YYYY-MM-DD HH:MM | agent | type"`}, 0},
		{"unterminated fence", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n```\n### evt-002 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:7:1: code block or HTML comment opened here is never closed, so every event heading after it is hidden: close it`}, 1},
		{"unterminated comment", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n<!-- note\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:7:1: code block or HTML comment opened here is never closed, so every event heading after it is hidden: close it`}, 1},
		// An event heading is read in any case ("EVT-002"): hidden, it is
		// reported too (FuzzTailCut found it was not, and append's tail
		// cut trusts the report).
		{"unterminated fence hiding EVT-", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n```\n### EVT-002 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:7:1: code block or HTML comment opened here is never closed, so every event heading after it is hidden: close it`}, 1},
		{"unterminated fence hiding nothing", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n```\nplain code\n", nil, 1},
		{"refs prose", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Refs**: see above\n", nil, 1},
		{"heading cuts an event", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n## Notes\n\ntext\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n\n### evt-003 | 2025-02-03 10:00 | a | fix\n", []string{
			`f:7:1: heading "Notes" inside evt-001 ends the "## Event Log" section, so the events after it are outside the log: make it "#### Notes" or plain text`}, 3},
		{"section after the log", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n## Notes\n\ntext\n", nil, 1},
		// Without a blank line a field after the Details list is a lazy
		// continuation of its last bullet (CommonMark): its refs were
		// silently read as the bullet's text. The value stays as
		// markdown reads it; the problem says what to do.
		{"field swallowed by a bullet", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Details**:\n- changes: tokens\n**Refs**: evt-001\n", []string{
			`f:9:1: field "Refs" continues the bullet above it, so evt-001 reads it as that bullet's text: put a blank line before it`}, 1},
		{"prose continuing a bullet", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Details**:\n- changes: tokens\nand **more**: x\n**Note**: y\n", nil, 1},
		{"invalid utf-8", "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: caf\xe9\n", []string{
			`f:7:17: invalid UTF-8 (byte 0xe9): re-save the file as UTF-8`}, 1},
		{"nul", "### evt-001 | 2025-02-03 10:00 | a | fix\n\x00\n", []string{
			`f:6:1: NUL byte in the log: the file is damaged or binary; restore it from git`,
			`f:6:1: text "\x00" in evt-001 is not a field: write it as "**Key**: value" or a Details bullet`}, 1},
		{"bom inside", "### evt-001 | 2025-02-03 10:00 | a | fix\n\ufeff**Summary**: s\n", []string{
			`f:6:1: byte-order mark inside the file (two files pasted together?): delete it`,
			`f:6:1: text "\ufeff**Summary**: s" in evt-001 is not a field: write it as "**Key**: value" or a Details bullet`}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := Parse("f", []byte(head+c.body))
			var got []string
			for _, p := range l.Problems {
				got = append(got, p.String())
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("problems\n got %q\nwant %q", got, c.want)
			}
			if len(l.Events) != c.events {
				t.Errorf("got %d events, want %d", len(l.Events), c.events)
			}
		})
	}
}

func TestSetextAfterField(t *testing.T) {
	src := head + "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: s\n**Tags**: x, y\n---\n### evt-002 | 2025-02-03 10:00 | a | fix\n"
	l := Parse("f", []byte(src))
	if len(l.Events) != 2 || !reflect.DeepEqual(l.Events[0].Tags, []string{"x", "y"}) {
		t.Fatalf("events %d, tags %v", len(l.Events), l.Events[0].Tags)
	}
}

func TestArchive(t *testing.T) {
	src := "# Changelog Archive\n\n## Archive: evt-001 through evt-001 | Archived 2026-01-02\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Summary**: s\n"
	// Without Archive() there is no Event Log section, so events count
	// but are not InLog; lint reports the missing section.
	if l := Parse("a", []byte(src)); len(l.Events) != 1 || l.HasEventLog || l.Events[0].InLog {
		t.Errorf("without Archive(): %d events, HasEventLog %v", len(l.Events), l.HasEventLog)
	}
	if l := Parse("a", []byte(src), Archive()); len(l.Events) != 1 || !l.Events[0].InLog {
		t.Errorf("with Archive(): %d events", len(l.Events))
	}
}

func TestHeadersOnly(t *testing.T) {
	src := []byte(canonical + "\n```\n### evt-009 | 2026-02-27 11:30 | bob | create\n```\n\n### evt-003 | 2026-02-28 09:00 | c | test\n")
	full, hdr := Parse("f", src), Parse("f", src, HeadersOnly())
	if len(full.Events) != len(hdr.Events) {
		t.Fatalf("headers-only found %d events, full parse %d", len(hdr.Events), len(full.Events))
	}
	for i := range full.Events {
		a, b := full.Events[i], hdr.Events[i]
		if a.ID != b.ID || a.Time != b.Time || a.Type != b.Type || a.Range != b.Range || a.Text != b.Text {
			t.Errorf("event %d: headers-only %+v, full %+v", i, b, a)
		}
	}
}

func TestParseTime(t *testing.T) {
	for _, s := range []string{"2024-02-29 00:00", "2026-12-31 23:59", "2000-02-29"} {
		if _, msg := ParseTime(s); msg != "" {
			t.Errorf("%s: %s", s, msg)
		}
	}
	for _, s := range []string{"2023-02-29 10:00", "2026-13-01 10:00", "2026-1-01 10:00", "2026-01-01 7:00", "2026-01-01T10:00", "", "1900-02-29"} {
		if _, msg := ParseTime(s); msg == "" {
			t.Errorf("%q accepted", s)
		}
	}
	a, _ := ParseTime("2026-03-01 00:00")
	b, _ := ParseTime("2026-02-28 00:00")
	if a.Minutes()-b.Minutes() != 1440 {
		t.Errorf("minutes between Feb 28 and Mar 1 2026: %d", a.Minutes()-b.Minutes())
	}
}

// TestPipeline: the two-goroutine path gives exactly what the
// sequential path gives, on a log large enough to use it and varied
// enough to send chunks down both the fast path and goldmark.
func TestPipeline(t *testing.T) {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; i <= pipelineMin+500; i++ {
		fmt.Fprintf(&b, "### evt-%03d | 2026-01-02 10:%02d | a | create\n\n**Scope**: s%d\n**Summary**: event %d\n\n", i, i%60, i%7, i)
		switch i % 5 {
		case 0:
			b.WriteString("```\n### evt-999 | in code\n```\n\n")
		case 1:
			b.WriteString("**Details**:\n- entity: e\n  - sub: x\n\n---\n\n")
		case 2:
			b.WriteString("> quoted\n\n<!-- c -->\n\n")
		}
	}
	src := []byte(b.String())
	seq := Parse("f", src, func(c *config) { c.sequential = true })
	par := Parse("f", src)
	if len(seq.Events) != pipelineMin+500 {
		t.Fatalf("sequential parse found %d events", len(seq.Events))
	}
	if !reflect.DeepEqual(seq, par) {
		t.Fatal("pipeline parse differs from sequential parse")
	}
}

func TestLongLine(t *testing.T) {
	src := head + "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: " + strings.Repeat("x", MaxLineLength) + "\n"
	l := Parse("f", []byte(src))
	// The event before the line is read; the file stops there.
	if len(l.Problems) != 1 || l.Problems[0].Kind != KindLineLength || l.Problems[0].Range.Line != 7 || len(l.Events) != 1 || !l.HasEventLog {
		t.Fatalf("problems %v, events %d", l.Problems, len(l.Events))
	}
	want := "f:7:1: line is 1048589 bytes, over the 1048576-byte limit: split it or move the content out of the log"
	if got := l.Problems[0].String(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestBoldDetailKeys(t *testing.T) {
	l := Parse("f", []byte(head+"### evt-001 | 2025-02-03 10:00 | a | modify\n\n**Details**:\n- **Current system**: sqlite\n- **Next step (v2):** postgres\n- **note** no colon\n"))
	var got []string
	for _, d := range l.Events[0].Details {
		got = append(got, d.Key+"="+d.Value)
	}
	want := []string{"Current system=sqlite", "Next step (v2)=postgres", "=**note** no colon"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("details %q, want %q", got, want)
	}
}

func TestKeys(t *testing.T) {
	same := [][2]string{{"Root Cause", "root_cause"}, {"root-cause", "ROOT_CAUSE"}, {" Scope ", "scope"}, {"GRÖSSE", "grösse"}}
	for _, c := range same {
		if !SameKey(c[0], c[1]) || !KeyIs(c[0], NormKey(c[1])) {
			t.Errorf("%q and %q should match", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"scope", "scopes"}, {"ref", "refs"}, {"a b", "ab"}} {
		if SameKey(c[0], c[1]) || KeyIs(c[0], NormKey(c[1])) {
			t.Errorf("%q and %q should differ", c[0], c[1])
		}
	}
}

func TestRefs(t *testing.T) {
	cases := map[string][]string{
		"none":                   nil,
		"n/a":                    nil,
		"evt-001, evt-002":       {"evt-001", "evt-002"},
		"evt-003 (the decision)": {"evt-003"},
		"evt-003 and evt-004":    {"evt-003", "evt-004"},
		"see above":              {"see above"},
		"`evt-007`":              {"evt-007"},
	}
	for in, want := range cases {
		if got := parseRefs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("parseRefs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeadings(t *testing.T) {
	src := "# AGENTS.md\r\n\r\n```\n## In a fence\n```\n\n<!--\n## In a comment\n-->\n\n    ## Indented code\n\nSetext\n------\n\n### Memory System Protocol ###\n"
	var got []string
	for _, h := range Headings([]byte(src)) {
		got = append(got, fmt.Sprintf("%d:%d:%s", h.Line, h.Level, h.Text))
	}
	want := []string{"1:1:AGENTS.md", "13:2:Setext", "16:3:Memory System Protocol"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestStreamPipeline covers what the fuzzer's small inputs never reach:
// a log long enough for the recogniser goroutine, streamed.
func TestStreamPipeline(t *testing.T) {
	src := loggen.Generate(3*pipelineMin, 7)
	want := Parse("CHANGELOG.md", src)
	var got []Event
	l := Stream("CHANGELOG.md", src, func(e *Event) { got = append(got, *e) })
	if len(got) != 3*pipelineMin || !reflect.DeepEqual(got, want.Events) || !reflect.DeepEqual(l.Problems, want.Problems) {
		t.Fatalf("Stream gave %d events, Parse %d; equal events: %v, equal problems: %v",
			len(got), len(want.Events), reflect.DeepEqual(got, want.Events), reflect.DeepEqual(l.Problems, want.Problems))
	}
}

// withoutNorm copies details with the parser's cached keys cleared, to
// compare with details written by hand.
func withoutNorm(ds []Detail) []Detail {
	if ds == nil {
		return nil
	}
	out := make([]Detail, len(ds))
	for i, d := range ds {
		d.norm = ""
		d.Children = withoutNorm(d.Children)
		out[i] = d
	}
	return out
}

func TestArgNum(t *testing.T) {
	for arg, want := range map[string]int{"evt-005": 5, "EVT-7": 7, "5": 5, "005": 5, "0": 0, "": 0, "5a": 0, "evt-+5": 0, "-5": 0, "1234567890": 0} {
		n, ok := ArgNum(arg)
		if n != want || ok != (want > 0) {
			t.Errorf("ArgNum(%q) = %d, %v; want %d", arg, n, ok, want)
		}
	}
}

func TestDeclaredTier(t *testing.T) {
	cases := map[string]Tier{
		"# Agents\n\n**Tier**: Core\n":         Core,
		"- Tier: full (graph and TODO)\n":      Full,
		"tier: `mvp`\r\n":                      MVP,
		"\ufeffTier: core\r\n":                 Core,
		"**Tier:** Core.\n":                    Core,
		"Tiers are described in the README.\n": "",
		"Tier: gold\n":                         "",
		"":                                     "",
	}
	for src, want := range cases {
		got, ok := DeclaredTier([]byte(src))
		if got != want || ok != (want != "") {
			t.Errorf("DeclaredTier(%q) = %q, %v; want %q", src, got, ok, want)
		}
	}
	if got := DetectTier(func(string) bool { return true }, []byte("Tier: core\n")); got != Core {
		t.Errorf("declared core with every file present: %q", got)
	}
}

// TestHeadersOnlyText: a headers-only parse gives every event the same
// Text as a full parse, so status can digest the history it does not
// fully read exactly as regen does (materialize.SourceHasher).
// A setext heading in an event's body ends the event where a full
// parse ends it, and an indented event heading is an event: the
// headers-only parse read only the chunk's first line and ran on to the
// next column-0 heading [archive-heading-in-event, append-indented-heading].
func TestHeadersOnlyText(t *testing.T) {
	i := strings.Index(canonical, "\n### evt-002")
	setext := func(h string) string { return canonical[:i] + "\n" + h + "\n\nlooked fine\n" + canonical[i:] }
	for _, src := range [][]byte{[]byte(canonical), loggen.Generate(3*pipelineMin, 7), []byte(strings.ReplaceAll(canonical, "\n", "\r\n")),
		[]byte(setext("Notes from the review\n---------------------")), []byte(setext("Notes\n=====")), []byte(setext("Notes\n   -")),
		[]byte(strings.ReplaceAll(setext("Notes\n-----"), "\n", "\r\n")),
		// An indented event heading: the chunks are cut only before
		// column-0 ones.
		[]byte(strings.Replace(canonical, "### evt-002", "  ### evt-002", 1)),
		[]byte(strings.Replace(canonical, "### evt-002", "   ### evt-002", 1) + "\n   ### evt-009 | 2026-03-01 10:00 | bob | fix\n")} {
		full, heads := Parse("f", src), Parse("f", src, HeadersOnly())
		if len(full.Events) != len(heads.Events) {
			t.Fatalf("%d events, headers-only %d", len(full.Events), len(heads.Events))
		}
		for i := range full.Events {
			if full.Events[i].Text != heads.Events[i].Text || full.Events[i].Range != heads.Events[i].Range {
				t.Fatalf("%q: %s: text or range differs:\n%q\nheaders-only:\n%q", src, full.Events[i].ID, full.Events[i].Text, heads.Events[i].Text)
			}
		}
		if len(full.Problems) != len(heads.Problems) {
			t.Errorf("%q: %d problems, headers-only %d", src, len(full.Problems), len(heads.Problems))
		}
	}
}

// TestTimeStringAsFmt holds Time.String and Time.ISO, which write their
// digits by hand, to what fmt's %04d/%02d wrote before, at the edges of every
// field and for times no parse gives (negative, over-wide).
func TestTimeStringAsFmt(t *testing.T) {
	want := func(tm Time) string {
		if tm.IsZero() {
			return tm.Raw
		}
		if tm.DateOnly {
			return fmt.Sprintf("%04d-%02d-%02d", tm.Year, tm.Month, tm.Day)
		}
		return fmt.Sprintf("%04d-%02d-%02d %02d:%02d", tm.Year, tm.Month, tm.Day, tm.Hour, tm.Minute)
	}
	years := []int16{1, 9, 10, 99, 100, 999, 1000, 2026, 9999, 10000, 32767, -1, -2026}
	small := []int8{0, 1, 9, 10, 59, 99, 100, 127, -1, -128}
	n := 0
	for _, y := range years {
		for _, m := range small {
			for _, v := range small {
				for _, dateOnly := range []bool{false, true} {
					tm := Time{Year: y, Month: m, Day: v, Hour: v, Minute: m, DateOnly: dateOnly, Raw: "raw"}
					if got, w := tm.String(), want(tm); got != w {
						t.Fatalf("%+v: String() = %q, fmt gives %q", tm, got, w)
					}
					// ISO is the ledger's: String with a T for the space.
					w := want(tm)
					if !tm.IsZero() && !tm.DateOnly {
						w = w[:10] + "T" + w[11:]
					}
					if got := tm.ISO(); got != w {
						t.Fatalf("%+v: ISO() = %q, want %q", tm, got, w)
					}
					n++
				}
			}
		}
	}
	if got := (Time{Raw: "sometime"}).String(); got != "sometime" {
		t.Fatalf("zero Time: %q, want its raw text", got)
	}
	if n < 2000 {
		t.Fatalf("only %d times compared", n)
	}
}

// utf16 encodes s as UTF-16 with a byte-order mark, as Windows editors
// and PowerShell's Out-File save "Unicode" text.
func utf16(s string, big bool) []byte {
	out := []byte{0xff, 0xfe}
	if big {
		out = []byte{0xfe, 0xff}
	}
	for _, r := range s {
		if big {
			out = append(out, byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8))
		}
	}
	return out
}

// TestUTF16: a log saved as UTF-16 gives one problem that says to
// re-save it as UTF-8, not an invalid UTF-8 byte and a NUL byte, and
// UTF16 reports it, so callers do not advise adding a "## Event Log"
// heading that the file already has.
func TestUTF16(t *testing.T) {
	src := head + "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Scope**: s\n**Summary**: x\n"
	for _, c := range []struct {
		big  bool
		want string
	}{
		{false, `f:1:1: the file is UTF-16 (byte-order mark 0xff 0xfe), which memsys does not read: re-save it as UTF-8`},
		{true, `f:1:1: the file is UTF-16 (byte-order mark 0xfe 0xff), which memsys does not read: re-save it as UTF-8`},
	} {
		l := Parse("f", utf16(src, c.big))
		var got []string
		for _, p := range l.Problems {
			got = append(got, p.String())
		}
		if !reflect.DeepEqual(got, []string{c.want}) {
			t.Errorf("problems\n got %q\nwant %q", got, []string{c.want})
		}
		if !l.UTF16() {
			t.Errorf("UTF16() = false for a UTF-16 file")
		}
	}
	if l := Parse("f", []byte(src)); l.UTF16() {
		t.Errorf("UTF16() = true for a UTF-8 file")
	}
	// A UTF-8 file whose first byte is invalid is no UTF-16 file.
	if l := Parse("f", append([]byte{0xff}, src...)); l.UTF16() {
		t.Errorf("UTF16() = true for a file starting with 0xff alone")
	}
}

func TestTrimSeparators(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"", ""},
		{"\n---\n\n", ""},
		{"\r\n---\r\n\r\n", ""},
		{"\r---\r\r", ""},
		{"\n### retro\n\ntext\n\n---\n\n", "\n### retro\n\ntext\n"},
		{"\r\n### retro\r\n\r\ntext\r\n\r\n* * *\r\n", "\r\n### retro\r\n\r\ntext\r\n"},
		{"\rtext\r\r", "\rtext\r"},
	} {
		if got := c.src[:TrimSeparators([]byte(c.src), 0, len(c.src))]; got != c.want {
			t.Errorf("TrimSeparators(%q) keeps %q, want %q", c.src, got, c.want)
		}
	}
}

// FuzzDetailKey: Event.Detail takes a key that isNormTrimmed accepts as
// it is, without NormKey; that is right only if NormKey returns such a
// key unchanged. And Detail finds a detail by any spelling of its key,
// normalised or not, as it did when it always called NormKey.
func FuzzDetailKey(f *testing.F) {
	for _, s := range []string{"entity", " entity", "entity\n", "Entity", "root_cause", "root-cause", "\x0bkey", "key\x85", "grösse", "", "a b", "x\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if isNormTrimmed(key) && NormKey(key) != key {
			t.Fatalf("isNormTrimmed(%q), but NormKey gives %q", key, NormKey(key))
		}
		e := &Event{Details: []Detail{{Key: "Other", Value: "o", norm: "other"}, {Key: key, Value: "v", norm: NormKey(key)}}}
		if NormKey(key) == "" || NormKey(key) == "other" {
			return
		}
		if v, ok := e.Detail(key); !ok || v != "v" {
			t.Fatalf("Detail(%q) = %q, %v; want the detail of that key", key, v, ok)
		}
		if v, ok := e.Detail(NormKey(key)); !ok || v != "v" {
			t.Fatalf("Detail(%q) = %q, %v; want the detail of key %q", NormKey(key), v, ok, key)
		}
	})
}
