//go:build !lint

package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// lintCommand is a placeholder until materialize and workspace land;
// the real command (lint.go) builds with -tags lint until then.
func lintCommand() *cli.Command {
	return &cli.Command{
		Name: "lint",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("lint: not implemented yet")
		},
	}
}
