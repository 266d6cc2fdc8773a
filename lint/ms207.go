package lint

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
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
		p.Reportf(diag.Range{File: parse.AgentsFile}, "", "cannot read %s: %v", parse.AgentsFile, err)
	case !hasProtocolHeading(src):
		p.Reportf(lineRange(parse.AgentsFile, 1), "", "%s has no \"## Memory System Protocol\" section: add it (see memsys init)", parse.AgentsFile)
	}
}

// hasProtocolHeading looks for a heading "Memory System Protocol" read
// through goldmark's block structure: the seed shows the section inside
// a fence, and a copy of that documentation is not the section itself.
func hasProtocolHeading(src []byte) bool {
	for _, h := range parse.Headings(src) {
		if strings.EqualFold(strings.TrimSpace(h.Text), "Memory System Protocol") {
			return true
		}
	}
	return false
}
