package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// statusCommand is the BOOT step of the seed's agent lifecycle: what
// tier this is, how many events, and whether the derived files can be
// trusted (the seed's Staleness Check). Exit 1 when a derived file of
// the tier is stale, missing or unreadable, so `memsys status ||
// memsys regen` works in scripts (regen says what stops it), or when
// event headings could not be read.
func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "report tier, event counts, staleness of graph.md and context.md, and whether archival is due",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.IntFlag{Name: "threshold", Usage: "archive when the log holds more than `N` events (default from .memsys.json, else 50)", HideDefault: true},
		},
		Action: runStatus,
	}
}

func runStatus(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("status takes no arguments, got %q: pass --format json", words.Clip(cmd.Args().First()))
	}
	format, root, err := lcFormatRoot(cmd, "text", "json")
	if err != nil {
		return err
	}
	// The files are read before the flags are judged, as always.
	r, err := memory.ReadStatus(root)
	if err != nil {
		return cannotRun{err}
	}
	threshold, keep := r.Limits()
	threshold, _, err = lcThresholds(cmd, threshold, keep)
	if err != nil {
		return err
	}
	if err := archiveKeepErr(cmd, threshold, keep); err != nil {
		return err
	}
	r.SetThreshold(threshold)
	if format == "json" {
		if err := lcJSON(cmd.Root().Writer, r); err != nil {
			return err
		}
	} else {
		r.WriteText(cmd.Root().Writer, front.CLI)
	}
	if r.Fails() {
		return errFindings
	}
	return nil
}
