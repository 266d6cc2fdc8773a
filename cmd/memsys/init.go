package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/templates"
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
			&cli.StringFlag{Name: "tier", Value: "full", Usage: "the seed's tier to deploy: `mvp|core|full`"},
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
	return usageErr("%s: %v: see memsys %s --help", cmd.Name, err, cmd.Name)
}

func runInit(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("init takes no arguments, got %q", cmd.Args().First())
	}
	tier := workspace.Tier(cmd.String("tier"))
	if tier != workspace.MVP && tier != workspace.Core && tier != workspace.Full {
		return usageErr("unknown --tier %q: use mvp, core or full", tier)
	}
	root := cmd.String("C")
	if root == "" {
		root = "."
	}
	root, err := workspace.FindRoot(root, true)
	if err != nil {
		return cannotRun{err}
	}
	unlock, err := workspace.Lock(root)
	if err != nil {
		return cannotRun{err}
	}
	defer unlock()
	out := cmd.Root().Writer
	changed := false
	create := func(rel string, data []byte) error {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			return nil // never overwrite
		}
		if err := workspace.WriteFile(root, rel, data); err != nil {
			return cannotRun{err}
		}
		fmt.Fprintln(out, "created "+rel)
		changed = true
		return nil
	}
	if err := create(workspace.LogName, templates.Changelog); err != nil {
		return err
	}
	// Read and render before creating anything else, so a log memsys
	// cannot read leaves the folder as it was (but for a new log).
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return cannotRun{err}
	}
	mem, x, err := memory.Replay(root, lint.RenderOptions(cfg), "")
	if err != nil {
		return err
	}
	if !mem.Log.HasEventLog {
		// init never edits an existing log, so it can only say so.
		fmt.Fprintf(cmd.Root().ErrWriter, "memsys: warning: %s has no \"## Event Log\" section: add one at its end; memsys reads events only there\n", workspace.LogName)
	}
	derived := memory.Derive(x, tier)
	if tier == workspace.Full {
		if err := create(workspace.TodoName, templates.Todo); err != nil {
			return err
		}
	}
	for _, f := range derived {
		if err := create(f.File, f.Data); err != nil {
			return err
		}
	}
	added, err := addProtocol(root)
	if err != nil {
		return err
	}
	if added != "" {
		fmt.Fprintln(out, added)
		changed = true
	}
	if !changed {
		fmt.Fprintf(out, "nothing to do: the %s tier's files are all there\n", tier)
	}
	return nil
}

// addProtocol adds the Memory System Protocol block to AGENTS.md once:
// it creates the file, or appends the block when neither the markers nor
// a "## Memory System Protocol" heading are there yet. The rest of the
// file is kept byte for byte.
func addProtocol(root string) (string, error) {
	rel := workspace.AgentsName
	cur, err := workspace.ReadFile(root, rel)
	switch {
	case err != nil && os.IsNotExist(unwrapAll(root, rel)):
		data := append([]byte("# AGENTS.md\n\n"), templates.AgentsProtocol...)
		if err := workspace.WriteFile(root, rel, data); err != nil {
			return "", cannotRun{err}
		}
		return "created " + rel, nil
	case err != nil:
		return "", cannotRun{err}
	case bytes.Contains(cur, []byte(templates.ProtocolBegin)) || bytes.Contains(cur, []byte("## Memory System Protocol")):
		return "", nil
	}
	data := append([]byte{}, cur...)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(append(data, '\n'), templates.AgentsProtocol...)
	if err := workspace.WriteFile(root, rel, data); err != nil {
		return "", cannotRun{err}
	}
	return "updated " + rel + " (added the Memory System Protocol block)", nil
}

// unwrapAll reports the raw stat error of rel, to tell "missing" from
// other failures.
func unwrapAll(root, rel string) error {
	_, err := os.Lstat(filepath.Join(root, rel))
	return err
}
