package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/converge"
	"github.com/memsys/memsys/internal/base/words"
)

func renumberCommand() *cli.Command {
	return &cli.Command{
		Name:      "renumber",
		Usage:     "renumber this branch's new events to follow another revision's",
		ArgsUsage: " ",
		Description: `For a branch whose new events collide with REV (typically origin/main):
the log becomes REV's log with this branch's events since the merge base
after it, renumbered consecutively; refs and evt-NNN mentions in those
events are rewritten; the derived files are regenerated. Every file is
written atomically under the memory's lock. Run it where git merge REV
stopped on the log (no merge driver): commit the merge, and the pull
request merges without a conflict in the log. Run outside a merge, it
rewrites the log alone, and a merge of REV is still to come.

Exit status: 0 done (or nothing to do); 1 when an event shared with REV
was edited or deleted (an integrity problem, not a numbering one;
nothing is written); 2 when memsys cannot run.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "onto", Usage: "the git `REV` whose events this branch follows", Required: true},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the mapping (evt-015 -> evt-018); change nothing"},
		},
		OnUsageError: usageOneLine,
		Action:       runRenumber,
	}
}

func runRenumber(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("renumber takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	onto := cmd.String("onto")
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	res, err := converge.Renumber(ctx, root, onto, cmd.Bool("dry-run"))
	w, ew := cmd.Root().Writer, cmd.Root().ErrWriter
	if errors.Is(err, converge.ErrIntegrity) {
		for _, c := range res.Conflicts {
			fmt.Fprintln(ew, c)
		}
		fmt.Fprintf(ew, "memsys: renumber: an event shared with %s was changed; renumbering cannot fix that: restore it, then run renumber again\n", onto)
		return errFindings
	}
	if err != nil {
		return cannotRun{fmt.Errorf("renumber: %w", err)}
	}
	for _, m := range res.Moves {
		fmt.Fprintf(w, "%s -> %s\n", m.From, m.To)
	}
	for _, f := range res.Written {
		fmt.Fprintln(w, "wrote "+f)
	}
	if !cmd.Bool("dry-run") && len(res.Resolved) > 0 {
		// git still marks the files unmerged: without this line the
		// user is left with "UU CHANGELOG.md" and no next step.
		fmt.Fprintf(w, "resolved the conflict in %s: stage the files (git add %s), then finish: git commit, git rebase --continue or git cherry-pick --continue\n",
			strings.Join(res.Resolved, ", "), strings.Join(res.Written, " "))
	}
	if !cmd.Bool("dry-run") && len(res.Resolved) == 0 && len(res.Moves) > 0 {
		// Outside a merge the branch still lacks REV's commits: committed
		// alone, the rewrite conflicts again in git's line merge.
		fmt.Fprintf(w, "next: commit, then git merge %s: the branch does not contain %s yet, so a merge without the driver (GitHub's) still conflicts on the log; where git merge stops, memsys renumber --onto %s resolves it\n", onto, onto, onto)
	}
	if cmd.Bool("dry-run") {
		for _, f := range res.Resolved {
			if slices.Contains(res.LineMerged, f) {
				fmt.Fprintf(w, "would write %s (merged again from the commits: git's line merge repeated an ID)\n", f)
				continue
			}
			fmt.Fprintf(w, "would write %s (resolving its conflict markers)\n", f)
		}
	}
	if len(res.Moves) == 0 && len(res.Written) == 0 && len(res.Resolved) == 0 {
		fmt.Fprintf(w, "nothing to do: this branch already follows %s\n", onto)
	}
	return nil
}
