package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// logCommand lists events oldest first, one line each, archive
// included. Filters combine with AND.
func logCommand() *cli.Command {
	return &cli.Command{
		Name:  "log",
		Usage: "list events oldest first, one line each, filtered by entity, type, agent, date or refs",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "entity", Usage: "only events that touched graph node `NAME` (its full history)"},
			&cli.StringFlag{Name: "type", Usage: "only events of `TYPE` (comma-separated for several)"},
			&cli.StringFlag{Name: "agent", Usage: "only events by `AGENT`"},
			&cli.StringFlag{Name: "since", Usage: "only events at or after `DATE` (YYYY-MM-DD or \"YYYY-MM-DD HH:MM\")"},
			&cli.StringFlag{Name: "until", Usage: "only events at or before `DATE` (a date includes the whole day)"},
			&cli.StringFlag{Name: "refs-to", Usage: "only events whose Refs, Supersedes or a closes detail name `evt-NNN`"},
			&cli.BoolFlag{Name: "open", Usage: "only open loops: blockers, escalations and commitments no later event closed"},
			&cli.BoolFlag{Name: "superseded", Usage: "only events that a later event supersedes"},
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "only the last `N` events that pass the filters (still oldest first)", HideDefault: true},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			lcAtFlag(),
		},
		Action: runLog,
	}
}

func runLog(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("log takes no arguments, got %q: filter with --entity, --type, --agent, --since, --until or --refs-to", words.Clip(cmd.Args().First()))
	}
	f := memory.LogFilter{Entity: cmd.String("entity"), Agent: cmd.String("agent"), Since: cmd.String("since"),
		Until: cmd.String("until"), RefsTo: cmd.String("refs-to"), At: cmd.String("at"),
		Open: cmd.Bool("open"), Superseded: cmd.Bool("superseded"), Limit: int(cmd.Int("limit"))}
	if cmd.IsSet("limit") && f.Limit < 1 {
		return cannotRun{memory.ErrLimit("--limit", f.Limit, "every event")}
	}
	if v := cmd.String("type"); v != "" {
		f.Types = strings.Split(v, ",")
	}
	// An empty filter (an unset variable in a script) is refused, as
	// memsys_log refuses one (memory.LogFilter.Blank), rather than read
	// as no filter.
	if err := f.Check(func(in front.Input) bool { return cmd.IsSet(strings.TrimPrefix(in.Flag, "--")) }); err != nil {
		return cannotRun{err}
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	out, err := memory.LogLines(root, f)
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	if format == "json" {
		return lcJSON(w, out)
	}
	// A write error sticks in Main's buffered writer, which reports it
	// when it flushes, as for every command.
	var line []byte
	for _, l := range out {
		line = append(l.Append(line[:0]), '\n')
		w.Write(line)
	}
	return nil
}
