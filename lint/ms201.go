package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS201",
		Name:  "memory-dir",
		Title: "the .memory folder exists for the core and full tiers",
		Doc: "The Core and Full tiers keep their derived views in `.memory/` at the memory " +
			"root. The tier is `tier` in .memsys.json, or read from the files present (TODO.md " +
			"or graph.md mean Full). Run `memsys regen` to create the folder and its files.",
		Bad:      "CHANGELOG.md, TODO.md and no .memory/",
		Good:     "CHANGELOG.md, TODO.md, .memory/graph.md, .memory/context.md",
		Severity: diag.Error,
		Run:      runMemoryDir,
	})
}

func runMemoryDir(p *Pass) {
	if t := p.Tier(); t != "mvp" && !p.Exists(parse.MemoryDir) {
		p.Reportf(diag.Range{File: parse.MemoryDir}, "", "%s/ is missing (%s tier): run %s", parse.MemoryDir, t, front.Regen.Word())
	}
}
