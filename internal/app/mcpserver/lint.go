package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/lint"
)

// LintIn is memsys_lint's input.
type LintIn struct {
	Fix bool `json:"fix,omitempty" jsonschema:"rewrite stale or drifted derived files first, as memsys lint --fix (never CHANGELOG.md)"`
}

// LintFinding is one finding, with the fields of memsys lint --format
// json (docs/lint.md).
type LintFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	EndLine  int    `json:"endLine"`
	Event    string `json:"event"`
	Message  string `json:"message"`
	Detail   string `json:"detail"`
}

// LintOut is memsys_lint's result: lint's JSON report.
type LintOut struct {
	Diagnostics []LintFinding `json:"diagnostics"`
	Summary     struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Events   int `json:"events"`
	} `json:"summary"`
}

func (h *handlers) lint(ctx context.Context, _ *mcp.CallToolRequest, in LintIn) (*mcp.CallToolResult, *LintOut, error) {
	r, err := memory.Lint(ctx, h.cfg.Root, memory.LintOptions{Fix: in.Fix})
	if err != nil {
		return nil, nil, toolErr(err)
	}
	res := &lint.Result{Diagnostics: append(diag.Diagnostics{}, r.Diagnostics...), Events: r.Events, Roots: 1, Suppressed: r.Suppressed}
	res.Diagnostics.Sort()
	// The structured result is exactly lint's JSON printer's; the text
	// is its text printer's.
	var js, txt bytes.Buffer
	if err := (lint.JSONPrinter{}).Print(&js, res); err != nil {
		return nil, nil, toolErr(err)
	}
	out := &LintOut{}
	if err := json.Unmarshal(js.Bytes(), out); err != nil {
		return nil, nil, toolErr(err)
	}
	if p, err := lint.NewPrinter("text", lint.PrinterOptions{}); err == nil {
		p.Print(&txt, res)
	}
	return textResult(txt.String()), out, nil
}
