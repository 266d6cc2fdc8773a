package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS127",
		Name:  "decision-conflict",
		Title: "no two live decisions disagree on one attribute",
		Doc: "Two decisions on the same entity and attribute with different values, where the " +
			"later neither Refs nor supersedes the earlier and its `from` is not the earlier's " +
			"value, are a conflict: typically two agents " +
			"decided on two branches and the merge kept both. Replay lets the later one stand " +
			"in graph.md, but context.md lists both under Conflicts until one is superseded. " +
			"Entity and attribute match on their canonical keys (case, `_`, `-` and spaces " +
			"alike). Append a decision that supersedes the wrong one, or Refs it to replace it " +
			"knowingly.",
		Bad:      "### evt-004 | ... | alice | decision\n- entity: api\n- attribute: auth\n- to: jwt\n### evt-005 | ... | bob | decision\n- entity: api\n- attribute: auth\n- to: cookies",
		Good:     "### evt-005 | ... | bob | decision\n- entity: api\n- attribute: auth\n- to: cookies\n**Refs**: evt-004",
		Severity: diag.Warning,
		Run: func(p *Pass) {
			if p.shared.graph == nil {
				return
			}
			cs := p.shared.graph.Conflicts()
			p.reserve(len(cs))
			for _, c := range cs {
				p.Report(diag.Diagnostic{Range: c.Later.Range, Event: c.Later.ID,
					Message: c.Later.ID + " decides " + c.Key + " = " + quoteValue(c.Later.Value) + " but " + c.Earlier.ID +
						" (" + where(c.Earlier.Range, c.Later.Range.File) + ") decided " + quoteValue(c.Earlier.Value) +
						" and neither refers to the other: append a decision that supersedes the wrong one",
					Related: []diag.Range{c.Earlier.Range}})
			}
		},
	})
}
