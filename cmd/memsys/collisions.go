package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/converge"
	"github.com/memsys/memsys/internal/base/words"
)

func collisionsCommand() *cli.Command {
	return &cli.Command{
		Name:      "collisions",
		Usage:     "list event IDs that two branches would both add",
		ArgsUsage: "REV...",
		Description: `Reads the log of every revision named (a glob such as 'origin/*' names
every branch it matches) and prints, for each pair, every event ID both
added since their merge base with other content, one line each:

  evt-015: origin/a (2025-01-02 10:00 | ada | fix) and origin/b (...)

One revision named alone is compared with HEAD: from a feature branch,
memsys collisions origin/main. HEAD alone has nothing to compare (exit 2).

A CI job runs it to warn before anyone merges; the branch merged second
runs memsys renumber --onto the first (the merge driver does it on a
local merge).

Exit status: 0 no collision; 1 collisions; 2 when memsys cannot run.`,
		OnUsageError: usageOneLine,
		Action:       runCollisions,
	}
}

func runCollisions(ctx context.Context, cmd *cli.Command) error {
	revs := cmd.Args().Slice()
	if len(revs) == 0 {
		return usageErr("collisions needs revisions: memsys collisions 'origin/*' or memsys collisions main feature")
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	cs, names, err := converge.Collisions(ctx, root, revs)
	if err != nil {
		return cannotRun{fmt.Errorf("collisions: %w", err)}
	}
	w := cmd.Root().Writer
	for _, c := range cs {
		fmt.Fprintf(w, "%s: %s (%s) and %s (%s)\n", c.ID, c.A, c.SummaryA, c.B, c.SummaryB)
	}
	if len(cs) > 0 {
		// One line per pair of revisions, counted by ID: three branches
		// that each added evt-004 are three lines, one colliding ID.
		ids := map[string]bool{}
		for _, c := range cs {
			ids[c.ID] = true
		}
		what := words.Plural(len(ids), "colliding ID")
		if len(cs) != len(ids) {
			what += " (" + words.Plural(len(cs), "pair") + ")"
		}
		fmt.Fprintf(cmd.Root().ErrWriter, "memsys: %s among %s: the branch merged second runs memsys renumber --onto the first\n", what, words.Plural(len(names), "revision"))
		return errFindings
	}
	fmt.Fprintf(w, "no collisions among %s\n", words.Plural(len(names), "revision"))
	return nil
}
