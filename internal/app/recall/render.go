package recall

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
)

// Markdown renders the pack for an agent to read. Bookkeeping (horizon,
// depth, budget, words) sits in an HTML comment, which a rendered view
// hides and the word count skips.
func Markdown(p *Pack) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Recall: %s\n\n", strings.Join(p.Query, ", "))
	fmt.Fprintf(&b, "<!-- Event horizon: %s | depth %d | budget %s | %s -->\n", or(p.Horizon, "none"), p.Depth, words.Plural(p.Budget, "word"), words.Plural(p.Words, "word"))
	for _, e := range p.Entities {
		fmt.Fprintf(&b, "\n## %s\n\n", e.Name)
		fmt.Fprintf(&b, "- %s, %s\n", or(e.Type, "?"), or(e.Status, "?"))
		if len(e.Attrs) > 0 {
			kv := make([]string, len(e.Attrs))
			for i, a := range e.Attrs {
				kv[i] = a.Key + ": " + a.Value
			}
			fmt.Fprintf(&b, "- %s\n", strings.Join(kv, "; "))
		}
		fmt.Fprintf(&b, "- created: %s\n", refText(e.Created))
		if e.LastEvent != nil && (e.Created == nil || e.LastEvent.ID != e.Created.ID) {
			fmt.Fprintf(&b, "- last changed: %s\n", refText(e.LastEvent))
		}
	}
	section := func(title string, n int, line func(i int) string) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "\n## %s\n\n", title)
		for i := range n {
			b.WriteString("- " + line(i) + "\n")
		}
	}
	section("Open blockers", len(p.Blockers), func(i int) string {
		x := p.Blockers[i]
		return x.From + " blocks " + x.To + " since " + refText(x.Since)
	})
	section("Decisions", len(p.Decisions), func(i int) string {
		x := p.Decisions[i]
		s := x.Name + " (" + x.Entity + ")"
		if x.From != "" || x.To != "" {
			s += ": " + or(x.From, "?") + " → " + or(x.To, "?")
		}
		if x.Rationale != "" {
			s += ", because " + x.Rationale
		}
		return s + " — " + refText(x.Event)
	})
	section("Neighbours", len(p.Neighbours), func(i int) string {
		x := p.Neighbours[i]
		return fmt.Sprintf("%s (%s, %s) — depth %d via %s", x.Name, or(x.Type, "?"), or(x.Status, "?"), x.Depth, x.Via)
	})
	section("Recent events", len(p.Events), func(i int) string {
		return refText(&p.Events[i])
	})
	// One line for what the budget cut, so a short budget is not spent
	// on saying so section by section.
	var cut []string
	for _, c := range []struct {
		n          int
		one, other string
	}{
		{p.Omitted.Blockers, "open blocker", "open blockers"},
		{p.Omitted.Decisions, "decision", "decisions"},
		{p.Omitted.Neighbours, "neighbour", "neighbours"},
		{p.Omitted.Events, "event", "events"},
	} {
		switch {
		case c.n == 1:
			cut = append(cut, "1 "+c.one)
		case c.n > 1:
			cut = append(cut, fmt.Sprintf("%d %s", c.n, c.other))
		}
	}
	if len(cut) > 0 {
		fmt.Fprintf(&b, "\nNot shown (word budget): %s.\n", strings.Join(cut, ", "))
	}
	return b.Bytes()
}

// refText is an event as one line: "evt-012 (2026-03-01 10:00, alice,
// fix): summary", or the bare ID when the event is not in the history.
func refText(r *EventRef) string {
	if r == nil {
		return "none"
	}
	if r.Type == "" {
		return r.ID + " (not in the log or the archive)"
	}
	return fmt.Sprintf("%s (%s, %s, %s): %s", r.ID, r.Time, r.Agent, r.Type, r.Summary)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
