package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/hook"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
)

func hookCommand() *cli.Command {
	return &cli.Command{
		Name:      "hook",
		Usage:     "install or remove a git pre-commit hook that runs memsys",
		ArgsUsage: "install|uninstall",
		Description: `For repositories without the pre-commit framework (see
.pre-commit-hooks.yaml for that): a git pre-commit hook that runs

  memsys lint --staged             the staged files lint clean, and the
                                   staged log only appends to HEAD
  memsys regen --check --staged    the staged derived files are current

The hook goes where git looks for hooks (git rev-parse --git-path hooks),
so core.hooksPath is respected. An existing pre-commit hook is not
replaced: it moves to pre-commit.memsys-chained and memsys's hook runs it
first, stopping with its exit status if it fails. uninstall removes
memsys's hook and moves the chained hook back, unchanged.`,
		OnUsageError: usageOneLine,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageErr("unknown hook command %q: use memsys hook install or memsys hook uninstall", words.Clip(cmd.Args().First()))
			}
			return usageErr("hook needs a command: memsys hook install or memsys hook uninstall")
		},
		Commands: []*cli.Command{
			{
				Name:      "install",
				Usage:     "write the pre-commit hook (idempotent; chains an existing hook)",
				ArgsUsage: " ",
				Description: `Writes the pre-commit hook into the repository around the current folder
(or -C DIR). The hook checks the memory root around that folder; run
install from the folder that holds CHANGELOG.md, or pass -C, in a
repository with several memories. Running install again rewrites the hook
in place and changes nothing else.`,
				OnUsageError: hookUsage,
				Action:       runHookInstall,
			},
			{
				Name:      "uninstall",
				Usage:     "remove the pre-commit hook and restore a chained one",
				ArgsUsage: " ",
				Description: `Removes memsys's pre-commit hook and moves a hook it chained back to
pre-commit, byte for byte. Without memsys's hook it changes nothing and
exits 0; a pre-commit hook memsys did not write is never touched.`,
				OnUsageError: hookUsage,
				Action:       runHookUninstall,
			},
		},
	}
}

// hookUsage is usageOneLine with the subcommand's full name, so the
// pointer to help reads "memsys hook install --help".
func hookUsage(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	name := strings.TrimPrefix(cmd.FullName(), "memsys ")
	return usageErr("%s: %s: see memsys %s --help", name, words.ClipFields(flagMessage(err.Error())), name)
}

// hookStart is the folder hook runs from: -C, else the current one.
func hookStart(cmd *cli.Command) string {
	if start := cmd.String("C"); start != "" {
		return start
	}
	return "."
}

func runHookInstall(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("hook install takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	h, err := hook.Find(ctx, hookStart(cmd))
	if err != nil {
		return cannotRun{err}
	}
	memRoot, err := workspace.FindRoot(h.Start(), cmd.IsSet("C"))
	if err != nil {
		return cannotRun{err}
	}
	msg, err := hook.Install(h, memRoot)
	if err != nil {
		return cannotRun{err}
	}
	fmt.Fprintln(cmd.Root().Writer, msg)
	return nil
}

func runHookUninstall(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("hook uninstall takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	h, err := hook.Find(ctx, hookStart(cmd))
	if err != nil {
		return cannotRun{err}
	}
	msg, err := hook.Uninstall(h)
	if err != nil {
		return cannotRun{err}
	}
	fmt.Fprintln(cmd.Root().Writer, msg)
	return nil
}
