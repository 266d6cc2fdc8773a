package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestCuratedAll: what a derived file holds that every file regen
// writes (the one at its horizon, the current one) lacks; Curated is
// the case of one.
func TestCuratedAll(t *testing.T) {
	node := func(name string) *materialize.Node {
		return &materialize.Node{Name: name, Type: "component", Status: "active", Created: "evt-001"}
	}
	graph := func(names ...string) []byte {
		g := &materialize.Graph{}
		for _, n := range names {
			g.Nodes = append(g.Nodes, node(n))
		}
		return materialize.RenderGraph(g)
	}
	src, then, now := graph("cache", "billing", "api"), graph("cache", "api"), graph("api")
	if got, want := Curated(parse.GraphFile, src, now), []string{"node cache", "node billing"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Curated = %q, want %q", got, want)
	}
	if got, want := CuratedAll(parse.GraphFile, src, then, now), []string{"node billing"}; !reflect.DeepEqual(got, want) {
		t.Errorf("CuratedAll = %q, want %q", got, want)
	}
	ctx := []byte("## Active Constraints\n\n- No Fridays\n- Use JSON\n")
	if got, want := CuratedAll(parse.ContextFile, ctx, []byte("## Active Constraints\n\n- Use JSON — evt-002\n"), nil), []string{`constraint "No Fridays"`}; !reflect.DeepEqual(got, want) {
		t.Errorf("CuratedAll(context) = %q, want %q", got, want)
	}
}

// TestStaleRows: a stale file's finding that names rows the current
// replay lacks is reworded with what the caller found memsys did not
// write: none gives regen's plain advice; other findings, and files the
// caller cannot judge, are left alone.
func TestStaleRows(t *testing.T) {
	stale := ".memory/graph.md event horizon is evt-005 but the last event is evt-006"
	ds := diag.Diagnostics{
		{Rule: "MS202", Range: diag.Range{File: parse.GraphFile}, Message: stale + ", and it holds " + rowsText([]string{"node cache"}) + ": " + adoptAdvice.String()},
		{Rule: "MS203", Range: diag.Range{File: parse.ContextFile}, Message: "ctx, and it holds " + rowsText([]string{`constraint "x"`}) + ": " + adoptAdvice.String()},
		{Rule: "MS204", Range: diag.Range{File: parse.GraphFile}, Message: "drift, and it holds " + rowsText([]string{"node cache"}) + ": " + adoptAdvice.String()},
	}
	StaleRows(ds, func(f string) ([]string, bool) {
		if f == parse.ContextFile {
			return nil, false
		}
		return nil, true
	})
	if got, want := ds[0].Message, stale+": run memsys regen"; got != want {
		t.Errorf("MS202 = %q, want %q", got, want)
	}
	if !strings.HasSuffix(ds[1].Message, adoptAdvice.String()) || !strings.HasSuffix(ds[2].Message, adoptAdvice.String()) {
		t.Errorf("left alone: %q, %q", ds[1].Message, ds[2].Message)
	}
	ds[0].Message = stale + ", and it holds " + rowsText([]string{"node cache", "node billing"}) + ": " + adoptAdvice.String()
	StaleRows(ds[:1], func(string) ([]string, bool) { return []string{"node billing"}, true })
	if got, want := ds[0].Message, stale+", and it holds 1 item no replay of the log produces (node billing): "+adoptAdvice.String(); got != want {
		t.Errorf("MS202 = %q, want %q", got, want)
	}
}

// TestStaleLogRewritten: the adopt advice of a stale file's finding is
// replaced whole for the file the caller names (the log was edited
// before its horizon), on both fronts; other files and rules are left
// alone.
func TestStaleLogRewritten(t *testing.T) {
	stale := ".memory/graph.md event horizon is evt-005 but the last event is evt-006"
	adopt := ", and it holds " + rowsText([]string{"node cache"}) + ": " + adoptAdvice.String()
	ds := diag.Diagnostics{
		{Rule: "MS202", Range: diag.Range{File: parse.GraphFile}, Message: stale + adopt},
		{Rule: "MS203", Range: diag.Range{File: parse.ContextFile}, Message: "ctx" + adopt},
		{Rule: "MS204", Range: diag.Range{File: parse.GraphFile}, Message: "drift" + adopt},
	}
	StaleLogRewritten(ds, parse.GraphFile, front.Sprintf("restore them, or run %s", front.Regen.Word()))
	if got, want := ds[0].Message, stale+": restore them, or run memsys regen"; got != want {
		t.Errorf("MS202 = %q, want %q", got, want)
	}
	if got, want := ds[0].MCP, stale+": restore them, or run memsys_regen"; got != want {
		t.Errorf("MS202 over MCP = %q, want %q", got, want)
	}
	if ds[1].Message != "ctx"+adopt || ds[2].Message != "drift"+adopt {
		t.Errorf("left alone: %q, %q", ds[1].Message, ds[2].Message)
	}
}

// TestStaleHandAttribute: a graph.md behind the log whose only hand
// edit is an attribute (no whole row) is named with it and advised
// adopt (MS202), as regen, which refuses to drop it, decides: the rule
// used to compare whole rows only and advise regen.
func TestStaleHandAttribute(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "stale-attribute", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	ds := check(t, memFS{"CHANGELOG.md": read("CHANGELOG.md"), parse.GraphFile: read("graph.md")})
	want := ".memory/graph.md event horizon is evt-001 but the last event is evt-002, and it holds 1 item no replay of the log produces (node alpha attribute owner=bob): " + adoptAdvice.String()
	for _, d := range ds {
		if d.Rule == "MS202" {
			if d.Message != want {
				t.Errorf("MS202 = %q, want %q", d.Message, want)
			}
			return
		}
	}
	t.Errorf("no MS202 finding in %v", ds)
}

// TestHandKeptAdvice: hand-kept content that holds attributes of edges,
// which no event carries, is not advised adopt alone (adopt fails on
// them): edge attributes alone get EdgeAttrAdvice, mixed content both;
// StaleRows still finds and rewrites such a finding.
func TestHandKeptAdvice(t *testing.T) {
	node, edge := "node alpha attribute owner=ada", "edge alpha -implements-> size attribute note=x"
	for _, c := range []struct {
		items []string
		want  front.Text
		edge  bool
	}{
		{[]string{node, "edge a -blocks-> b"}, adoptAdvice, false},
		{[]string{edge}, EdgeAttrAdvice, true},
		{[]string{node, edge}, mixedAdvice, true},
	} {
		got, e := HandKeptAdvice(c.items)
		if got.String() != c.want.String() || e != c.edge {
			t.Errorf("HandKeptAdvice(%q) = %q, %v; want %q, %v", c.items, got, e, c.want, c.edge)
		}
	}
	if a := mixedAdvice.String(); !strings.Contains(a, "run memsys adopt") || !strings.Contains(a, EdgeAttrNote.String()) {
		t.Errorf("mixed advice %q names not both adopt and the edge attributes", a)
	}
	if a := EdgeAttrAdvice.For(front.MCP); !strings.Contains(a, "memsys_regen") {
		t.Errorf("edge advice over MCP %q names no memsys_regen", a)
	}
	stale := ".memory/graph.md event horizon is evt-005 but the last event is evt-006"
	ds := diag.Diagnostics{{Rule: "MS202", Range: diag.Range{File: parse.GraphFile}, Message: stale + ", and it holds " + rowsText([]string{edge}) + ": " + EdgeAttrAdvice.String()}}
	StaleRows(ds, func(string) ([]string, bool) { return nil, true })
	if got, want := ds[0].Message, stale+": run memsys regen"; got != want {
		t.Errorf("MS202 = %q, want %q", got, want)
	}
}
