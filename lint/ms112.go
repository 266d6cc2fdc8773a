package lint

import (
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// RequiredDetails are the detail keys the seed's Event Types table asks
// each type to include.
var RequiredDetails = map[string][]string{
	"decision":   {"from", "to", "rationale"},
	"create":     {"entity", "path", "purpose"},
	"modify":     {"entity", "changes"},
	"delete":     {"entity", "reason"},
	"test":       {"target", "result"},
	"fix":        {"symptom", "root_cause", "resolution"},
	"dependency": {"entity", "version"},
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
			"task, milestone or decision (`- type: task`) needs no `path`. Add the " +
			"missing `- key: value` bullets under `**Details**`.",
		Bad:      "### evt-014 | ... | decision\n**Details**:\n- to: postgres",
		Good:     "### evt-014 | ... | decision\n**Details**:\n- from: sqlite\n- to: postgres\n- rationale: concurrent writers",
		Content:  true,
		Severity: diag.Warning,
		Visit:    visitDetailKeys,
	})
}

func visitDetailKeys(p *Pass) Visitor {
	var missing []string
	return Visitor{Event: func(e *parse.Event) {
		missing = missing[:0]
		for _, k := range RequiredDetails[e.Type] {
			if k == "path" && !hasPath(e) {
				continue
			}
			if _, ok := e.Detail(k); !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) == 0 {
			return
		}
		noun := "detail"
		if len(missing) > 1 {
			noun = "details"
		}
		p.Reportf(fieldRange(e, "details"), e.ID, "%s (%s) has no %s %s: add \"- %s: ...\" under **Details**",
			e.ID, e.Type, strings.Join(missing, ", "), noun, missing[0])
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
