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
	for _, d := range r.Diagnostics {
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
	bw.WriteString(summary(r) + "\n")
	return bw.Flush()
}
