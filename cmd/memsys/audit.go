package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

// STUB written by the lead; the owning helper replaces this file.
func auditCommand() *cli.Command {
	return &cli.Command{
		Name: "audit",
		Action: func(context.Context, *cli.Command) error {
			return usageErr("audit: not implemented yet")
		},
	}
}
