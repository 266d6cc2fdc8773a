package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/converge"
	"github.com/memsys/memsys/internal/base/words"
)

func mergeDriverCommand() *cli.Command {
	return &cli.Command{
		Name:      "merge-driver",
		Usage:     "git merge driver: merge the event log by record, regenerate derived files",
		ArgsUsage: "ANCESTOR OURS THEIRS PATH [MARKER-SIZE] | install | uninstall",
		Description: `git runs it as "memsys merge-driver %O %A %B %P %L" for the paths
memsys merge-driver install marks in .gitattributes; the result is
written over OURS. For CHANGELOG.md and the archive it merges events,
not lines: theirs' new events follow ours', renumbered (a git merge of a
trunk's tip, such as origin/main, turns that round: the trunk's events
keep their IDs and ours' follow); in those events
every evt-NNN token (heading, **Refs**, details, any field) that names
another of theirs' new events is rewritten to its new ID, and nothing
else is; the same event on both sides is written once; an event of the
base that either side lacks or holds with other text is a conflict,
marked around that event; its line on stderr names
the sides by what they hold (HEAD, the incoming commit, the base), the
same in a merge, rebase or cherry-pick. For .memory/graph.md and
.memory/context.md it writes the file rendered from the merged log.
Other paths merge as git would. See docs/convergence.md.

Exit status: 0 merged; 1 conflicts (one line each on stderr); 2 when
memsys cannot run.`,
		OnUsageError: usageOneLine,
		Action:       runMergeDriver,
		Commands: []*cli.Command{
			{
				Name:      "install",
				Usage:     "register the driver in .git/config and .gitattributes (idempotent)",
				ArgsUsage: " ",
				Description: `Sets merge.memsys.driver in the repository's .git/config and adds a
marked block of merge=memsys lines for CHANGELOG.md, the archive and the
derived files to the .gitattributes of the memory root (or -C DIR),
after any lines already there. Commit .gitattributes; every clone runs
install once, because git never shares .git/config.`,
				OnUsageError: hookUsage,
				Action:       runMergeDriverInstall(true),
			},
			{
				Name:         "uninstall",
				Usage:        "remove exactly what install added",
				ArgsUsage:    " ",
				OnUsageError: hookUsage,
				Action:       runMergeDriverInstall(false),
			},
		},
	}
}

func runMergeDriver(ctx context.Context, cmd *cli.Command) error {
	n := cmd.Args().Len()
	if n != 4 && n != 5 {
		return usageErr("merge-driver takes ANCESTOR OURS THEIRS PATH [MARKER-SIZE] (git's %%O %%A %%B %%P %%L), or install|uninstall: see memsys merge-driver --help")
	}
	a := cmd.Args().Slice()
	args := converge.DriverArgs{Ancestor: a[0], Ours: a[1], Theirs: a[2], Path: a[3]}
	if n == 5 {
		size, err := strconv.Atoi(a[4])
		if err != nil || size < 1 {
			return usageErr("merge-driver: marker size %q is not a positive number", words.Clip(a[4]))
		}
		args.MarkerSize = size
	}
	res, err := converge.RunDriver(ctx, args)
	if err != nil {
		return cannotRun{fmt.Errorf("merge-driver %s: %w", args.Path, err)}
	}
	w := cmd.Root().ErrWriter
	for _, note := range res.Notes {
		fmt.Fprintln(w, "memsys: "+note)
	}
	for _, c := range res.Conflicts {
		fmt.Fprintln(w, c)
	}
	if len(res.Conflicts) > 0 {
		return errFindings
	}
	return nil
}

func runMergeDriverInstall(install bool) cli.ActionFunc {
	return func(ctx context.Context, cmd *cli.Command) error {
		if cmd.Args().Len() > 0 {
			return usageErr("%s takes no arguments, got %q", strings.TrimPrefix(cmd.FullName(), "memsys "), words.Clip(cmd.Args().First()))
		}
		root, err := lcRoot(cmd)
		if err != nil {
			return err
		}
		op, verb := converge.Uninstall, "uninstalled"
		if install {
			op, verb = converge.Install, "installed"
		}
		did, err := op(ctx, root)
		if err != nil {
			return cannotRun{fmt.Errorf("%s: %w", strings.TrimPrefix(cmd.FullName(), "memsys "), err)}
		}
		if len(did) == 0 {
			fmt.Fprintln(cmd.Root().Writer, "nothing to do: the merge driver is already "+verb)
		}
		for _, d := range did {
			fmt.Fprintln(cmd.Root().Writer, d)
		}
		return nil
	}
}
