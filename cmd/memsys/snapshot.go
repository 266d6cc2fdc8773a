package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
)

// snapshotCommand prints one entity: its attributes with the event
// that set each, its edges and its history.
func snapshotCommand() *cli.Command {
	return &cli.Command{
		Name:      "snapshot",
		Usage:     "print one entity: attributes with the event that set each, edges, history",
		UsageText: "memsys snapshot ENTITY [--format md|json] [--at evt-NNN|DATE]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "md", Usage: "output `FORMAT`: md or json"},
			lcAtFlag(),
		},
		Action: runSnapshot,
	}
}

func runSnapshot(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "md", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() != 1 {
		return usageErr("snapshot takes one entity name, e.g. memsys snapshot auth_module")
	}
	at, err := lcAt(cmd)
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	s, err := memory.Snapshot(root, cmd.Args().First(), at)
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, s)
	}
	fmt.Fprint(w, memory.SnapshotMarkdown(s))
	return nil
}
