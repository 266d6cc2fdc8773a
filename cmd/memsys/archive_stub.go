//go:build !lifecycle

package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func archiveCommand() *cli.Command {
	return &cli.Command{
		Name: "archive",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("archive: not implemented yet")
		},
	}
}
