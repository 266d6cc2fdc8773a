package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

func regenCommand() *cli.Command {
	return &cli.Command{
		Name:      "regen",
		Usage:     "rebuild .memory/graph.md and .memory/context.md from the event log",
		ArgsUsage: " ",
		Description: `Replays every event of the archive and CHANGELOG.md and rewrites the
derived files the tier uses (graph.md for full, context.md for core and
full). Output is a pure function of the events. Files whose bytes would
not change are not touched.

Exit status: 0 written (or, with --check, up to date); 1 with --check when
a file is out of date (a unified diff is printed); 2 when memsys cannot run.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "write nothing; exit 1 with a diff if a file is out of date"},
			&cli.BoolFlag{Name: "staged", Usage: "with --check, compare the staged (git index) versions: what the next commit records"},
			&cli.StringFlag{Name: "at", Usage: "replay only up to `evt-NNN|DATE`: an event, or a date YYYY-MM-DD (the end of that day) or \"YYYY-MM-DD HH:MM\" (the events before the first one dated after it); the memory as it was then"},
			&cli.StringFlag{Name: "stdout", Usage: "print `graph|context` instead of writing files"},
			&cli.BoolFlag{Name: "force", Usage: "replace a graph.md or context.md memsys did not write even when it holds what no replay produces, dropping it (memsys adopt records it as events first)"},
		},
		OnUsageError: usageOneLine,
		Action:       runRegen,
	}
}

func runRegen(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("regen takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	which := cmd.String("stdout")
	if which != "" && which != "graph" && which != "context" {
		return usageErr("unknown --stdout %q: use graph or context", words.Clip(which))
	}
	if cmd.Bool("check") && which != "" && !cmd.Bool("staged") {
		return usageErr("regen --check compares the files, --stdout prints one: use one of them")
	}
	if cmd.Bool("force") && (cmd.Bool("check") || which != "") {
		return usageErr("regen --force replaces files; --check and --stdout write none: use --force alone")
	}
	at, err := lcAt(cmd)
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("staged") {
		if !cmd.Bool("check") || which != "" || at != "" {
			return usageErr("regen --staged only checks: use it as regen --check --staged")
		}
		diff, sealOnly, refused, problems, err := memory.CheckStaged(ctx, root)
		warnProblems(cmd, root, problems)
		if err != nil {
			return cannotRun{err}
		}
		if diff != "" {
			fmt.Fprint(cmd.Root().Writer, diff)
			msg := "the staged derived files are not what regen writes from the staged log: run memsys regen, then git add .memory"
			if refused != nil {
				msg = "the staged " + refused.Error()
			} else if sealOnly {
				msg = "only the seals of the staged derived files differ: the staged log's events changed where these files do not show it (a committed event edited? memsys lint --staged names it: restore it), or another version of memsys wrote them (run memsys regen, then git add .memory)"
			}
			fmt.Fprintln(cmd.Root().ErrWriter, "memsys: "+lint.Chdir(msg, lcDir(cmd)))
			return errFindings
		}
		return nil
	}
	r, err := memory.Regenerate(root, memory.RegenOptions{At: at, Stdout: which, Check: cmd.Bool("check"), Force: cmd.Bool("force")})
	if r != nil {
		warnProblems(cmd, root, r.Problems)
		for _, f := range r.Wrote {
			fmt.Fprintln(cmd.Root().Writer, "wrote "+f)
		}
	}
	if err != nil {
		return cannotRun{err}
	}
	if which != "" {
		_, err := cmd.Root().Writer.Write(r.Output)
		return err
	}
	if r.Diff != "" {
		fmt.Fprint(cmd.Root().Writer, r.Diff)
		msg := "derived files are out of date: run memsys regen"
		if r.Refused != nil {
			msg = r.Refused.Error() // regen would refuse: lint's and status's advice
		}
		fmt.Fprintln(cmd.Root().ErrWriter, "memsys: "+lint.Chdir(msg, lcDir(cmd)))
		return errFindings
	}
	return nil
}

// maxWarnings caps the warnings regen prints: a log with thousands of
// problems should not bury the command's own output; lint lists them all.
const maxWarnings = 10

// warnProblems prints the history's problems on stderr, one line each
// as "file:line:col: warning: message [ID]", with the file relative to
// where memsys was started (or -C) and the rule ID, as lint shows them.
// The problems lint hides (the baseline's) are not there to print. The
// exit status stays 0.
func warnProblems(cmd *cli.Command, root string, problems diag.Diagnostics) {
	w := cmd.Root().ErrWriter
	base, err := lcStart(cmd)
	if err != nil {
		base = root
	}
	for n, p := range problems {
		if n == maxWarnings {
			fmt.Fprintf(w, "memsys: warning: %s not shown: run memsys lint to see them all\n", words.Plural(len(problems)-maxWarnings, "more problem"))
			break
		}
		r := p.Range
		r.File = workspace.DisplayPath(base, root, r.File)
		fmt.Fprintf(w, "%s: warning: %s%s\n", r, p.Message, ruleSuffix(p.Rule))
	}
}

// ruleSuffix is the " [ID]" lint ends a finding's line with, "" for a
// problem no rule reports.
func ruleSuffix(id string) string {
	if id == "" {
		return ""
	}
	return " [" + id + "]"
}
