//go:build !lifecycle

package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func statusCommand() *cli.Command {
	return &cli.Command{
		Name: "status",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("status: not implemented yet")
		},
	}
}
