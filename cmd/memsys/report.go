package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
)

// reportCommand prints the integrity report: a receipt of the memory's
// state that can be committed and diffed.
func reportCommand() *cli.Command {
	return &cli.Command{
		Name:  "report",
		Usage: "print an integrity report: events by type and agent, open loops, conflicts, superseded events, derived files, findings, archive",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "md", Usage: "output `FORMAT`: md or json"},
		},
		Action: runReport,
	}
}

func runReport(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "md", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("report takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	r, err := memory.BuildReport(root)
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, r)
	}
	fmt.Fprint(w, r.Markdown())
	return nil
}
