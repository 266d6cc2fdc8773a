package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
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

// derivedFile is one file regen writes.
type derivedFile struct {
	rel  string
	data []byte
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
	cfg, err := config.Load(root)
	if err != nil {
		return cannotRun{err}
	}
	mem, x, err := replayHistory(root, cfg.Materialize(), cmd.String("at"))
	if err != nil {
		return err
	}
	warnProblems(cmd, mem)
	if which != "" {
		g, c := render(x)
		out := g
		if which == "context" {
			out = c
		}
		_, err := cmd.Root().Writer.Write(out)
		return err
	}
	files := derive(x, tierOf(cfg, mem))
	if cmd.Bool("check") {
		stale := false
		for _, f := range files {
			cur, err := workspace.ReadFile(root, f.rel)
			if err != nil && !strings.Contains(err.Error(), "no such file") {
				return cannotRun{err}
			}
			if d := udiff.Unified(f.rel, f.rel+" (regen)", cur, f.data); d != "" {
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
		if workspace.Equal(root, f.rel, f.data) {
			continue
		}
		if err := workspace.WriteFile(root, f.rel, f.data); err != nil {
			return cannotRun{err}
		}
		fmt.Fprintln(cmd.Root().Writer, "wrote "+f.rel)
	}
	return nil
}

// tierOf is the configured tier, else the one the files on disk show.
func tierOf(cfg config.Config, mem *workspace.Memory) workspace.Tier {
	if cfg.Tier != "" {
		return workspace.Tier(cfg.Tier)
	}
	return mem.Tier
}

// render renders graph.md and context.md from a replay, exactly as
// lint's drift rules expect them.
func render(x *materialize.Replayer) (graph, context []byte) {
	return x.Render()
}

// derive returns the derived files of tier, rendered from a replay.
func derive(x *materialize.Replayer, tier workspace.Tier) []derivedFile {
	if tier == workspace.MVP {
		return nil
	}
	g, c := render(x)
	files := []derivedFile{{workspace.ContextPath, c}}
	if tier == workspace.Full {
		files = append([]derivedFile{{workspace.GraphPath, g}}, files...)
	}
	return files
}

// replayHistory replays root's history (archive, then log) as the
// parser reads it, without keeping the events, up to and including the
// first event with the number of the ID atID ("": all of it; IDs match
// by number, so evt-7 finds evt-007). Like loadHistory it refuses a
// history cut short by an over-long line.
func replayHistory(root string, opt materialize.Options, atID string) (*workspace.Memory, *materialize.Replayer, error) {
	at := -1
	if atID != "" {
		n, ok := lcEvtNum(atID)
		if !ok {
			return nil, nil, errNotEventID("--at", atID)
		}
		at = n
	}
	// The replay runs beside the parser, on its own goroutine. It is
	// told beforehand which events later ones supersede, predicted from
	// the bytes; if the events disagree, it replays again with the
	// Supersedes fields it saw (materialize.Replayer.Exact).
	var expect []parse.Supersession
	predicted := true
	for {
		a := materialize.NewAsync(opt)
		done := false
		mem, err := workspace.StreamWith(root, func(m *workspace.Memory) {
			if predicted {
				expect = m.Supersessions()
			}
			a.Expect(expect)
		}, func(e *parse.Event) {
			if done {
				return
			}
			a.Add(e)
			done = at >= 0 && e.Num == at
		})
		x := a.Wait()
		if err != nil {
			return nil, nil, cannotRun{err}
		}
		if err := mem.Incomplete(); err != nil {
			return nil, nil, cannotRun{err}
		}
		if at >= 0 && !done {
			return nil, nil, errNoSuchEvent("--at", atID)
		}
		if x.Exact() || !predicted {
			return mem, x, nil
		}
		expect, predicted = x.Seen(), false
	}
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

// loadHistory reads the log and archive of root and refuses a history
// cut short by an over-long line: acting on half the events would write
// wrong files. Errors exit 2.
func loadHistory(root string) (*workspace.Memory, error) {
	mem, err := workspace.Load(root)
	if err != nil {
		return nil, cannotRun{err}
	}
	if err := mem.Incomplete(); err != nil {
		return nil, cannotRun{err}
	}
	return mem, nil
}
