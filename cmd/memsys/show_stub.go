//go:build !lifecycle

package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func showCommand() *cli.Command {
	return &cli.Command{
		Name: "show",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("show: not implemented yet")
		},
	}
}
