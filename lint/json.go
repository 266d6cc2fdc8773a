package lint

import (
	"encoding/json"
	"io"

	"github.com/memsys/memsys/internal/base/diag"
)

// JSONPrinter writes one JSON object:
//
//	{"diagnostics":[{"rule":..,"severity":..,"file":..,"line":..,"column":..,
//	  "endLine":..,"event":..,"message":..,"detail":..}],
//	 "summary":{"errors":N,"warnings":N,"events":N}}
//
// Field names are stable and documented in docs/lint.md. Every field is
// always present; unknown positions are 0 and "diagnostics" is [] when
// empty, never null.
type JSONPrinter struct{}

// JSONDiagnostic is one finding in the JSON format (docs/lint.md).
type JSONDiagnostic struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	EndLine  int    `json:"endLine"`
	Event    string `json:"event"`
	Message  string `json:"message"`
	Detail   string `json:"detail"`
	// State is "baseline" for a finding the base revision already had
	// (not counted in the summary); absent otherwise.
	State string `json:"state,omitempty"`
}

// JSONSummary counts a JSON report's findings and events.
type JSONSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Events   int `json:"events"`
	// Baseline counts the findings .memsys-baseline.json hid (not in
	// diagnostics nor in the counts above), so a program knows they
	// exist; absent when none.
	Baseline int `json:"baseline,omitempty"`
}

// JSONReport is the JSON format's document: what JSONPrinter writes and
// what the MCP tool memsys_lint returns as its structured result.
type JSONReport struct {
	Diagnostics []JSONDiagnostic `json:"diagnostics"`
	Summary     JSONSummary      `json:"summary"`
}

func state(d diag.Diagnostic) string {
	if d.Baseline {
		return "baseline"
	}
	return ""
}

// NewJSONReport builds the JSON document of r.
func NewJSONReport(r *Result) JSONReport {
	out := JSONReport{Diagnostics: make([]JSONDiagnostic, 0, len(r.Diagnostics))}
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, JSONDiagnostic{
			Rule: d.Rule, Severity: d.Severity.String(),
			File: d.Range.File, Line: d.Range.Line, Column: d.Range.Col, EndLine: d.Range.EndLine,
			Event: d.Event, Message: d.Message, Detail: d.Detail, State: state(d),
		})
	}
	out.Summary.Errors, out.Summary.Warnings = r.Diagnostics.Count()
	out.Summary.Events = r.Events
	out.Summary.Baseline = r.Suppressed
	return out
}

// Print implements Printer.
func (JSONPrinter) Print(w io.Writer, r *Result) error {
	out := NewJSONReport(r)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
