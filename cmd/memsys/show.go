package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
)

// showCommand prints one event, what it did to the graph, and the
// events that refer to it.
func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "show one event, what it changed in the graph, and the events that refer to it",
		UsageText: "memsys show [--format text|json] [--at evt-NNN|DATE] evt-NNN",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			lcAtFlag(),
		},
		Action: runShow,
	}
}

// lcAt is the value of --at, refused when given blank (an unset
// variable in a script), which would read as not given.
func lcAt(cmd *cli.Command) (string, error) {
	v := cmd.String("at")
	if cmd.IsSet("at") {
		if err := memory.CheckAtGiven(v); err != nil {
			return "", cannotRun{err}
		}
	}
	return v, nil
}

// lcAtFlag is the --at flag of the read commands.
func lcAtFlag() cli.Flag {
	return &cli.StringFlag{Name: "at", Usage: "read the memory as of `evt-NNN|DATE`: an event, or a date YYYY-MM-DD (the end of that day) or \"YYYY-MM-DD HH:MM\" (the events before the first one dated after it); later events are ignored"}
}

func runShow(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() != 1 {
		return usageErr("show takes one event ID, e.g. memsys show evt-042")
	}
	at, err := lcAt(cmd)
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	r, err := memory.Show(root, at, cmd.Args().First())
	if err != nil {
		return cannotRun{err}
	}
	if format == "json" {
		return lcJSON(cmd.Root().Writer, r)
	}
	r.WriteText(cmd.Root().Writer, front.CLI)
	return nil
}
