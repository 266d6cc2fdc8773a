package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/adopt"
	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

func adoptCommand() *cli.Command {
	return &cli.Command{
		Name:      "adopt",
		Usage:     "record a hand-kept graph.md and context.md as events, so regen keeps them",
		ArgsUsage: " ",
		Description: `For a memory whose .memory/graph.md (and context.md's Active
Constraints) were kept by hand before memsys: compares them with the
replay of the log and appends the events that make the replay reproduce
every hand-kept node, type, status, attribute and edge (one create or
modify event per node, with relation details, tagged "adopted") and one
decision per hand-written constraint, then regenerates. Afterwards
regen --check passes and nothing curated is lost. Rows no event can
reproduce (a node named with a sentence, a relation outside the seed's)
are listed.

Exit status: 0 adopted (or nothing to adopt); 1 when some hand-kept row
could not be carried over (listed); 2 when memsys cannot run.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the events it would append and change nothing"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` of the events (default $MEMSYS_AGENT, $USER)"},
			&cli.StringFlag{Name: "time", Usage: "`\"YYYY-MM-DD HH:MM\"` of the events (default now, UTC)"},
		},
		Action: runAdopt,
	}
}

func runAdopt(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("adopt takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	dry := cmd.Bool("dry-run")
	o, err := adopt.Run(root, dry, lcAgent(cmd.String("agent")), lcTime(cmd.String("time")))
	if err != nil {
		return cannotRun{err}
	}
	plan, res := o.Plan, o.Result
	w, ew := cmd.Root().Writer, cmd.Root().ErrWriter
	for _, p := range plan.Problems {
		fmt.Fprintln(ew, "memsys: adopt: "+p)
	}
	if dry {
		for i, t := range res.Text {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprint(w, strings.TrimRight(string(t), "\r\n")+"\n")
		}
	}
	summary := fmt.Sprintf("%s; nodes: %d, edges: %d, constraints: %d", words.Plural(len(res.IDs), "event"), plan.Nodes, plan.Edges, plan.Constraints)
	switch {
	case len(res.IDs) == 0 && len(res.Missing) > 0:
		// Not "already drawn": what adopt names as not reproduced no
		// event could record, and the lines after it say what to do.
		fmt.Fprintln(w, "nothing adopted: no event can record what is not reproduced")
	case len(res.IDs) == 0:
		fmt.Fprintln(w, "nothing to adopt: the replay already draws every hand-kept row")
	case dry:
		fmt.Fprintln(w, "would append "+summary)
	default:
		// Named as import and archive name what they moved.
		fmt.Fprintf(w, "appended %s (%s)\n", memory.SpanOf(res.IDs[0], res.IDs[len(res.IDs)-1]), summary)
		for _, f := range o.Wrote {
			fmt.Fprintln(w, "wrote "+f)
		}
	}
	edge := false
	for _, m := range res.Missing {
		fmt.Fprintln(ew, "memsys: adopt: not reproduced: "+m)
		edge = edge || materialize.IsEdgeAttr(m)
	}
	switch {
	case edge && slices.Contains(o.Wrote, parse.GraphFile):
		// Regenerated with force: gone from graph.md, and the user is
		// to keep what they said elsewhere.
		fmt.Fprintln(ew, "memsys: adopt: wrote "+parse.GraphFile+" without them: "+lint.EdgeAttrNote.String())
	case edge:
		// What the user can do instead: no event carries an edge
		// attribute, so running adopt again would fail the same way.
		fmt.Fprintln(ew, "memsys: adopt: "+lint.EdgeAttrAdvice.String())
	}
	if len(plan.Problems) > 0 || len(res.Missing) > 0 {
		return errFindings
	}
	return nil
}
