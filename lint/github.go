package lint

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
)

// GitHubPrinter writes GitHub Actions workflow commands, one annotation
// per diagnostic:
//
//	::error file=CHANGELOG.md,line=42,col=1,endLine=42,title=MS104::message
//
// GitHub shows only a few annotations per step, so when StepSummary is
// set it also appends a Markdown table of every finding to it (the file
// named by $GITHUB_STEP_SUMMARY).
type GitHubPrinter struct {
	StepSummary io.Writer
}

// Print implements Printer.
func (g *GitHubPrinter) Print(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	for _, d := range r.Diagnostics {
		if d.Baseline {
			continue // not the pull request's doing: no annotation
		}
		cmd := "warning"
		switch d.Severity {
		case diag.Error:
			cmd = "error"
		case diag.Note:
			cmd = "notice"
		}
		var props []string
		if d.Range.File != "" {
			props = append(props, "file="+escapeProperty(d.Range.File))
		}
		if d.Range.Line > 0 {
			props = append(props, "line="+strconv.Itoa(d.Range.Line))
			if d.Range.Col > 0 {
				props = append(props, "col="+strconv.Itoa(d.Range.Col))
			}
			if d.Range.EndLine >= d.Range.Line {
				props = append(props, "endLine="+strconv.Itoa(d.Range.EndLine))
			}
		}
		if d.Rule != "" {
			props = append(props, "title="+escapeProperty(d.Rule))
		}
		msg := d.Message
		if d.Detail != "" {
			msg += "\n\n" + d.Detail
		}
		bw.WriteString("::" + cmd + " " + strings.Join(props, ",") + "::" + escapeData(msg) + "\n")
	}
	bw.WriteString(summary(r) + "\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if g.StepSummary != nil {
		return writeStepSummary(g.StepSummary, r)
	}
	return nil
}

// WriteGitHubError writes msg as an ::error workflow command without a
// file: the line a run that cannot start (exit 2) prints on stderr, shown
// also among the pull request's checks rather than only in the log.
func WriteGitHubError(w io.Writer, msg string) error {
	_, err := io.WriteString(w, "::error title=memsys::"+escapeData(msg)+"\n")
	return err
}

// escapeData escapes a workflow command's message as the runner
// expects (actions/toolkit command.ts escapeData).
func escapeData(s string) string { return dataEscaper.Replace(s) }

// escapeProperty escapes a property value (escapeProperty in the same
// file): ':' and ',' would end the value.
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// StepSummaryLimit is the most lint writes to $GITHUB_STEP_SUMMARY.
// GitHub drops a step's summary whole when it is over 1 MiB, so the
// table stops well below it (room for what other tools of the same
// step write) rather than lose every row.
const StepSummaryLimit = 512 << 10

// writeStepSummary appends a Markdown table of every finding, or of as
// many as fit in StepSummaryLimit and a line counting the rest (the
// step's log, the annotations' source, has them all).
func writeStepSummary(w io.Writer, r *Result) error {
	var b strings.Builder
	command := r.Command
	if command == "" {
		command = "memsys lint"
	}
	b.WriteString("### " + command + "\n\n" + summary(r) + "\n\n")
	if len(r.Diagnostics) > 0 {
		b.WriteString("| Severity | Rule | Location | Event | Message |\n|---|---|---|---|---|\n")
		// Room for the closing line: its count has at most 10 digits.
		const tail = len("\n0000000000 more findings are not in this table (GitHub shows at most 1 MiB here): the step's log lists every one\n\n")
		for i, d := range r.Diagnostics {
			row := "| " + d.Severity.String() + " | " + cell(d.Rule) + " | `" + cell(d.Range.String()) + "` | " +
				cell(d.Event) + " | " + cell(d.Message) + " |\n"
			if b.Len()+len(row)+tail > StepSummaryLimit {
				fmt.Fprintf(&b, "\n%d more findings are not in this table (GitHub shows at most 1 MiB here): the step's log lists every one\n", len(r.Diagnostics)-i)
				break
			}
			b.WriteString(row)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string { return cellEscaper.Replace(s) }

// The replacers are built once, on their first use, not per string:
// building one allocates its lookup tables.
var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	cellEscaper     = strings.NewReplacer("|", "\\|", "\r", " ", "\n", " ", "`", "'")
)
