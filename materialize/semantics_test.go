package materialize

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestSemanticsGolden replays each log of testdata/semantics, written
// for one of issue 12's rules, and compares graph.md, context.md and
// the notes replay gives each event with the goldens beside it. Every
// prefix of every log must also replay the same when streamed, with
// the supersessions predicted from the bytes (and the prediction must
// hold on these hand-written logs).
func TestSemanticsGolden(t *testing.T) {
	logs, _ := filepath.Glob("testdata/semantics/*.md")
	if len(logs) < 5 {
		t.Fatalf("found %d logs", len(logs))
	}
	for _, path := range logs {
		name := strings.TrimSuffix(filepath.Base(path), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			l := parse.Parse("CHANGELOG.md", src)
			if len(l.Problems) > 0 {
				t.Fatalf("problems: %v", l.Problems)
			}
			base := strings.TrimSuffix(path, ".md")
			render := func(evs []parse.Event) (graph, ctx, notes []byte) {
				g, changes := Replay(evs)
				var b bytes.Buffer
				for _, c := range changes {
					for _, n := range c.Notes {
						fmt.Fprintf(&b, "%s: %s\n", c.Event, n)
					}
				}
				return RenderGraph(g), RenderContext(BuildContext(evs, g, DefaultOptions())), b.Bytes()
			}
			graph, ctx, notes := render(l.Events)
			// Line endings never change a byte of the output.
			crlf := parse.Parse("CHANGELOG.md", bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")))
			if g2, c2, n2 := render(crlf.Events); !bytes.Equal(g2, graph) || !bytes.Equal(c2, ctx) || !bytes.Equal(n2, notes) {
				t.Error("CRLF input renders differently")
			}
			golden(t, base+".graph.golden", graph)
			golden(t, base+".context.golden", ctx)
			golden(t, base+".notes.golden", notes)
			if name == "conflict-resolved" {
				_, before, _ := render(l.Events[:3])
				golden(t, base+".at-evt-003.context.golden", before)
			}
			for n := 1; n <= len(l.Events); n++ {
				cut := src[:l.Events[n-1].Range.EndOffset]
				g, c, _ := render(l.Events[:n])
				x := NewReplayer(DefaultOptions())
				x.Expect(parse.ScanSupersedes("CHANGELOG.md", cut))
				parse.Stream("CHANGELOG.md", cut, func(e *parse.Event) { x.Apply(e) })
				if !x.Exact() {
					t.Fatalf("prefix %d: the predicted supersessions did not hold: %v", n, x.Seen())
				}
				sg, sc := x.Render()
				if !bytes.Equal(sg, g) || !bytes.Equal(sc, c) {
					t.Fatalf("prefix %d: streamed replay differs\n%s\n%s", n, sc, c)
				}
			}
		})
	}
}

// TestP0Binding: a P0 decision 10,000 events and years older than the
// horizon stays in Active Constraints, first, while the P1 decisions
// after it are capped (docs: P0 items are exempt from caps and the
// budget).
func TestP0Binding(t *testing.T) {
	events := []parse.Event{ev(1, "2020-01-01 09:00", "decision", "entity: api", "attribute: auth", "to: mtls",
		"priority: P0", "@summary: All traffic uses mutual TLS")}
	for i := 2; i <= 10001; i++ {
		prio := "P1"
		if i%2 == 0 {
			prio = "P3"
		}
		day := 2 + i/24
		ts := fmt.Sprintf("%04d-%02d-%02d %02d:00", 2020+day/336, 1+day/28%12, 1+day%28, i%24)
		events = append(events, ev(i, ts, "decision", "entity: svc"+fmt.Sprint(i), "attribute: a", "to: x", "priority: "+prio))
	}
	g, _ := Replay(events)
	c := BuildContext(events, g, DefaultOptions())
	s := c.Section(SecConstraints)
	if len(s.Items) == 0 || !strings.HasPrefix(s.Items[0], "api.auth: All traffic uses mutual TLS — evt-001") {
		t.Fatalf("P0 decision not first in Active Constraints: %q", s.Items)
	}
	if s.More == 0 {
		t.Error("the P1 decisions were not capped")
	}
	// A budget too small for anything else still keeps the P0 item.
	small := DefaultOptions()
	small.ContextWords = 50
	s = BuildContext(events, g, small).Section(SecConstraints)
	if len(s.Items) != 1 || !strings.Contains(s.Items[0], "evt-001") {
		t.Fatalf("budget cut the P0 decision: %q", s.Items)
	}
}

// TestBudgetDropsLowPriorityFirst: when over budget, P3 items go
// before P2, P2 before P1, whatever the section order says.
func TestBudgetDropsLowPriorityFirst(t *testing.T) {
	var events []parse.Event
	for i := 1; i <= 20; i++ {
		prio := []string{"P1", "P2", "P3", "P1"}[i%4]
		events = append(events, ev(i, fmt.Sprintf("2026-03-01 %02d:00", i), "decision", "entity: e"+fmt.Sprint(i), "attribute: a", "to: x",
			"priority: "+prio, "@summary: "+prio+" decision with a long summary of several words to fill the budget"))
	}
	g, _ := Replay(events)
	opt := DefaultOptions()
	full := BuildContext(events, g, opt)
	opt.ContextWords = countWords(RenderContext(full)) - 60
	c := BuildContext(events, g, opt)
	kept, all := map[Priority]int{}, map[Priority]int{}
	for _, title := range []string{SecRecent, SecConstraints} {
		s, f := c.Section(title), full.Section(title)
		for i := range s.Items {
			kept[s.prio(i)]++
		}
		for i := range f.Items {
			all[f.prio(i)]++
		}
	}
	if kept[P3] == all[P3] || kept[P1] != all[P1] || kept[P2] != all[P2] && kept[P3] > 0 {
		t.Errorf("kept %v of %v: P3 items must go first, then P2, before any P1", kept, all)
	}
}

func TestParsePriority(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Priority
		ok   bool
	}{
		{"P0", P0, true}, {"p3", P3, true}, {" P2 ", P2, true}, {"critical", P0, true}, {"High", P1, true},
		{"medium", P2, true}, {"normal", P2, true}, {"low", P3, true}, {"P4", P1, false}, {"urgent", P1, false}, {"", P1, false},
	} {
		if got, ok := ParsePriority(c.in); got != c.want || ok != c.ok {
			t.Errorf("ParsePriority(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestCountItems: status counts the open loops of a fresh context.md;
// the count must be the replay's, cuts included.
func TestCountItems(t *testing.T) {
	var events []parse.Event
	for i := 1; i <= 14; i++ {
		events = append(events, ev(i, fmt.Sprintf("2026-03-01 %02d:00", i), "commitment", "owner: a", "due: 2026-03-09"))
	}
	g, _ := Replay(events)
	for _, words := range []int{3000, 120} {
		opt := DefaultOptions()
		opt.ContextWords = words
		src := RenderContext(BuildContext(events, g, opt))
		if n, ok := CountItems(src, SecLoops); !ok || n != 14 {
			t.Errorf("words %d: CountItems = %d, %v; want 14\n%s", words, n, ok, src)
		}
		if n, ok := CountItems(src, SecConflicts); !ok || n != 0 {
			t.Errorf("words %d: conflicts = %d, %v", words, n, ok)
		}
		// A CRLF checkout (core.autocrlf) of the same file.
		crlf := bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))
		if n, ok := CountItems(crlf, SecLoops); !ok || n != 14 {
			t.Errorf("words %d: CRLF: CountItems = %d, %v; want 14", words, n, ok)
		}
	}
	if _, ok := CountItems([]byte("# Something else\n"), SecLoops); ok {
		t.Error("not a context.md, counted anyway")
	}
}

// TestTypeNoun: the words append and lint use for the event a closes
// detail names.
func TestTypeNoun(t *testing.T) {
	for typ, want := range map[string]string{
		"handoff":  "a handoff",
		"archive":  "an archive",
		"decision": "a decision",
		"launch":   `an event of type "launch"`,
		"":         "an event with no type",
	} {
		if got := TypeNoun(typ); got != want {
			t.Errorf("TypeNoun(%q) = %q, want %q", typ, got, want)
		}
	}
	if got, want := LoopTypesText(), "a blocker, escalation or commitment"; got != want {
		t.Errorf("LoopTypesText() = %q, want %q", got, want)
	}
}

// TestNames: every field replay reads as naming an event counts, by
// number, and text that only looks like one does not.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		name string
		ev   parse.Event
		id   string
		want bool
	}{
		{"refs", parse.Event{Refs: []string{"evt-002", "evt-007"}}, "evt-007", true},
		{"refs, short", parse.Event{Refs: []string{"evt-7"}}, "evt-007", true},
		{"supersedes", parse.Event{Supersedes: []string{"EVT-007"}}, "evt-7", true},
		{"closes", parse.Event{Details: []parse.Detail{{Key: "closes", Value: "evt-002, evt-7"}}}, "evt-007", true},
		{"closes, key spelt otherwise", parse.Event{Details: []parse.Detail{{Key: "Closes", Value: "`evt-007`"}}}, "evt-007", true},
		{"another event", parse.Event{Refs: []string{"evt-070"}, Supersedes: []string{"evt-0071"}, Details: []parse.Detail{{Key: "closes", Value: "evt-17"}}}, "evt-007", false},
		{"another detail", parse.Event{Details: []parse.Detail{{Key: "entity", Value: "evt-007"}}}, "evt-007", false},
		{"nothing", parse.Event{}, "evt-007", false},
	} {
		if got := Names(&c.ev, c.id); got != c.want {
			t.Errorf("%s: Names(%q) = %v, want %v", c.name, c.id, got, c.want)
		}
	}
}
