package lint

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/diag"
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
	src, err := p.ReadFile(AgentsFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.Reportf(diag.Range{File: AgentsFile}, "", "%s is missing: add one with a \"## Memory System Protocol\" section", AgentsFile)
	case err != nil:
		p.Reportf(diag.Range{File: AgentsFile}, "", "cannot read %s: %v", AgentsFile, err)
	case !hasProtocolHeading(src):
		p.Reportf(lineRange(AgentsFile, 1), "", "%s has no \"## Memory System Protocol\" section: add it (see memsys init)", AgentsFile)
	}
}

// hasProtocolHeading looks for an ATX heading "Memory System Protocol"
// outside fenced code blocks: the seed shows the section inside a fence,
// and a copy of that documentation is not the section itself.
func hasProtocolHeading(src []byte) bool {
	var fence []byte
	for len(src) > 0 {
		l := src
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			src = nil
		}
		l = bytes.TrimRight(l, " \t\r")
		t := bytes.TrimLeft(l, " ")
		if len(l)-len(t) > 3 {
			continue
		}
		if fence != nil {
			if bytes.HasPrefix(t, fence) && len(bytes.Trim(t, string(fence[:1]))) == 0 {
				fence = nil
			}
			continue
		}
		if bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~")) {
			n := 0
			for n < len(t) && t[n] == t[0] {
				n++
			}
			fence = t[:n]
			continue
		}
		if len(t) == 0 || t[0] != '#' {
			continue
		}
		h := bytes.TrimLeft(t, "#")
		if len(t)-len(h) > 6 || len(h) == 0 || (h[0] != ' ' && h[0] != '\t') {
			continue
		}
		h = bytes.TrimSpace(bytes.TrimRight(bytes.TrimSpace(h), "#"))
		if bytes.EqualFold(h, []byte("Memory System Protocol")) {
			return true
		}
	}
	return false
}
