package lint

import (
	"slices"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS132",
		Name:  "unknown-detail-key",
		Title: "typed events use only the detail keys replay reads",
		Doc: "Replay reads given detail keys for each event type (docs/materialize.md, " +
			"\"Rules by event type\"); any other key on a typed event, and a bullet without " +
			"a `key:`, is ignored without a word, so a misspelt `dependancy` or a `- **Note** " +
			"text` bullet changes nothing in the graph. Use one of the type's keys, or " +
			"`- note: ...` for text that is only for readers. The keys `memsys import` writes " +
			"to say where an event came from (`ledger_id`, `ledger_type`, `ts`) are accepted " +
			"on every type.",
		Bad:      "### evt-022 | ... | dependency\n**Details**:\n- dependancy: jose",
		Good:     "### evt-022 | ... | dependency\n**Details**:\n- dependency: jose",
		Severity: diag.Warning,
		Visit:    visitDetailNames,
	})
}

// notes are the keys every event may carry for readers only.
var notes = []string{"note", "notes"}

func visitDetailNames(p *Pass) Visitor {
	rel := materialize.RelationKeys()
	return Visitor{State: stateless, Event: func(e *parse.Event) {
		known, typed := materialize.DetailKeys[e.Type]
		if !typed {
			return
		}
		for _, d := range e.Details {
			r := lineRange(e.Range.File, d.Line)
			if d.Key == "" {
				p.Reportf(r, e.ID, "detail bullet in %s has no key: write it as \"- key: value\" (\"- note: ...\" for text)", e.ID)
				continue
			}
			k := d.Norm()
			if slices.Contains(known, k) || slices.Contains(notes, k) || slices.Contains(materialize.EveryEventKeys, k) || slices.Contains(materialize.ProvenanceKeys, k) || slices.Contains(requiredKeys(e.Type), k) ||
				(e.Type == "create" || e.Type == "modify" || e.Type == "handoff") && slices.Contains(rel, k) {
				continue
			}
			p.Reportf(r, e.ID, "detail %q is not a key %s %s event uses, so replay ignores it: use one of %s, or \"- note: ...\"",
				d.Key, words.Article(e.Type), e.Type, keyList(known))
		}
	}}
}

func keyList(ks []string) string {
	out := ""
	for i, k := range ks {
		if i > 0 {
			out += ", "
		}
		out += k
	}
	return out
}
