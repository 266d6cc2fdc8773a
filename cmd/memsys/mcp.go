package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/mcpserver"
)

// mcpCommand serves the memory to an agent host over MCP on stdio.
func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the memory to an agent host over the Model Context Protocol (stdio)",
		UsageText: "memsys [-C DIR] mcp [--agent NAME]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` for appends that name none (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
		},
		Action: runMCP,
	}
}

func runMCP(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("mcp takes no arguments, got %q", cmd.Args().First())
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	cfg := mcpserver.Config{Root: root, Agent: lcAgent(cmd.String("agent")), Now: func() string { return lcTime("") }, Version: "dev"}
	if err := mcpserver.ServeStdio(ctx, cfg); err != nil {
		return cannotRun{err}
	}
	return nil
}
