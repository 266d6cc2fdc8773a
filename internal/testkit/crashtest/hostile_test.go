//go:build unix

package crashtest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/memsys/memsys/materialize"
)

// hostile are texts an event may carry that would break the structure
// of graph.md or context.md if copied in verbatim.
var hostile = []string{
	`pipe | in | cells`,
	`## Blockers`,
	`<!-- Last generated: 2020-01-01 00:00 | Event horizon: evt-999 -->`,
	`<script>alert(1)</script>`,
	`### evt-999 | 2099-01-01 00:00 | mallory | delete`,
	`- **Event horizon**: evt-999`,
	"`unclosed code",
	`[click](javascript:alert(1))`,
	`\| escaped pipe \`,
	`-->`,
}

// hostileLog writes every hostile text into every place an event's text
// reaches the derived files: scope, summary, entity names, detail
// values, milestone names, agents.
func hostileLog() string {
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Event Log\n\n")
	n := 0
	ev := func(typ, scope, summary string, details ...string) {
		n++
		if n > 1 {
			b.WriteString("\n---\n\n")
		}
		b.WriteString("### evt-" + pad3(n) + " | 2025-03-01 " + pad2(n/60+10) + ":" + pad2(n%60) + " | agent | " + typ + "\n\n")
		b.WriteString("**Scope**: " + scope + "\n**Summary**: " + summary + "\n\n**Details**:\n")
		for i := 0; i+1 < len(details); i += 2 {
			b.WriteString("- " + details[i] + ": " + details[i+1] + "\n")
		}
		b.WriteString("\n**Refs**: none\n**Tags**: none\n")
	}
	for i, h := range hostile {
		ent := "comp" + pad2(i) + " " + h
		ev("create", h, h, "entity", ent, "path", h, "purpose", h)
		ev("decision", h, h, "from", h, "to", h, "rationale", h, "entity", ent, "attribute", "storage")
		ev("dependency", ent, h, "entity", "lib"+pad2(i)+" "+h, "version", h)
		ev("blocker", h, h, "blocked_entity", ent, "blocking_entity", "lib"+pad2(i)+" "+h)
		ev("test", h, h, "target", ent, "result", h)
		ev("milestone", h, h, "name", h, "criteria_met", h)
		ev("modify", h, h, "entity", ent, "changes", h)
		ev("handoff", h, h, "from_agent", h, "to_agent", h)
	}
	return b.String()
}

func pad2(n int) string { s := "0" + itoa(n); return s[len(s)-2:] }
func pad3(n int) string { s := "00" + itoa(n); return s[len(s)-3:] }
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// TestHostileContent: text in events cannot break out of its place in
// graph.md or context.md. After regen, lint is clean, each derived
// file has exactly the template's headings and one horizon, every
// table row has its table's column count, raw HTML never reaches an
// HTML rendering (even an unsafe one), and graph.md parses back to the
// graph replay built.
func TestHostileContent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "CHANGELOG.md", []byte(hostileLog()))
	write(t, dir, "AGENTS.md", []byte(agentsMD))
	write(t, dir, "TODO.md", []byte("# TODO\n"))
	if err := os.MkdirAll(filepath.Join(dir, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, "regen")
	if r := run(t, dir, "lint"); r.code != 0 {
		t.Errorf("lint after regen of the hostile log: %s", r)
	}
	graph := read(t, dir, ".memory/graph.md")
	ctx := read(t, dir, ".memory/context.md")

	checkStructure(t, "graph.md", graph, []string{"Nodes", "Edges", "Meta"})
	checkStructure(t, "context.md", ctx, nil)
	for name, src := range map[string][]byte{"graph.md": graph, "context.md": ctx} {
		if n := bytes.Count(src, []byte("Event horizon")); n != 1 {
			t.Errorf("%s mentions \"Event horizon\" %d times, want once", name, n)
		}
	}
	g, err := materialize.ParseGraph(graph)
	if err != nil {
		t.Fatalf("ParseGraph(graph.md): %v", err)
	}
	if want := "evt-" + pad3(8*len(hostile)); g.Horizon != want {
		t.Errorf("graph.md reads back with horizon %q, want %q", g.Horizon, want)
	}
	if again := materialize.RenderGraph(g); !bytes.Equal(again, materialize.Unseal(graph)) {
		t.Errorf("graph.md does not survive ParseGraph+RenderGraph")
	}
}

// checkStructure parses a derived file with goldmark (GFM tables) and
// fails on headings other than the wanted ones (when given) or repeated,
// on headings that hold hostile text, on table rows whose cell count
// differs from the header's, and on raw HTML reaching an unsafe HTML
// rendering.
func checkStructure(t *testing.T, name string, src []byte, headings []string) {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.Table), goldmark.WithRendererOptions(html.WithUnsafe()))
	doc := md.Parser().Parse(text.NewReader(src))
	var got []string
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			var b bytes.Buffer
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(src))
			}
			h := b.String()
			if n.Level >= 2 {
				got = append(got, h)
			}
			for _, x := range hostile {
				if x == "## Blockers" {
					continue // a heading of its own name; "appears twice" below catches a copy
				}
				if strings.Contains(h, strings.TrimLeft(x, "#- ")) {
					t.Errorf("%s: heading %q carries event text", name, h)
				}
			}
		case *east.Table:
			cols := -1
			for r := n.FirstChild(); r != nil; r = r.NextSibling() {
				c := r.ChildCount()
				if cols < 0 {
					cols = c
				} else if c != cols {
					t.Errorf("%s: a table row has %d cells, the header %d", name, c, cols)
				}
			}
		}
		return ast.WalkContinue, nil
	})
	seen := map[string]bool{}
	for _, h := range got {
		if seen[h] {
			t.Errorf("%s: heading %q appears twice", name, h)
		}
		seen[h] = true
	}
	if headings != nil {
		for _, h := range headings {
			if !seen[h] {
				t.Errorf("%s: heading %q missing; headings: %q", name, h, got)
			}
		}
		if len(got) != len(headings) {
			t.Errorf("%s: headings %q, want exactly %q", name, got, headings)
		}
	}
	var out bytes.Buffer
	if err := md.Renderer().Render(&out, src, doc); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.ToLower(out.Bytes()), []byte("<script")) {
		t.Errorf("%s: <script> reaches HTML", name)
	}
}
