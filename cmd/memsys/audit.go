package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/words"
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
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, json, github or sarif"},
		},
		Action: runAudit,
	}
}

func runAudit(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("audit takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	format := cmd.String("format")
	if !slices.Contains(lint.Formats, format) {
		return usageErr("audit: unknown --format %q: use %s", words.Clip(format), strings.Join(lint.Formats, ", "))
	}
	since := cmd.String("since")
	if cmd.IsSet("since") {
		if err := gitx.CheckRev(since); err != nil {
			return usageErr("audit --since: %v", err)
		}
	}
	start, err := lcStart(cmd)
	if err != nil {
		return err
	}
	dir := cmd.String("C")
	if dir == "" {
		dir = "."
	}
	root, err := workspace.FindRoot(dir, cmd.IsSet("C"))
	if err != nil {
		return cannotRun{err}
	}
	res, err := history.Audit(ctx, root, start, since)
	if err != nil {
		return cannotRun{err}
	}
	for i := range res.Findings {
		res.Findings[i].Message = lint.Chdir(res.Findings[i].Message, lcDir(cmd))
	}
	w := cmd.Root().Writer
	switch format {
	case "text":
		err = res.WriteText(w)
	case "json":
		err = res.WriteJSON(w)
	default:
		if err := lcPrint(ctx, cmd, format, res.Lint()); err != nil {
			return err
		}
	}
	if err != nil {
		return cannotRun{fmt.Errorf("audit: write output: %w", err)}
	}
	if res.Failed() {
		return errFindings
	}
	return nil
}
