package materialize

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

func ids(s *Section) []string {
	var out []string
	for _, it := range s.Items {
		out = append(out, it[strings.LastIndex(it, " — ")+len(" — "):])
	}
	return out
}

func TestRecentWindow(t *testing.T) {
	// 30 events an hour apart: the 48-hour window holds all 30 (more
	// than the last 20), newest first, capped at 25.
	var events []parse.Event
	for i := 1; i <= 30; i++ {
		events = append(events, ev(i, fmt.Sprintf("2026-03-%02d %02d:00", 1+(i-1)/24, (i-1)%24), "modify", "entity: x"))
	}
	g, _ := Replay(events)
	s := BuildContext(events, g, DefaultOptions()).Section(SecRecent)
	if got := ids(s); len(got) != 25 || got[0] != "evt-030" || got[24] != "evt-006" || s.More != 5 {
		t.Errorf("got %q more %d", got, s.More)
	}
	// A 2-hour window: the last 20 events win.
	s = BuildContext(events, g, Options{WindowHours: 2}).Section(SecRecent)
	if got := ids(s); len(got) != 20 || got[19] != "evt-011" || s.More != 0 {
		t.Errorf("2h window: got %q more %d", got, s.More)
	}
	// The window counts from the newest timestamp, not the last event,
	// and lists by log position: a late entry with an earlier stamp
	// still shows above the events before it.
	evs := []parse.Event{
		ev(1, "2026-01-01 00:00", "modify", "entity: x"),
		ev(2, "2026-05-01 00:00", "modify", "entity: x"),
		ev(3, "2026-04-30 12:00", "modify", "entity: x"),
	}
	g, _ = Replay(evs)
	s = BuildContext(evs, g, Options{WindowHours: 48, WindowEvents: 1}).Section(SecRecent)
	if got := ids(s); !slices.Equal(got, []string{"evt-003", "evt-002"}) {
		t.Errorf("newest-first window: %q", got)
	}
	if s.Items[1] != "2026-05-01 00:00 — modify event 2 — evt-002" {
		t.Errorf("line %q", s.Items[0])
	}
}

func TestNextActionsPrecedes(t *testing.T) {
	events := []parse.Event{
		ev(1, t0, "create", "entity: deploy", "type: task", "after: test"),
		ev(2, t0, "create", "entity: test", "type: task", "after: build"),
		ev(3, t0, "create", "entity: build", "type: task"),
		ev(4, t0, "create", "entity: docs", "type: task", "status: planned"),
		ev(5, t0, "create", "entity: blocked one", "type: task"),
		ev(6, t0, "blocker", "blocked_entity: blocked one", "blocking_entity: build"),
		ev(7, t0, "create", "entity: loop a", "type: task", "precedes: loop b"),
		ev(8, t0, "create", "entity: loop b", "type: task", "precedes: loop a"),
	}
	g, _ := Replay(events)
	c := BuildContext(events, g, DefaultOptions())
	var names []string
	for _, it := range c.Section(SecNext).Items {
		names = append(names, it[:strings.Index(it, " — ")])
	}
	want := []string{"build", "test", "deploy", "docs", "loop a", "loop b"}
	if !slices.Equal(names, want) {
		t.Errorf("next actions %q, want %q", names, want)
	}
	if got := c.Section(SecBlockers).Items; !slices.Equal(got, []string{"build blocks blocked one — evt-006"}) {
		t.Errorf("blockers %q", got)
	}
	if got := c.Section(SecSprint).Items; len(got) != 6 || !strings.Contains(got[3], "| blocked one | — | — | blocked | build |") {
		t.Errorf("sprint %q", got)
	}
}

func TestCapsAndBudget(t *testing.T) {
	var events []parse.Event
	long := strings.Repeat("word ", 100)
	for i := 1; i <= 40; i++ {
		events = append(events,
			ev(2*i-1, t0, "decision", fmt.Sprintf("entity: c%d", i), "attribute: a", "@summary: "+long),
			ev(2*i, t0, "dependency", fmt.Sprintf("@scope: c%d", i), fmt.Sprintf("entity: d%d", i)))
	}
	g, _ := Replay(events)
	c := BuildContext(events, g, DefaultOptions())
	out := RenderContext(c)
	if n := countWords(out); n > 3000 {
		t.Errorf("%d words over the budget", n)
	}
	s := c.Section(SecConstraints)
	if len(s.Items) != 10 || s.More != 30 || !strings.Contains(string(out), "- … and 30 more\n") {
		t.Errorf("constraints: %d items, %d more", len(s.Items), s.More)
	}
	if !strings.HasSuffix(s.Items[0], " … — evt-079") {
		t.Errorf("item not shortened: %q", s.Items[0])
	}
	// A small budget cuts Recent Changes first, down to one item.
	c = BuildContext(events, g, Options{ContextWords: 400})
	if r := c.Section(SecRecent); len(r.Items) != 1 || r.More != 79 {
		t.Errorf("recent under budget: %d items, %d more", len(r.Items), r.More)
	}
	if d := c.Section(SecDeps); len(d.Items) >= 15 {
		t.Errorf("deps not cut: %d", len(d.Items))
	}
	// Determinism: the same input renders the same bytes.
	if string(RenderContext(BuildContext(events, g, DefaultOptions()))) != string(out) {
		t.Error("two renders differ")
	}
}

func TestMissionAndConstraints(t *testing.T) {
	events := []parse.Event{
		ev(1, t0, "decision", "entity: db", "attribute: engine", "to: sqlite", "@summary: Use SQLite"),
		ev(2, t0, "milestone", "name: MVP", "@summary: MVP shipped"),
		ev(3, t0, "decision", "entity: db", "attribute: engine", "to: postgres", "@summary: Move to Postgres"),
	}
	g, _ := Replay(events)
	c := BuildContext(events, g, DefaultOptions())
	if got := c.Section(SecMission).Items; !slices.Equal(got, []string{"Milestone: MVP shipped — evt-002", "Latest decision: Move to Postgres — evt-003"}) {
		t.Errorf("mission %q", got)
	}
	if got := c.Section(SecConstraints).Items; !slices.Equal(got, []string{"db.engine: Move to Postgres — evt-003"}) {
		t.Errorf("constraints %q (the superseded decision must not show)", got)
	}
}

// TestShortenPlain: the no-allocation path of shorten gives what the
// Fields-and-Join path gives.
func TestShortenPlain(t *testing.T) {
	long := strings.Repeat("word ", itemWords+1)
	for _, s := range []string{"", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "é b", "a\u00a0b",
		strings.TrimSpace(long), strings.TrimSpace(strings.Repeat("w ", itemWords)), strings.Repeat("x", itemBytes+1)} {
		f := strings.Fields(s)
		slow := shorten(" " + s + "\t") // always the slow path
		if plainWords(s, itemWords) && len(s) <= itemBytes {
			if got := shorten(s); got != s || strings.Join(f, " ") != s || got != slow {
				t.Errorf("shorten(%q) = %q, slow path %q", s, got, slow)
			}
		} else if got := shorten(s); got != slow {
			t.Errorf("shorten(%q) = %q, want %q", s, got, slow)
		}
	}
}
