package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func lintCommand() *cli.Command {
	return &cli.Command{
		Name: "lint",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("lint: not implemented yet")
		},
	}
}
