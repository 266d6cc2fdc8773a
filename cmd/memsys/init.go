package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "deploy the memory system's files for a tier",
		ArgsUsage: " ",
		Description: `Creates the files of the tier in the current folder (or -C DIR), as the
seed's Tiers table lists them:

  mvp   CHANGELOG.md
  core  CHANGELOG.md, .memory/context.md
  full  CHANGELOG.md, TODO.md, .memory/graph.md, .memory/context.md

and adds the Memory System Protocol block to AGENTS.md (creating it if
needed), once, between markers. An existing file is never overwritten or
truncated; running init again changes nothing. graph.md and context.md are
rendered from the log, so they are current even when CHANGELOG.md already
had events.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tier", Usage: "the seed's tier to deploy: `mvp|core|full` (default: the tier .memsys.json or AGENTS.md declares, else the one the files show, as status reports it, else full)"},
		},
		OnUsageError: usageOneLine,
		Action:       runInit,
	}
}

// usageOneLine turns a flag error of a subcommand (unknown flag, missing
// value) into one exit-2 line. urfave/cli does not inherit the root's
// OnUsageError, and its default prints "Incorrect Usage" and the whole
// help text.
func usageOneLine(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	// The flag parser's message quotes the value whole: clip it.
	return usageErr("%s: %s: see memsys %s --help", cmd.Name, words.ClipFields(flagMessage(err.Error())), cmd.Name)
}

func runInit(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("init takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	// Unset, init deploys the tier the memory declares (.memsys.json,
	// AGENTS.md), else the one status reports, else full: memory.Init.
	var tier parse.Tier
	if cmd.IsSet("tier") {
		tier = parse.Tier(cmd.String("tier"))
		if tier != parse.MVP && tier != parse.Core && tier != parse.Full {
			return usageErr("unknown --tier %q: use mvp, core or full", words.Clip(string(tier)))
		}
	}
	root := cmd.String("C")
	if root == "" {
		root = "."
	}
	root, err := workspace.FindRoot(root, true)
	if err != nil {
		return cannotRun{err}
	}
	r, err := memory.Init(root, tier)
	if r != nil {
		if r.Warning != "" {
			fmt.Fprintln(cmd.Root().ErrWriter, "memsys: warning: "+r.Warning)
		}
		for _, k := range r.Kept {
			fmt.Fprintln(cmd.Root().ErrWriter, "memsys: warning: "+k)
		}
		if r.Agents != "" {
			fmt.Fprintln(cmd.Root().ErrWriter, "memsys: warning: "+r.Agents)
		}
		for _, l := range r.Done {
			fmt.Fprintln(cmd.Root().Writer, l)
		}
		if err == nil && len(r.Done) == 0 {
			fmt.Fprintf(cmd.Root().Writer, "nothing to do: the %s tier's files are all there\n", r.Tier)
		}
	}
	if err != nil {
		return cannotRun{err}
	}
	return nil
}
