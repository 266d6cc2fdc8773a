package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/recall"
)

// recallCommand prints the recall pack: what is known about the
// entities an agent is about to touch, within a word budget.
func recallCommand() *cli.Command {
	return &cli.Command{
		Name:      "recall",
		Usage:     "print what is known about the entities you are about to touch, within a word budget",
		UsageText: "memsys recall ENTITY... [--depth N] [--budget WORDS] [--format md|json]",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "depth", Value: recall.DefaultDepth, Usage: "include neighbours up to `N` edges away"},
			&cli.IntFlag{Name: "budget", Value: recall.DefaultBudget, Usage: "cut the pack to `WORDS` words"},
			&cli.StringFlag{Name: "format", Value: "md", Usage: "output `FORMAT`: md or json"},
		},
		Action: runRecall,
	}
}

func runRecall(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "md", "json")
	if err != nil {
		return err
	}
	q := recall.Query{Entities: cmd.Args().Slice(), Depth: int(cmd.Int("depth")), Budget: int(cmd.Int("budget"))}
	if err := q.Check(); err != nil {
		return cannotRun{err}
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	p, err := recall.Recall(root, q)
	if err != nil {
		return cannotRun{err}
	}
	if format == "json" {
		return lcJSON(cmd.Root().Writer, p)
	}
	_, err = cmd.Root().Writer.Write(recall.Markdown(p))
	return err
}
