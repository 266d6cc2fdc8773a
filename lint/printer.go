package lint

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
)

// Result is what one lint run found, over one or more memory roots.
type Result struct {
	Diagnostics diag.Diagnostics // sorted with Diagnostics.Sort
	Events      int              // events checked, archive included
	Roots       int              // memory roots checked
	// Suppressed counts the findings baseline files matched, which
	// are not printed; BaselineFiles names those files as the output
	// names every path (none: BaselineFile).
	Suppressed    int
	BaselineFiles []string
	// Counted, when set, is what the summary line says was checked in
	// place of the event count (audit: "2 commits audited").
	Counted string
	// Command names the command whose findings these are, as the job
	// summary's heading shows it ("memsys audit"); "" is lint's.
	Command string
}

// Printer writes a Result in one output format. Each format is a small
// type in its own file (the shape of golangci-lint's pkg/printers).
type Printer interface {
	Print(w io.Writer, r *Result) error
}

// Formats lists the --format values.
var Formats = []string{"text", "json", "github", "sarif"}

// PrinterOptions carry what some formats need from the environment,
// read by the command, never by the printers.
type PrinterOptions struct {
	Color       bool      // text: ANSI colour (only on a terminal, never with NO_COLOR)
	StepSummary io.Writer // github: $GITHUB_STEP_SUMMARY, nil when unset
	Version     string    // sarif: tool version
}

// NewPrinter returns the printer for format.
func NewPrinter(format string, opt PrinterOptions) (Printer, error) {
	switch format {
	case "text", "":
		return &TextPrinter{Color: opt.Color}, nil
	case "json":
		return &JSONPrinter{}, nil
	case "github":
		return &GitHubPrinter{StepSummary: opt.StepSummary}, nil
	case "sarif":
		return &SARIFPrinter{Version: opt.Version}, nil
	}
	return nil, fmt.Errorf("unknown format %q: use %s", format, strings.Join(Formats, ", "))
}

// summary is the one-line count every human-facing format ends with.
func summary(r *Result) string { return summaryShowing(r, -1) }

// summaryShowing is summary for a printer that showed only the first
// shown of the notes on events the base revision already has (-1: all).
func summaryShowing(r *Result, shown int) string {
	e, w := r.Diagnostics.Count()
	s := words.Plural(r.Events, "event")
	if r.Counted != "" {
		s = r.Counted
	}
	if r.Roots > 1 {
		s = words.Plural(r.Roots, "memory root") + ", " + s
	}
	if e == 0 && w == 0 {
		s += ": no problems"
	} else {
		s += ": " + words.Plural(e, "error") + ", " + words.Plural(w, "warning")
	}
	if n := r.Diagnostics.Notes(); n > 0 {
		s += " (" + words.Plural(n, "note") + " on events the base revision already has"
		if shown >= 0 && shown < n {
			s += ", the first " + strconv.Itoa(shown) + " shown: --format json lists them all"
		}
		s += ")"
	}
	if r.Suppressed > 0 {
		in := BaselineFile
		switch n := len(r.BaselineFiles); {
		case n == 1:
			in = r.BaselineFiles[0]
		case n > 1:
			in = words.Plural(n, "baseline file")
		}
		s += "; " + words.Plural(r.Suppressed, "finding") + " in " + in + " not shown"
	}
	return s
}
