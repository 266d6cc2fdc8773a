package mcpserver

import (
	"bytes"
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/lint"
)

// LintIn is memsys_lint's input.
type LintIn struct {
	Fix bool `json:"fix,omitempty" jsonschema:"rewrite stale or drifted derived files first, as memsys lint --fix (never CHANGELOG.md)"`
}

// LintOut is memsys_lint's result: lint's JSON report (docs/lint.md).
type LintOut = lint.JSONReport

func (h *handlers) lint(ctx context.Context, _ *mcp.CallToolRequest, in LintIn) (*mcp.CallToolResult, *LintOut, error) {
	r, err := memory.Lint(ctx, h.cfg.Root, memory.LintOptions{Fix: in.Fix})
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	res := &lint.Result{Diagnostics: append(diag.Diagnostics{}, r.Diagnostics...), Events: r.Events, Roots: 1, Suppressed: r.Suppressed}
	for i := range res.Diagnostics {
		// An agent reads advice in tools and parameters, as in every
		// other message the server gives (internal/base/front).
		if d := &res.Diagnostics[i]; d.MCP != "" {
			d.Message = d.MCP
		}
	}
	res.Diagnostics.Sort()
	// The structured result is exactly lint's JSON printer's; the text
	// is its text printer's.
	out := lint.NewJSONReport(res)
	var txt bytes.Buffer
	if p, err := lint.NewPrinter("text", lint.PrinterOptions{}); err == nil {
		p.Print(&txt, res)
	}
	return textResult(txt.String()), &out, nil
}
