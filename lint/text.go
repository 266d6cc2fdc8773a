package lint

import (
	"bufio"
	"io"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
)

// TextPrinter writes "file:line:col: severity: message [ID]" lines, each
// diagnostic's detail indented below it, then the summary line.
type TextPrinter struct {
	Color bool
}

const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiDim    = "\x1b[2m"
)

// Print implements Printer.
func (t *TextPrinter) Print(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !t.Color {
			return s
		}
		return code + s + ansiReset
	}
	// Findings on events the base revision already has (lint --base,
	// --staged) come last, at most maxBaselineNotes of them: on a log
	// adopted with years of history they ran to hundreds of lines in
	// the pre-commit hook, and the commit's own errors were lost among
	// them. The summary counts them all; JSON and SARIF list them all.
	ordered := make(diag.Diagnostics, 0, len(r.Diagnostics))
	var notes diag.Diagnostics
	for _, d := range r.Diagnostics {
		if d.Baseline {
			notes = append(notes, d)
		} else {
			ordered = append(ordered, d)
		}
	}
	shown := min(len(notes), maxBaselineNotes)
	ordered = append(ordered, notes[:shown]...)
	for _, d := range ordered {
		sev := d.Severity.String()
		switch {
		case d.Baseline:
			sev = paint(ansiDim, "note")
		case d.Severity == diag.Error:
			sev = paint(ansiRed, sev)
		case d.Severity == diag.Warning:
			sev = paint(ansiYellow, sev)
		}
		bw.WriteString(paint(ansiBold, d.Range.String()) + ": " + sev + ": " + d.Message)
		if d.Rule != "" {
			bw.WriteString(" " + paint(ansiDim, "["+d.Rule+"]"))
		}
		bw.WriteByte('\n')
		if d.Detail != "" {
			for _, l := range strings.Split(strings.TrimRight(d.Detail, "\n"), "\n") {
				bw.WriteString("    " + l + "\n")
			}
		}
	}
	bw.WriteString(summaryShowing(r, shown) + "\n")
	return bw.Flush()
}

// maxBaselineNotes bounds the notes TextPrinter prints for findings the
// base revision already has.
const maxBaselineNotes = 10
