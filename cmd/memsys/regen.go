package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func regenCommand() *cli.Command {
	return &cli.Command{
		Name: "regen",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("regen: not implemented yet")
		},
	}
}
