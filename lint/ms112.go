package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// RequiredDetails are the detail keys the seed's Event Types table asks
// each type to include. "a|b" means either key: a dependency names
// itself by `dependency`, `package` or `entity`, as replay reads it.
var RequiredDetails = map[string][]string{
	"decision":   {"from", "to", "rationale"},
	"create":     {"entity", "path", "purpose"},
	"modify":     {"entity", "changes"},
	"delete":     {"entity", "reason"},
	"test":       {"target", "result"},
	"fix":        {"symptom", "root_cause", "resolution"},
	"dependency": {"dependency|package|entity", "version"},
	"blocker":    {"blocked_entity", "blocking_entity"},
	"milestone":  {"name", "criteria_met"},
	"escalation": {"reason", "requested_action"},
	"handoff":    {"from_agent", "to_agent"},
	"commitment": {"owner", "due"},
}

func init() {
	register(&Rule{
		ID:    "MS112",
		Name:  "detail-keys",
		Title: "events carry the detail keys their type asks for",
		Doc: "The seed's Event Types table lists what each type includes: a decision its " +
			"`from`, `to` and `rationale`; a blocker its `blocked_entity` and `blocking_entity`; " +
			"a fix its `symptom`, `root_cause` and `resolution`; and so on. Replay builds graph " +
			"nodes and edges from these keys, so a missing one leaves the graph incomplete. " +
			"Keys match case-insensitively, with spaces and dashes as underscores. A create of a " +
			"task, milestone or decision (`- type: task`) needs no `path`; events `memsys adopt` " +
			"wrote (tagged `adopted`) carry only what the hand-kept graph held. Add the " +
			"missing `- key: value` bullets under `**Details**`.",
		Bad:      "### evt-014 | ... | decision\n**Details**:\n- to: postgres",
		Good:     "### evt-014 | ... | decision\n**Details**:\n- from: sqlite\n- to: postgres\n- rationale: concurrent writers",
		Content:  true,
		Severity: diag.Warning,
		Visit:    visitDetailKeys,
	})
}

func visitDetailKeys(p *Pass) Visitor {
	// missing is scratch, emptied for each event; it is State only so
	// that every closure variable is.
	var st struct{ missing []string }
	return Visitor{State: &st, Event: func(e *parse.Event) {
		st.missing = st.missing[:0]
		if slices.Contains(e.Tags, "adopted") {
			// memsys adopt records a hand-kept row as it was: it has no
			// path or purpose to give that the team did not write.
			return
		}
		for _, k := range RequiredDetails[e.Type] {
			if k == "path" && !hasPath(e) {
				continue
			}
			if !hasAny(e, k) {
				st.missing = append(st.missing, strings.ReplaceAll(k, "|", " or "))
			}
		}
		if len(st.missing) == 0 {
			return
		}
		noun := "detail"
		if len(st.missing) > 1 {
			noun = "details"
		}
		first, _, _ := strings.Cut(st.missing[0], " or ")
		p.Reportf(fieldRange(e, "details"), e.ID, "%s (%s) has no %s %s: add \"- %s: ...\" under **Details**",
			e.ID, e.Type, strings.Join(st.missing, ", "), noun, first)
	}}
}

// hasPath reports whether a create event makes something that lives at a
// path: a component or document (the default type). A task, milestone
// or decision node has no path to give.
func hasPath(e *parse.Event) bool {
	t, _ := e.Detail("type")
	switch strings.ToLower(strings.TrimSpace(t)) {
	case "", "component", "document":
		return true
	}
	return false
}

// hasAny reports whether e has one of the "|"-separated keys.
func hasAny(e *parse.Event, keys string) bool {
	for {
		k, rest, more := strings.Cut(keys, "|")
		if _, ok := e.Detail(k); ok {
			return true
		}
		if !more {
			return false
		}
		keys = rest
	}
}

// requiredKeys lists the keys RequiredDetails names for typ, each
// alternative on its own.
func requiredKeys(typ string) []string {
	var out []string
	for _, k := range RequiredDetails[typ] {
		out = append(out, strings.Split(k, "|")...)
	}
	return out
}

// RequiredDetailsHelp is the table memsys append --help prints: each
// type and the detail keys MS112 asks it for, in parse.EventTypes
// order ("a|b" printed "a or b").
func RequiredDetailsHelp() string {
	var b strings.Builder
	for _, t := range parse.EventTypes {
		keys := RequiredDetails[t]
		if len(keys) == 0 {
			continue
		}
		ks := make([]string, len(keys))
		for i, k := range keys {
			alts := strings.Split(k, "|")
			ks[i] = "--detail " + alts[0] + "=..."
			if len(alts) > 1 {
				ks[i] += " (or " + strings.Join(alts[1:], "=, ") + "=)"
			}
		}
		fmt.Fprintf(&b, "  %-11s %s\n", t, strings.Join(ks, " "))
	}
	return b.String()
}
