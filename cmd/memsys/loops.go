package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
)

// loopsCommand lists the open loops: blockers, escalations and
// commitments no later event has closed, oldest first.
func loopsCommand() *cli.Command {
	return &cli.Command{
		Name:  "loops",
		Usage: "list the open loops (blockers, escalations, commitments not yet closed), oldest first",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		},
		Action: runLoops,
	}
}

func runLoops(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("loops takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	res, err := memory.Loops(root)
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, res)
	}
	if len(res.Loops) == 0 {
		fmt.Fprintln(w, "no open loops")
	}
	for _, l := range res.Loops {
		fmt.Fprintln(w, l)
	}
	return nil
}
