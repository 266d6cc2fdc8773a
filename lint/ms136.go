package lint

import (
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS136",
		Name:  "control-character",
		Title: "events hold no control characters",
		Doc: "A control character other than tab (an escape sequence pasted from a terminal, " +
			"a form feed) acts on the terminal of whoever prints the event later (memsys log, " +
			"cat), and memsys append and import refuse one; memsys export refuses an event " +
			"holding one rather than write a ledger that import would refuse. Like MS121's " +
			"damaged bytes, it is repaired in place: delete it from the event and commit the " +
			"repair on its own (lint --base reports the edit as MS301 for that commit). A NUL " +
			"byte is MS121's.",
		Bad:      "**Summary**: deploy \\x1b[31mfailed\\x1b[0m (escape bytes)",
		Good:     "**Summary**: deploy failed",
		Severity: diag.Error,
		Visit: func(p *Pass) Visitor {
			return Visitor{State: stateless, Event: func(e *parse.Event) {
				if at, r, ok := ControlAt(e); ok && r != 0 {
					p.Reportf(lineRange(e.Range.File, at), e.ID, "%s holds the control character U+%04X: delete it (import and export refuse it)", e.ID, r)
				}
			}}
		},
	})
}

// ControlAt finds the first control character of e's text that the log
// does not hold (parse.IndexControl): its line in e's file and the
// character. MS136 reports it and export refuses the event, so the two
// agree on every event.
func ControlAt(e *parse.Event) (line int, r byte, ok bool) {
	i := parse.IndexControl(e.Text)
	if i < 0 {
		return 0, 0, false
	}
	return e.Range.Line + strings.Count(e.Text[:i], "\n"), e.Text[i], true
}

// ControlMessage is the advice for the control character r that
// ControlAt found: the rule that reports it (a NUL byte is MS121's).
func ControlMessage(r byte) string {
	rule := "MS136"
	if r == 0 {
		rule = "MS121"
	}
	return fmt.Sprintf("the control character U+%04X, which memsys import refuses: delete it from the log (lint: %s)", r, rule)
}
