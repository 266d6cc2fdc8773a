package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:      "audit",
		Usage:     "report every committed event that a later commit changed",
		ArgsUsage: " ",
		Description: `Walks every commit that changed CHANGELOG.md or the archive (all parents
of merges) and reports each event edited, deleted, reordered or renumbered
after it was committed: the commit, its author and date, and the diff.
Moving events unchanged into the archive is not a change. A merge may
renumber and interleave the events both sides appended, but must keep
every event's text.

Rule severities in .memsys.json apply (MS301-MS305). A shallow clone is
refused unless --since stays inside the fetched history.

Exit status: 0 nothing changed, 1 changes found, 2 when memsys cannot run.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "since", Usage: "audit only commits after git `REV` (REV..HEAD)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		},
		Action: runAudit,
	}
}

func runAudit(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("audit takes no arguments, got %q", cmd.Args().First())
	}
	format := cmd.String("format")
	if format != "text" && format != "json" {
		return usageErr("audit: unknown --format %q: use text or json", format)
	}
	since := cmd.String("since")
	if cmd.IsSet("since") {
		if err := gitx.CheckRev(since); err != nil {
			return usageErr("audit --since: %v", err)
		}
	}
	dir, explicit := cmd.String("C"), cmd.IsSet("C")
	if dir == "" {
		dir = "."
	}
	root, err := workspace.FindRoot(dir, explicit)
	if err != nil {
		return cannotRun{err}
	}
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return usageErr("audit: %v", err)
	}
	// Rule severities from .memsys.json apply as in lint: a rule
	// switched off is not reported, a warning does not fail.
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return cannotRun{err}
	}
	l, err := lint.New(cfg)
	if err != nil {
		return cannotRun{err}
	}
	res, err := history.Run(ctx, g, history.Options{Since: since})
	if err != nil {
		var me *gitx.MissingError
		var se *history.ShallowError
		switch {
		case errors.As(err, &me):
			return usageErr("audit --since: %v", err)
		case errors.As(err, &se):
			return usageErr("audit: %v", err)
		}
		return cannotRun{fmt.Errorf("audit: %w", err)}
	}
	// Paths as lint shows them: relative to where memsys was started.
	start, err := filepath.Abs(dir)
	if err != nil {
		return cannotRun{err}
	}
	kept := res.Findings[:0]
	failed := false
	for _, f := range res.Findings {
		f.Range.File = displayPath(start, root, f.Range.File)
		if f.Severity = l.Severity(f.Rule); f.Severity != diag.Off {
			kept = append(kept, f)
			failed = failed || f.Severity == diag.Error
		}
	}
	res.Findings = kept
	w := cmd.Root().Writer
	if format == "json" {
		err = printAuditJSON(w, res)
	} else {
		err = printAuditText(w, res)
	}
	if err != nil {
		return cannotRun{fmt.Errorf("audit: write output: %w", err)}
	}
	if failed {
		return errFindings
	}
	return nil
}

func printAuditText(w io.Writer, res *history.Result) error {
	var b strings.Builder
	for _, f := range res.Findings {
		b.WriteString(f.Diagnostic.Error() + "\n")
		fmt.Fprintf(&b, "    commit %s (compared with %s)\n    author %s\n    date   %s\n", f.Commit, f.Parent, f.Author, f.Date)
		for _, l := range strings.SplitAfter(strings.TrimRight(f.Detail, "\n"), "\n") {
			if l != "" {
				b.WriteString("    " + strings.TrimRight(l, "\n") + "\n")
			}
		}
	}
	noun := "commits"
	if res.Commits == 1 {
		noun = "commit"
	}
	switch n := len(res.Findings); n {
	case 0:
		fmt.Fprintf(&b, "%d %s audited: no committed event was changed\n", res.Commits, noun)
	case 1:
		fmt.Fprintf(&b, "%d %s audited: 1 change to a committed event\n", res.Commits, noun)
	default:
		fmt.Fprintf(&b, "%d %s audited: %d changes to committed events\n", res.Commits, noun, n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func printAuditJSON(w io.Writer, res *history.Result) error {
	type jfinding struct {
		Rule    string `json:"rule"`
		Event   string `json:"event"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
		Commit  string `json:"commit"`
		Parent  string `json:"parent"`
		Author  string `json:"author"`
		Date    string `json:"date"`
		Diff    string `json:"diff"`
	}
	out := struct {
		Commits  int        `json:"commits"`
		Findings []jfinding `json:"findings"`
	}{Commits: res.Commits, Findings: []jfinding{}}
	for _, f := range res.Findings {
		out.Findings = append(out.Findings, jfinding{f.Rule, f.Event, f.Range.File, f.Range.Line, f.Message, f.Commit, f.Parent, f.Author, f.Date, f.Detail})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
