package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS135",
		Name:  "closes-loop",
		Title: "closes names a blocker, escalation or commitment",
		Doc: "The detail `closes: evt-NNN` closes an open loop, and only a blocker, an " +
			"escalation or a commitment opens one. Naming any other event (a handoff, a " +
			"decision) closes nothing: replay notes `not an open loop`, and the loop the writer " +
			"meant stays in Open Loops. Name the loop; to point at another event, list it in " +
			"Refs. memsys append and import refuse such a closes. An event already committed " +
			"cannot be edited (the log is append-only), which is why this is a warning: append " +
			"an event that closes the right loop, and supersede the wrong one if it misleads. " +
			"Closing a loop that is already closed is no finding (replay notes it; two branches " +
			"may both close one), and a closes naming a later or missing event is MS129's.",
		Bad:      "### evt-003 | ... | handoff\n...\n### evt-006 | ... | milestone\n- closes: evt-003",
		Good:     "### evt-005 | ... | commitment\n...\n### evt-006 | ... | milestone\n- closes: evt-005",
		Content:  true,
		Severity: diag.Warning,
		Visit: func(p *Pass) Visitor {
			return Visitor{State: stateless, Event: func(e *parse.Event) {
				for _, id := range materialize.Closes(e) {
					n := evtNum(id)
					f, seen := p.shared.first.get(n)
					if n == 0 || n == e.Num || !seen || int(f.pos) >= p.shared.pos {
						continue // not an earlier event: MS129
					}
					typ := typeName(f.typ)
					if materialize.IsLoop(typ) {
						continue
					}
					noun := materialize.TypeNoun(typ)
					if f.typ == otherType {
						noun = "an event of an unknown type"
					}
					p.Reportf(closesAt(e), e.ID, "%s closes %s, %s, which opens no loop: close %s, or Refs %s instead", e.ID, id, noun, materialize.LoopTypesText(), id)
				}
			}}
		},
	})
}
