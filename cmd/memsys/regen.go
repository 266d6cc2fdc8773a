package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
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
			&cli.StringFlag{Name: "at", Usage: "replay only up to `evt-NNN`: the memory as it was then"},
			&cli.StringFlag{Name: "stdout", Usage: "print `graph|context` instead of writing files"},
		},
		OnUsageError: usageOneLine,
		Action:       runRegen,
	}
}

func runRegen(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("regen takes no arguments, got %q", cmd.Args().First())
	}
	which := cmd.String("stdout")
	if which != "" && which != "graph" && which != "context" {
		return usageErr("unknown --stdout %q: use graph or context", which)
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	write := which == "" && !cmd.Bool("check")
	if write {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return cannotRun{err}
		}
		defer unlock()
	}
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return cannotRun{err}
	}
	mem, x, err := memory.Replay(root, lint.RenderOptions(cfg), cmd.String("at"))
	if err != nil {
		return err
	}
	warnProblems(cmd, mem)
	if which != "" {
		g, c := x.Render()
		out := g
		if which == "context" {
			out = c
		}
		_, err := cmd.Root().Writer.Write(out)
		return err
	}
	files := memory.Derive(x, memory.TierOf(cfg, mem))
	if cmd.Bool("check") {
		stale := false
		for _, f := range files {
			cur, err := workspace.ReadFile(root, f.File)
			if err != nil && !strings.Contains(err.Error(), "no such file") {
				return cannotRun{err}
			}
			if d := udiff.Unified(f.File, f.File+" (regen)", cur, f.Data); d != "" {
				fmt.Fprint(cmd.Root().Writer, d)
				stale = true
			}
		}
		if stale {
			fmt.Fprintln(cmd.Root().ErrWriter, "memsys: derived files are out of date: run memsys regen")
			return errFindings
		}
		return nil
	}
	for _, f := range files {
		if workspace.Equal(root, f.File, f.Data) {
			continue
		}
		if err := workspace.WriteFile(root, f.File, f.Data); err != nil {
			return cannotRun{err}
		}
		fmt.Fprintln(cmd.Root().Writer, "wrote "+f.File)
	}
	return nil
}

// maxWarnings caps the warnings regen prints: a log with thousands of
// problems should not bury the command's own output; lint lists them all.
const maxWarnings = 10

// warnProblems prints the log's problems on stderr, one line each as
// "file:line:col: warning: message", archive first, with the file
// relative to where memsys was started (or -C), as lint shows it. Regen still
// materializes (deterministically: a malformed event is skipped the same
// way every time), so they are warnings and the exit status stays 0.
func warnProblems(cmd *cli.Command, mem *workspace.Memory) {
	w := cmd.Root().ErrWriter
	base, err := filepath.Abs(cmd.String("C"))
	if err != nil {
		base = mem.Root
	}
	n := 0
	for _, l := range []*parse.Log{mem.Archive, mem.Log} {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if n < maxWarnings {
				r := p.Range
				r.File = displayPath(base, mem.Root, r.File)
				fmt.Fprintf(w, "%s: warning: %s\n", r, p.Message)
			}
			n++
		}
	}
	if n > maxWarnings {
		fmt.Fprintf(w, "memsys: warning: %d more problem(s) not shown: run memsys lint to see them all\n", n-maxWarnings)
	}
}
