package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
)

func init() {
	register(&Rule{
		ID:    "MS138",
		Name:  "section-after-log",
		Title: "nothing but events follows the Event Log",
		Doc: "Events are appended at the end of CHANGELOG.md, so a `#` or `##` section after " +
			"the last event (an appendix kept by hand) would put them in that section: " +
			"`memsys append`, `adopt` and the MCP append refuse to write. Reporting it here " +
			"lets lint and status say so before a writer fails. Move the section above " +
			"`## Event Log`.",
		Bad:      "## Event Log\n### evt-001 | ...\n...\n## Appendix",
		Good:     "## Appendix\n...\n## Event Log\n### evt-001 | ...",
		Severity: diag.Warning,
		Run:      runSectionAfterLog,
	})
}

// runSectionAfterLog reports the heading of a section after the last
// event of the log (parse.Log.AfterLogLine): append refuses to write
// there, so lint warns before a writer fails.
func runSectionAfterLog(p *Pass) {
	if p.Log == nil || p.Log.AfterLogLine == 0 {
		return
	}
	p.Reportf(lineRange(p.Log.File, p.Log.AfterLogLine), "", "section %q follows the Event Log, where appended events go: move it above \"## Event Log\"", p.Log.AfterLogHeading)
}
