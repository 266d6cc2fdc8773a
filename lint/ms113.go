package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// knownFields are the "**Key**:" fields of the seed's event format.
// Parse also reads the aliases Ref, References and Tag.
var knownFields = []string{"scope", "summary", "details", "refs", "ref", "references", "tags", "tag", "supersedes"}

func init() {
	register(&Rule{
		ID:    "MS113",
		Name:  "unknown-field",
		Title: "events use only the seed's fields",
		Doc: "An event has `**Scope**`, `**Summary**`, `**Details**`, `**Refs**` and `**Tags**`. " +
			"Any other `**Key**:` line is kept but ignored by replay, so what it says never reaches " +
			"the graph; it is often a misspelling (`**Ref**`). Fix the spelling, or move the " +
			"information into a `- key: value` bullet under `**Details**`.",
		Bad:      "**Status**: done",
		Good:     "**Details**:\n- status: done",
		Content:  true,
		Severity: diag.Warning,
		Visit:    visitUnknownField,
	})
}

func visitUnknownField(p *Pass) Visitor {
	// A log uses a handful of spellings of its keys: remember each.
	// known memoises the verdict per key as written; a pure cache, kept
	// in State like every closure variable.
	st := struct{ known map[string]bool }{known: map[string]bool{}}
	isKnown := func(key string) bool {
		k, ok := st.known[key]
		if !ok {
			for _, want := range knownFields {
				k = k || parse.KeyIs(key, want)
			}
			st.known[key] = k
		}
		return k
	}
	return Visitor{State: &st, Event: func(e *parse.Event) {
		for _, f := range e.Fields {
			if isKnown(f.Key) {
				continue
			}
			p.Reportf(lineRange(e.Range.File, f.Line), e.ID, "%s has unknown field **%s**: fix the spelling or move it under **Details** as \"- %s: ...\"",
				e.ID, f.Key, parse.NormKey(f.Key))
		}
	}}
}
