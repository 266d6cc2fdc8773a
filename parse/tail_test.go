package parse

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTailCut(t *testing.T) {
	ev := func(n string) string {
		return "### evt-" + n + " | 2025-02-03 10:00 | a | fix\n\n**Scope**: s\n**Summary**: x\n\n"
	}
	cases := []struct {
		name string
		src  string
		want int // index of the line that is the cut, -1 for none
	}{
		{"blank line then heading", "x\n\n" + ev("001"), 2},
		{"first line has no blank before it", ev("001"), -1},
		{"second heading after blank", ev("001") + ev("002"), 5},
		{"a fence is refused even when closed", "\n" + ev("001") + "```\n### evt-9 | in code\n```\n", -1},
		{"the cut after the last block", "\n" + ev("001") + "```\n### evt-9 | in code\n```\n\n" + ev("002"), 10},
		{"cut inside a fence opened above", "```\n\n" + ev("003") + "```\n", -1},
		{"a fence never closed hides what follows", "\n### evt-002 | x\n```\n\n" + ev("003"), 4},
		{"closing fence left over", "x\n\n" + ev("001") + "```\n", -1},
		{"inside a comment opened above", "\n" + ev("001") + "-->\n", -1},
		{"a comment is refused even when closed", "\n" + ev("001") + "<!--\n### evt-9\n-->\n", -1},
		{"text inside a comment looks like a comment", "\n" + ev("001") + "<!-- a\n\n" + ev("002") + "-->\n", -1},
		{"one-line comment", "\n" + ev("001") + "<!-- note -->\n", -1},
		{"a later cut when the first is unclear", "\n" + ev("001") + "a --> b\n\n" + ev("002"), 8},
		{"not an event heading", "\n## Notes\n\ntext\n", -1},
		{"four-space indent is not a heading", "\n    ### evt-001 | x\n", -1},
		{"heading after a paragraph line", "para\n### evt-001 | x\n", -1},
		{"CRLF", "\r\n### evt-001 | x\r\n\r\n**Scope**: s\r\n", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := TailCut([]byte(c.src))
			want := -1
			if c.want >= 0 {
				want = 0
				for range c.want {
					want += strings.IndexByte(c.src[want:], '\n') + 1
				}
			}
			if got != want {
				t.Errorf("TailCut = %d, want %d (line %d)", got, want, c.want)
			}
		})
	}
}

// FuzzTailCut checks TailCut's promise: from any line of a file, the
// cut it offers parses alone to the same headings as the whole file
// has from there, unless the whole file hides them in a block
// that is never closed (which lint reports).
func FuzzTailCut(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s, uint16(0))
		f.Add(s, uint16(len(s)/2))
	}
	f.Fuzz(func(t *testing.T, src string, at uint16) {
		if strings.ContainsAny(src, "\r\x00") || strings.HasPrefix(src, "\ufeff") {
			return // offsets of normalised input differ; CRLF is covered by the table
		}
		b := []byte(src)
		start, cut := fuzzCut(b, at)
		if cut < 0 {
			return
		}
		whole := Parse("f", b, HeadersOnly())
		for _, p := range whole.Problems {
			if p.Kind == KindUnclosed {
				return
			}
		}
		// The promise is about block structure: which lines are
		// headings. (Whether the events after the cut are in the Event
		// Log depends on sections above it, which the caller cannot see
		// either; lint reports events outside the log.)
		from := start + cut
		firstLine := bytes.Count(b[:from], []byte("\n")) + 1
		var want []string
		for _, h := range Headings(b) {
			if h.Line >= firstLine {
				want = append(want, h.Text)
			}
		}
		var got []string
		for _, h := range Headings(b[from:]) {
			got = append(got, h.Text)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("cut at %d: tail has headings\n%q\nwhole file has\n%q", from, got, want)
		}
	})
}

func TestOpenBlockLine(t *testing.T) {
	tests := []struct {
		name, src string
		want      int
	}{
		{"closed fence", "### evt-001 | x\n\n```\ncode\n```\n", 0},
		{"open fence", "### evt-001 | x\n\n```\ncode\n", 3},
		{"open fence, nothing in it", "### evt-001 | x\n\n~~~\n", 3},
		{"open fence, CRLF", "### evt-001 | x\r\n\r\n```\r\ncode\r\n", 3},
		{"open comment", "### evt-001 | x\n\n<!-- note\n\n**Refs**: none\n", 3},
		{"closed comment", "### evt-001 | x\n\n<!-- note -->\n", 0},
		{"comment closed lines later", "### evt-001 | x\n\n<!--\nnote\n-->\n", 0},
		{"open fence after a closed one", "### evt-001 | x\n\n```\na\n```\n\n```\nb\n", 7},
		{"html kind 6 ends at the blank line append writes", "### evt-001 | x\n\n<div>\n", 0},
		{"fence in a list item ends with the item", "### evt-001 | x\n\n- a:\n  ```\n  code\n", 0},
		{"no block", "### evt-001 | x\n\n**Refs**: none\n", 0},
		{"empty", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := OpenBlockLine([]byte(tt.src)); got != tt.want {
				t.Errorf("OpenBlockLine(%q) = %d, want %d", tt.src, got, tt.want)
			}
		})
	}
}

// prefixInLog feeds src to a LogPrefix, in two reads split at a line
// end (the second may be empty) so that Read's carrying over is used.
func prefixInLog(src string) bool {
	var p LogPrefix
	mid := strings.IndexByte(src[len(src)/2:], '\n') + 1 + len(src)/2
	if mid == len(src)/2 {
		mid = len(src)
	}
	p.Read([]byte(src[:mid]))
	p.Read([]byte(src[mid:]))
	return p.InLog()
}

func TestLogPrefix(t *testing.T) {
	ev := "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Scope**: s\n**Summary**: x\n\n"
	cases := []struct {
		name string
		src  string
		want bool
	}{
		{"the log", "# Changelog\n\n## Event Log\n\n" + ev, true},
		{"Events, any case", "# Changelog\n\n## EVENTS\n\n" + ev, true},
		{"level 1", "# Event Log\n\n" + ev, true},
		{"CRLF", "# Changelog\r\n\r\n## Event Log\r\n\r\n" + strings.ReplaceAll(ev, "\n", "\r\n"), true},
		{"no event log", "# Changelog\n\n" + ev, false},
		{"another section after it", "## Event Log\n\n" + ev + "## Notes\n\n", false},
		{"and the log again", "## Event Log\n\n" + ev + "## Notes\n\n## Events\n\n" + ev, true},
		{"level-3 heading", "## Event Log\n\n" + ev + "### Notes\n\n#### More\n\n", true},
		{"event heading at level 2", "## Event Log\n\n## evt-002 | x\n\n", true},
		{"#tag is text", "## Event Log\n\n" + ev + "#tag\n\n", true},
		{"heading ended by a form feed", "## Event Log\n\n" + ev + "##\fNotes\n\n", false},
		{"indented event log", "  ## Event Log\n\n" + ev, false},
		{"closing marks", "## Event Log ##\n\n" + ev, false},
		{"not ASCII", "## Event Loſ\n\n## Eventſ\n\n" + ev, false},
		{"setext underline", "## Event Log\n\n" + ev + "Notes\n---\n\n", false},
		{"rule after a blank line", "## Event Log\n\n" + ev + "---\n\n" + ev, true},
		{"form feed is not blank", "## Event Log\n\n" + ev + "\f\n---\n\n", false},
		{"fence", "## Event Log\n\n" + ev + "```\ncode\n```\n\n", false},
		{"fence in a list item", "## Event Log\n\n" + ev + "- ~~~\n\n", false},
		{"comment", "## Event Log\n\n" + ev + "<!-- a -->\n\n", false},
		{"indented HTML", "## Event Log\n\n" + ev + "\t<div>\n\n", false},
		{"a closer alone is text", "## Event Log\n\n" + ev + "a --> b\n\n", true},
		{"BOM", "\ufeff# Changelog\n\n## Event Log\n\n" + ev, false},
		{"lone CR", "## Event Log\n\n" + ev + "a\rb\n\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := prefixInLog(c.src); got != c.want {
				t.Errorf("InLog = %v, want %v", got, c.want)
			}
		})
	}
}

// prefixEvents feeds src to a LogPrefix with Each set (as an archive
// if archive), split in two reads as prefixInLog does, and returns the
// headers of the events it handed on and whether it says they are
// exactly the parse's.
func prefixEvents(src string, archive bool) (heads []string, exact bool) {
	p := LogPrefix{Archive: archive, Each: func(e *Event) { heads = append(heads, header(*e)) }}
	mid := strings.IndexByte(src[len(src)/2:], '\n') + 1 + len(src)/2
	if mid == len(src)/2 {
		mid = len(src)
	}
	p.Read([]byte(src[:mid]))
	p.Read([]byte(src[mid:]))
	return heads, p.Exact()
}

// header is what a LogPrefix's Each is handed of e: its heading's.
func header(e Event) string {
	return strings.Join([]string{e.ID, itoa(e.Num), e.Time.String(), e.Agent, e.Type, itoa(e.Level)}, "|")
}

// parsedHeads is header over the events Parse gives for src, up to
// the line (from 1) before.
func parsedHeads(src string, archive bool, before int) []string {
	var opts []Option
	if archive {
		opts = append(opts, Archive())
	}
	var out []string
	for _, e := range Parse("f", []byte(src), opts...).Events {
		if e.Range.Line < before {
			out = append(out, header(e))
		}
	}
	return out
}

func TestLogPrefixEach(t *testing.T) {
	ev := func(h string) string { return h + "\n\n**Scope**: s\n**Summary**: x\n\n" }
	ok := ev("### evt-001 | 2025-02-03 10:00 | a | fix")
	var many strings.Builder // more heading lines than one batch
	for i := range 2*headBatch + 100 {
		many.WriteString(ev(fmt.Sprintf("### evt-%d | 2025-02-03 10:%02d | a%d | fix", i+1, i%60, i%7)))
	}
	cases := []struct {
		name         string
		src          string
		log, archive bool // exact as a log, as an archive
	}{
		{"the log", "# C\n\n## Event Log\n\n" + ok + ev("### evt-002 | 2025-02-03 11:00 | b | Decision"), true, true},
		{"odd headings", "## Event Log\n\n" + ev("#### evt-3 | 2025-02-03 | a") + ev("###\tEVT-4|2025-02-03 10:00|a|fix|x ###") + ev("### evt-x | bad") + ev("## evt-5"), true, true},
		{"CRLF", strings.ReplaceAll("## Event Log\n\n"+ok, "\n", "\r\n"), true, true},
		{"before the log", ok + "## Event Log\n\n" + ok, false, true},
		{"no event log", "# C\n\n" + ok, false, true},
		{"under another section", "## Event Log\n\n" + ok + "## Notes\n\n" + ok, false, true},
		{"setext", "## Event Log\n\nevt-002 | 2025-02-03 10:00 | a | fix\n---\n", false, false},
		{"indented", "## Event Log\n\n   ### evt-002 | 2025-02-03 10:00 | a | fix\n", false, false},
		{"text that starts like one", "## Event Log\n\n" + ok + "evt-001 was wrong\n", false, false},
		{"in a fence", "## Event Log\n\n```\n" + ok + "```\n", false, false},
		{"a fence after the events", "## Event Log\n\n" + ok + "```\ncode\n```\n", true, true},
		{"a comment before one", "## Event Log\n\n<!-- x -->\n\n" + ok, false, false},
		{"BOM", "\ufeff" + ok, false, false},
		{"lone CR", "## Event Log\n\nx\r" + ok, false, false},
		{"many", "## Event Log\n\n" + many.String(), true, true},
		{"many, then a setext heading", "## Event Log\n\n" + many.String() + "evt-9999 | x\n---\n", false, false},
		{"long line", "## Event Log\n\n" + ok + strings.Repeat("x", MaxLineLength+1) + "\n", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, archive := range []bool{false, true} {
				want := c.log
				if archive {
					want = c.archive
				}
				got, exact := prefixEvents(c.src, archive)
				if exact != want {
					t.Errorf("archive %v: Exact = %v, want %v", archive, exact, want)
				}
				if parsed := parsedHeads(c.src, archive, 1<<30); exact && !slices.Equal(got, parsed) {
					t.Errorf("archive %v: Each was handed\n%q\nParse gives\n%q", archive, got, parsed)
				}
			}
		})
	}
}

func TestLogPrefixEvents(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"### evt-001 | x", 1}, {"  ## EVT-1", 1}, {"evt-3 | setext text", 1}, {"#\t# evt-", 1},
		{"**Refs**: evt-001", 0}, {"- evt-001", 0}, {"### evt", 0}, {"", 0},
		{"### evt-1\r### evt-2\revt-3", 3}, {"x\r### evt-2", 1},
	} {
		var p LogPrefix
		p.Read([]byte(c.line))
		if got := p.Events(); got != c.want {
			t.Errorf("Events after %q = %d, want %d", c.line, got, c.want)
		}
	}
}

// FuzzLogPrefix checks the promise memsys log relies on: where TailCut
// offers a cut and a LogPrefix given the lines above says InLog, the
// whole file's events from the cut on are those of the rest parsed
// alone after an "## Event Log" heading, field for field and on the
// same lines; and no file holds more events than LogPrefix.Events
// counts.
func FuzzLogPrefix(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s, uint16(len(s)/3))
	}
	f.Add("# C\n\n## Event Log\n\n### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Scope**: s\n**Summary**: x\n\n## Notes\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n\n**Summary**: y\n", uint16(20))
	f.Fuzz(func(t *testing.T, src string, at uint16) {
		b := []byte(src)
		whole := Parse("f", b)
		var all LogPrefix
		all.Read(b)
		if len(whole.Events) > all.Events() {
			t.Fatalf("%d events, LogPrefix.Events %d", len(whole.Events), all.Events())
		}
		// Where a LogPrefix says Each was handed the parse's events,
		// it was: in a log, those of the lines read, whatever follows.
		for _, archive := range []bool{false, true} {
			if heads, exact := prefixEvents(src, archive); exact {
				if want := parsedHeads(src, archive, 1<<30); !slices.Equal(heads, want) {
					t.Fatalf("archive %v: Each was handed\n%q\nParse gives\n%q", archive, heads, want)
				}
			}
		}
		start, cut := fuzzCut(b, at)
		if cut < 0 {
			return
		}
		from := start + cut
		if heads, exact := prefixEvents(src[:from], false); exact {
			if want := parsedHeads(src, false, bytes.Count(b[:from], []byte("\n"))+1); !slices.Equal(heads, want) {
				t.Fatalf("cut at %d: Each was handed\n%q\nthe whole file has above it\n%q", from, heads, want)
			}
		}
		if !prefixInLog(src[:from]) {
			return
		}
		for _, p := range whole.Problems {
			if p.Kind == KindLineLength {
				return // the caller refuses the file (Incomplete)
			}
		}
		shift := bytes.Count(b[:from], []byte("\n")) - 2
		tail := Parse("f", append([]byte("## Event Log\n\n"), b[from:]...))
		firstLine := shift + 3
		var want, got []string
		show := func(e Event, shift int) string {
			return strings.Join([]string{e.ID, e.Time.String(), e.Agent, e.Type, e.Scope, e.Summary, itoa(e.Range.Line + shift)}, "|")
		}
		for _, e := range whole.Events {
			if e.Range.Line >= firstLine {
				want = append(want, show(e, 0))
			}
		}
		for _, e := range tail.Events {
			got = append(got, show(e, shift))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("cut at %d: the tail has\n%q\nthe whole file\n%q", from, got, want)
		}
	})
}

// fuzzCut is where a fuzz case's window starts (the line holding byte at
// of b, taken modulo its length) and TailCut's cut in it.
func fuzzCut(b []byte, at uint16) (start, cut int) {
	start = int(at) % (len(b) + 1)
	if i := bytes.LastIndexByte(b[:start], '\n'); i >= 0 {
		start = i + 1
	} else {
		start = 0
	}
	return start, TailCut(b[start:])
}
