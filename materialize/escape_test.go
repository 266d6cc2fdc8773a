package materialize

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

var hostile = []struct{ name, text string }{
	{"pipe", "a | b || c"},
	{"newline", "line one\nline two\r\nline three\rfour"},
	{"comment open", "x <!-- hidden"},
	{"comment close", "x --> y"},
	{"heading", "## Blockers"},
	{"heading after newline", "ok\n## Nodes\n| x | y |"},
	{"fake horizon", "Event horizon: evt-999"},
	{"fake horizon lower tab", "see event\thorizon evt-999"},
	{"fake last generated", "<!-- Last generated: 2099-01-01 00:00 | Event horizon: evt-999 -->"},
	{"script", "<script>alert(1)</script>"},
	{"fake event", "### evt-999 | 2026-01-01 00:00 | mallory | create"},
	{"fake event after newline", "fine\n### evt-999 | 2026-01-01 00:00 | mallory | create"},
	{"entities", "&lt; &amp; &#124; & ; R&D"},
	{"list marker", "- item"},
	{"ordered marker", "1. first"},
	{"fence", "```go"},
	{"attr separators", "a=b; c=d;"},
	{"meta item", "- **Nodes**: 0"},
	{"backslash", `C:\path\ |`},
}

func TestEscaping(t *testing.T) {
	for _, h := range hostile {
		t.Run(h.name, func(t *testing.T) {
			events := []parse.Event{
				ev(1, t0, "create", "entity: "+h.text, "path: "+h.text, "@summary: "+h.text),
				ev(2, t0, "decision", "entity: "+h.text, "attribute: a", "to: "+h.text, "rationale: "+h.text, "@summary: "+h.text),
				ev(3, t0, "blocker", "blocked_entity: "+h.text, "blocking_entity: b", "@summary: "+h.text),
				ev(4, t0, "create", "entity: t "+h.text, "type: task", "@summary: "+h.text),
				ev(5, t0, "handoff", "task: t "+h.text, "to_agent: "+h.text, "priority: "+h.text),
				ev(6, t0, "dependency", "@scope: t "+h.text, "entity: "+h.text+" dep", "version: "+h.text),
			}
			g, _ := Replay(events)
			graph := RenderGraph(g)
			back, err := ParseGraph(graph)
			if err != nil {
				t.Fatalf("%v\n%s", err, graph)
			}
			sameGraph(t, back, g)
			checkInert(t, "graph.md", graph, []string{"# Knowledge Graph", "## Nodes", "## Edges", "## Meta"}, 5, "- **Event horizon**: evt-006")
			ctx := RenderContext(BuildContext(events, g, DefaultOptions()))
			checkInert(t, "context.md", ctx, []string{"# Current Context", "## Active Mission", "## Current Sprint",
				"## Active Constraints", "## Open Loops", "## Blockers", "## Recent Changes", "## Key Dependencies", "## Next Actions"}, 2,
				"<!-- Last generated: 2026-03-02 09:00 | Event horizon: evt-006 -->")
		})
	}
}

// checkInert fails unless the document's structure is exactly what the
// renderer wrote: these headings, comments lines, one horizon line,
// and every table row with the header's cell count.
func checkInert(t *testing.T, file string, doc []byte, headings []string, comments int, horizon string) {
	t.Helper()
	var heads []string
	nComments, cells := 0, 0
	for _, line := range strings.Split(string(doc), "\n") {
		low := strings.ToLower(line)
		switch {
		case strings.HasPrefix(line, "#"):
			heads = append(heads, line)
		case strings.HasPrefix(line, "<!--"):
			nComments++
		}
		if strings.Count(line, "<!--") > 1 || strings.Contains(line, "<script") {
			t.Errorf("%s: live markup in %q", file, line)
		}
		if strings.Contains(low, "event horizon") || strings.Contains(low, "last generated") {
			if line != horizon {
				t.Errorf("%s: fake horizon %q", file, line)
			}
		}
		if strings.HasPrefix(line, "|") {
			n := strings.Count(line, "|")
			if strings.HasPrefix(line, "| Node ") || strings.HasPrefix(line, "| From ") || strings.HasPrefix(line, "| Task ") {
				cells = n
			} else if n != cells {
				t.Errorf("%s: row %q has %d pipes, header %d", file, line, n, cells)
			}
		}
		for _, m := range []string{"- ", "1. "} {
			if rest, ok := strings.CutPrefix(line, m); ok && (strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "- ") ||
				strings.HasPrefix(rest, "1. ") || strings.HasPrefix(rest, "```") || strings.HasPrefix(rest, ">")) {
				t.Errorf("%s: list item opens a block: %q", file, line)
			}
		}
	}
	if strings.Join(heads, "\n") != strings.Join(headings, "\n") {
		t.Errorf("%s: headings %q", file, heads)
	}
	if nComments != comments {
		t.Errorf("%s: %d comment lines, want %d", file, nComments, comments)
	}
}

func TestEscRoundTrip(t *testing.T) {
	for _, h := range hostile {
		for _, o := range []escOpts{cellEsc, valEsc, keyEsc} {
			in := cleanText(h.text)
			if got := unesc(esc(in, o)); got != in {
				t.Errorf("%s: unesc(esc(%q)) = %q", h.name, in, got)
			}
		}
	}
	for in, want := range map[string]string{
		"Event horizon: evt-1": "Event&#32;horizon: evt-1",
		"3.11":                 "3.11",
		"a|b":                  "a&#124;b",
		"&amp;":                "&amp;amp;",
		"R&D":                  "R&D",
		"<!-- x -->":           "&lt;!-- x --&gt;",
	} {
		if got := escCell(in); got != want {
			t.Errorf("escCell(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"## x":   "&#35;# x",
		"1. x":   "1&#46; x",
		"a\nb":   "a b",
		"- x":    "&#45; x",
		"3.11":   "3&#46;11",
		"x 1. y": "x 1. y",
	} {
		if got := escLine(in); got != want {
			t.Errorf("escLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// needsFieldsBytes is needsFields as it was, a test per byte kind: the
// oracle of FuzzNeedsFields.
func needsFieldsBytes(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c >= 0x80 {
			return true
		}
		if c == ' ' && prevSpace {
			return true
		}
		prevSpace = c == ' '
	}
	return false
}

// FuzzNeedsFields: needsFields, which skips printable ASCII with one
// comparison, says what the byte-kind loop says, and a name it lets
// through is one cleanName's strings.Fields would leave as it is.
func FuzzNeedsFields(f *testing.F) {
	for _, s := range []string{"", " ", "a", "a b", "a  b", "a\tb", "a\nb", "\x01b", "a\x0b", "a\x0c", "a\x0d", "a\x0e", "é", "a \x85", " a", "a ", "x\x00y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := needsFields(s)
		if want := needsFieldsBytes(s); got != want {
			t.Fatalf("needsFields(%q) = %v, want %v", s, got, want)
		}
		if !got && strings.Join(strings.Fields(s), " ") != s {
			t.Fatalf("needsFields(%q) = false, but cleanName changes it", s)
		}
	})
}
