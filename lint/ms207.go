package lint

import (
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS207",
		Name:  "agents-protocol",
		Title: "the agents file has the memory system protocol section",
		Doc: "Agents learn the memory's rules (append-only, one-way flow, rebuild don't repair) " +
			"from the `## Memory System Protocol` section of AGENTS.md at the memory root, the " +
			"seed's Layer 0. Without it an agent edits derived files or rewrites history. Add " +
			"the section from the seed's AGENTS.md Integration (`memsys init` writes it).",
		Bad:      "# AGENTS.md\n\nBuild with make.",
		Good:     "# AGENTS.md\n\n## Memory System Protocol\n\nThis project uses an event-sourced memory system...",
		Severity: diag.Warning,
		Run:      runAgentsProtocol,
	})
}

func runAgentsProtocol(p *Pass) {
	src, err := p.ReadFile(parse.AgentsFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Reportf(diag.Range{File: parse.AgentsFile}, "", "%s is missing: add one with a \"## Memory System Protocol\" section", parse.AgentsFile)
	case err != nil:
		p.Reportf(diag.Range{File: parse.AgentsFile}, "", "cannot read %s: %s", parse.AgentsFile, readReason(parse.AgentsFile, err))
	default:
		// The advice is what memsys init does with the file (it reads
		// it with the same parse.FindAgentsProtocol), or what to do
		// first when init cannot.
		pr := parse.FindAgentsProtocol(src)
		var what front.Text
		switch {
		case pr.Heading:
			return
		case pr.Begin >= 0:
			what = front.Sprintf("run %s, which restores it between the memsys markers", front.Init.Word())
		case pr.Marker:
			what = front.Sprintf("it has %q but no %q after it, so %s cannot restore it: delete the begin marker line, then run %s", parse.ProtocolBegin, parse.ProtocolEnd, front.Init.Word(), front.Init.Word())
		default:
			what = front.Sprintf("run %s to add it", front.Init.Word())
		}
		p.Reportf(lineRange(parse.AgentsFile, 1), "", "%s has no \"## Memory System Protocol\" section: %s", parse.AgentsFile, what)
	}
}
