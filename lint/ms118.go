package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS118",
		Name:  "free-text",
		Title: "event bodies hold only fields and detail bullets",
		Doc: "Text in an event that is neither a `**Key**:` field, its continuation, nor a " +
			"detail bullet is kept in the event but read by nothing: replay, context and search " +
			"all skip it. Put it in the Summary or in a `- note: ...` detail. A field line right " +
			"after a detail bullet, with no blank line between them, continues that bullet " +
			"(markdown's lazy continuation), so its refs or tags are read as the bullet's text: " +
			"it is reported too; put a blank line before it.",
		Bad:      "### evt-017 | ... | fix\nFixed it by restarting.\n**Scope**: api",
		Good:     "### evt-017 | ... | fix\n**Scope**: api\n**Details**:\n- note: fixed by restarting",
		Content:  true,
		Severity: diag.Warning,
		Problems: []parse.Kind{parse.KindFreeText},
	})
}
