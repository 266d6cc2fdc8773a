//go:build !lifecycle

package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func logCommand() *cli.Command {
	return &cli.Command{
		Name: "log",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("log: not implemented yet")
		},
	}
}
