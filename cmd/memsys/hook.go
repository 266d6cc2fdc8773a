package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func hookCommand() *cli.Command {
	return &cli.Command{
		Name: "hook",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("hook: not implemented yet")
		},
	}
}
