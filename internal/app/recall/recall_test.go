package recall

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestGraphFileEqualsReplay: the pack read from a fresh graph.md (only
// the rows it can reach) is the pack from a full replay, for many
// entities, every depth up to 3 and a small and a large budget; and
// the replay through the history cache (resumed from the checkpoint
// the first replay wrote) is the replay without it.
func TestGraphFileEqualsReplay(t *testing.T) {
	fresh := memoryOf(t, 1500)
	stale := t.TempDir()
	src, err := os.ReadFile(filepath.Join(fresh, parse.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(stale, parse.LogFile), src, 0o644); err != nil {
		t.Fatal(err)
	}
	gsrc, err := os.ReadFile(filepath.Join(fresh, parse.GraphFile))
	if err != nil {
		t.Fatal(err)
	}
	g, err := materialize.ParseGraph(gsrc)
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range g.Nodes {
		if i%53 != 0 {
			continue
		}
		for depth := 0; depth <= 3; depth++ {
			for _, budget := range []int{60, DefaultBudget} {
				q := Query{Entities: []string{n.Name}, Depth: depth, Budget: budget}
				a, b := pack(t, fresh, q, true), pack(t, stale, q, false)
				if a != b {
					t.Fatalf("%q depth %d budget %d:\ngraph.md: %s\nreplay:   %s", n.Name, depth, budget, a, b)
				}
				os.Setenv(workspace.EnvNoCache, "1")
				c := pack(t, stale, q, false)
				os.Unsetenv(workspace.EnvNoCache)
				if c != b {
					t.Fatalf("%q depth %d budget %d:\ncached: %s\ncold:   %s", n.Name, depth, budget, b, c)
				}
			}
		}
	}
}

func pack(t *testing.T, root string, q Query, fromFile bool) string {
	t.Helper()
	s, err := OpenEvents(root)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.graph(root, q)
	if err != nil {
		t.Fatal(err)
	}
	if s.FromGraphFile != fromFile {
		t.Fatalf("%s: read graph.md %v, want %v", root, s.FromGraphFile, fromFile)
	}
	p, err := Build(g, s.Event, q)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// TestEventLookup: every event is found by its ID, also unpadded, and
// a missing one is not.
func TestEventLookup(t *testing.T) {
	root := memoryOf(t, 500)
	s, err := OpenEvents(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"evt-001", "evt-1", "evt-250", "evt-500"} {
		e, ok := s.Event(id)
		if !ok || e.Num != eventNum(id) {
			t.Errorf("%s: not found", id)
		}
	}
	for _, id := range []string{"evt-501", "evt-0", "nope"} {
		if _, ok := s.Event(id); ok {
			t.Errorf("%s: found", id)
		}
	}
	if last := s.lastEvent(); last != "evt-500" {
		t.Errorf("last event %q", last)
	}
}

// TestQueryResolved: the pack names the asked-for nodes as the graph
// does, once each, so the header never repeats stray spaces or case.
func TestQueryResolved(t *testing.T) {
	g, _ := materialize.Replay(parse.Parse(parse.LogFile, []byte("# Changelog\n\n## Event Log\n\n"+
		"### evt-001 | 2026-03-01 09:00 | alice | create\n\n**Scope**: billing\n**Summary**: Add billing\n**Details**:\n- entity: billing\n- path: billing/\n- purpose: invoices\n")).Events)
	none := func(string) (*parse.Event, bool) { return nil, false }
	p, err := Build(g, none, Query{Entities: []string{"  Billing ", "billing"}, Depth: 1, Budget: DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Query) != 1 || p.Query[0] != "billing" {
		t.Errorf("Query = %q, want [billing]", p.Query)
	}
	if md := string(Markdown(p)); !strings.HasPrefix(md, "# Recall: billing\n") {
		t.Errorf("header: %q", strings.SplitN(md, "\n", 2)[0])
	}
}

// TestEventLookupIndented: an event heading indented by one to three
// spaces is an event heading to the parser (lint, show and log take
// it), so the lookup finds it: recall cited such an event as "not in
// the log or the archive", without its time, agent, type or summary.
// Four spaces make an indented code block, no event.
func TestEventLookupIndented(t *testing.T) {
	var log strings.Builder
	log.WriteString("# Changelog\n\n## Event Log\n")
	for i, indent := range []string{"", " ", "  ", "   ", ""} {
		fmt.Fprintf(&log, "\n%s### evt-%03d | 2026-03-01 09:0%d | alice | modify\n\n**Scope**: billing\n**Summary**: Change %d\n\n**Details**:\n- entity: billing\n- changes: c%d\n\n---\n", indent, i+1, i, i+1, i+1)
	}
	log.WriteString("\n    ### evt-009 | 2026-03-01 09:09 | alice | modify\n")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, parse.LogFile), []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := OpenEvents(root)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		id := fmt.Sprintf("evt-%03d", i)
		if e, ok := s.Event(id); !ok || e.Num != i || e.Summary != fmt.Sprintf("Change %d", i) {
			t.Errorf("%s: not found, or not its event", id)
		}
	}
	if _, ok := s.Event("evt-009"); ok {
		t.Error("evt-009, in an indented code block, found")
	}
	p, err := Recall(root, Query{Entities: []string{"billing"}, Depth: 0, Budget: DefaultBudget})
	if err != nil {
		t.Fatal(err)
	}
	if md := string(Markdown(p)); strings.Contains(md, "not in the log") || len(p.Events) != 2 {
		t.Errorf("pack cites an event it could not find, or not evt-001 and evt-005:\n%s", md)
	}
}

// TestMarkdownHeaderCounts: the pack's header names its budget and size
// in words, "1 word" for one (it said "budget 1 words").
func TestMarkdownHeaderCounts(t *testing.T) {
	for _, c := range []struct {
		budget, words int
		want          string
	}{
		{1, 1, "| budget 1 word | 1 word -->"},
		{3000, 0, "| budget 3000 words | 0 words -->"},
		{2, 12, "| budget 2 words | 12 words -->"},
	} {
		md := string(Markdown(&Pack{Query: []string{"x"}, Depth: 1, Budget: c.budget, Words: c.words}))
		if !strings.Contains(md, c.want) {
			t.Errorf("budget %d, words %d: header\n%s\nwant it to hold %q", c.budget, c.words, md, c.want)
		}
	}
}
