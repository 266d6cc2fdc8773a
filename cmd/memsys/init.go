package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func initCommand() *cli.Command {
	return &cli.Command{
		Name: "init",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("init: not implemented yet")
		},
	}
}
