package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// appendCommand adds one event at the end of CHANGELOG.md
// (memory.Append, which holds the lock and writes atomically).
func appendCommand() *cli.Command {
	return &cli.Command{
		Name:      "append",
		Usage:     "append one event to CHANGELOG.md (the next ID, the seed's format, under a lock)",
		UsageText: "memsys append --type T --scope S --summary TEXT [--detail key=value]... [--refs evt-NNN,...] [--tags a,b] [--supersedes evt-NNN,...]\nmemsys append --json - < event.json",
		Description: "Appends one event with the next ID in the seed's format, under the memory's\n" +
			"lock, and checks it reads back as written. The detail keys each type asks\n" +
			"for (lint MS112 warns when one is missing):\n\n" + lint.RequiredDetailsHelp() +
			"\nExit status: 0 appended; 2 when the event is invalid or memsys cannot run.",
		// --detail values may contain commas; split --refs and --tags ourselves.
		DisableSliceFlagSeparator: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "type", Usage: "event `TYPE`: " + strings.Join(parse.EventTypes, ", ")},
			&cli.StringFlag{Name: "scope", Usage: "the area the event affects"},
			&cli.StringFlag{Name: "summary", Usage: "one self-contained line"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
			&cli.StringSliceFlag{Name: "detail", Usage: "a detail bullet `KEY=VALUE`, repeatable; KEY.SUB=VALUE nests under the latest KEY"},
			&cli.StringSliceFlag{Name: "refs", Usage: "referenced event `IDS`, comma-separated or repeated"},
			&cli.StringSliceFlag{Name: "tags", Usage: "`TAGS`, comma-separated or repeated"},
			&cli.StringSliceFlag{Name: "supersedes", Usage: "earlier event `IDS` this event corrects, comma-separated or repeated"},
			&cli.StringFlag{Name: "time", Usage: "event `TIME` \"YYYY-MM-DD HH:MM\", written as given (default: now in UTC)"},
			&cli.StringFlag{Name: "json", Usage: "read the whole event as a JSON object from `-` (stdin)"},
			&cli.BoolFlag{Name: "regen", Usage: "regenerate graph.md and context.md in the same command, under the same lock"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text (the new ID) or json"},
		},
		Action: runAppend,
	}
}

func runAppend(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("append takes no arguments, got %q: pass the event with flags or --json -", words.Clip(cmd.Args().First()))
	}
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	d, err := lcDraft(cmd)
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	res, err := memory.Append(root, d, cmd.Bool("regen"), format == "json")
	if err != nil && cmd.String("json") != "" {
		// The flags cannot be combined with --json: name the object's
		// keys instead ("missing scope: pass the "scope" key").
		err = jsonWorded{msg: front.Message(err, front.JSON), err: err}
	}
	if res.Recovered != "" {
		fmt.Fprintln(cmd.Root().ErrWriter, "memsys: "+res.Recovered)
	}
	if err != nil && res.ID == "" {
		return cannotRun{err}
	}
	// With an ID the event is in the log, even when --regen then failed:
	// print it, then the error.
	w := cmd.Root().Writer
	if format == "json" {
		if jerr := lcJSON(w, res); jerr != nil {
			return jerr
		}
	} else {
		fmt.Fprintln(w, res.ID)
	}
	if err != nil {
		return cannotRun{err}
	}
	return nil
}

// jsonWorded is an append error as the JSON front words it, still
// wrapping the error it words.
type jsonWorded struct {
	msg string
	err error
}

func (e jsonWorded) Error() string { return e.msg }
func (e jsonWorded) Unwrap() error { return e.err }

// lcDraft builds the event from --json or from the flags.
func lcDraft(cmd *cli.Command) (memory.Draft, error) {
	var d memory.Draft
	if src := cmd.String("json"); src != "" {
		if src != "-" {
			return d, usageErr("--json %q: only \"-\" (stdin) is supported", words.Clip(src))
		}
		for _, f := range []string{"type", "scope", "summary", "detail", "refs", "tags", "supersedes"} {
			if cmd.IsSet(f) {
				return d, usageErr("--%s cannot be combined with --json: put it in the JSON object", f)
			}
		}
		data, err := io.ReadAll(io.LimitReader(cmd.Root().Reader, memory.MaxDraftJSON+1))
		if err != nil {
			return d, cannotRun{fmt.Errorf("reading stdin: %w", err)}
		}
		if d, err = memory.DecodeDraft(data); err != nil {
			return d, cannotRun{err}
		}
	} else {
		d = memory.Draft{
			Type:    cmd.String("type"),
			Scope:   cmd.String("scope"),
			Summary: cmd.String("summary"),
			Refs:    cmd.StringSlice("refs"),
			Tags:    memory.SplitList(cmd.StringSlice("tags")),

			Supersedes: cmd.StringSlice("supersedes"),
		}
		var err error
		for _, a := range cmd.StringSlice("detail") {
			if d.Details, err = memory.AddDetailFlag(d.Details, a); err != nil {
				return d, cannotRun{err}
			}
		}
	}
	if cmd.IsSet("agent") || d.Agent == "" {
		d.Agent = lcAgent(cmd.String("agent"))
	}
	if cmd.IsSet("time") || d.Time == "" {
		d.Time = lcTime(cmd.String("time"))
	}
	return d, nil
}

// lcAgent picks the agent name (memory.DefaultAgent).
func lcAgent(flag string) string { return memory.DefaultAgent(flag) }

// lcTime returns the event time: the flag as written (a "T" between
// date and time is accepted), else the current minute in UTC. The log
// stores zone-less wall-clock minutes; UTC is the only default that
// gives the same stamp for agents on machines in different zones.
func lcTime(flag string) string {
	if flag != "" {
		return flag // memory.Append checks it, and accepts a "T" separator
	}
	return memory.Now()
}

// lcRoot resolves the memory root from -C or the working directory.
func lcRoot(cmd *cli.Command) (string, error) {
	dir, explicit := cmd.String("C"), true
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", cannotRun{err}
		}
		dir, explicit = wd, false
	}
	root, err := workspace.FindRoot(dir, explicit)
	if err != nil {
		return "", cannotRun{err}
	}
	workspace.TuneGC(root)
	return root, nil
}

// lcFormatRoot reads --format (one of allowed) and then the memory root.
func lcFormatRoot(cmd *cli.Command, allowed ...string) (format, root string, err error) {
	if format, err = lcFormat(cmd, allowed...); err != nil {
		return "", "", err
	}
	root, err = lcRoot(cmd)
	return format, root, err
}

// lcFormat reads --format and checks it is one of allowed.
func lcFormat(cmd *cli.Command, allowed ...string) (string, error) {
	f := cmd.String("format")
	for _, a := range allowed {
		if f == a {
			return f, nil
		}
	}
	return "", usageErr("unknown --format %q: use %s", words.Clip(f), strings.Join(allowed, " or "))
}

// lcJSON prints v as indented JSON with a final newline.
// Summaries and labels keep '<', '>' and '&' as written rather than
// as \u003c escapes: the output is read by agents, not embedded in HTML.
func lcJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return cannotRun{err}
	}
	return nil
}
