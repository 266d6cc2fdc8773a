package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/companion"
	"github.com/memsys/memsys/internal/io/workspace"
)

// mcpProgram is internal/app/mcpserver.Program, spelled here because
// importing mcpserver would link the MCP SDK into every command.
const mcpProgram = "memsys-mcp"

// mcpCommand serves the memory to an agent host over MCP on stdio, by
// handing over to memsys-mcp with the root and agent resolved here, so
// hosts registered with `memsys mcp` keep working.
func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the memory to an agent host over the Model Context Protocol (stdio; runs memsys-mcp)",
		UsageText: "memsys [-C DIR] mcp [--agent NAME]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` for appends that name none (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
		},
		Action: runMCP,
	}
}

func runMCP(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("mcp takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	if err := memory.CheckDefaultAgent(cmd.String("agent")); err != nil {
		return usageErr("%v", err)
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	prog, err := companion.Find(mcpProgram)
	if err != nil {
		return usageErr("mcp: the MCP server program %v: install it with go install github.com/memsys/memsys/cmd/%s@latest", err, mcpProgram)
	}
	args := []string{"-C", root, "--agent", lcAgent(cmd.String("agent"))}
	if !workspace.CacheEnabled() {
		args = append(args, "--no-cache") // --no-cache is this process's state; the server must get it too
	}
	if p := cmd.String("cpuprofile"); p != "" {
		args = append(args, "--cpuprofile", p) // the exec discards this process's profile
	}
	code, err := companion.Exec(prog, args)
	if err != nil {
		return cannotRun{err}
	}
	if code != 0 {
		return cli.Exit("", code)
	}
	return nil
}
