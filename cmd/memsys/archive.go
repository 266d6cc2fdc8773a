package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
)

// archiveCommand is the seed's Archival Protocol as one verified move
// (memory.Archive). --time overrides the archive event's time, which
// is otherwise the last event's, never the wall clock.
func archiveCommand() *cli.Command {
	return &cli.Command{
		Name:  "archive",
		Usage: "move old events to changelog-archive.md (the seed's Archival Protocol), verified byte for byte",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the boundary and what would move; write nothing"},
			&cli.IntFlag{Name: "keep", Usage: "always keep the last `N` events in the log (default from .memsys.json, else 20)", HideDefault: true},
			&cli.IntFlag{Name: "threshold", Usage: "archive only when the log holds more than `N` events (default from .memsys.json, else 50)", HideDefault: true},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` of the archive event (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
			&cli.StringFlag{Name: "time", Usage: "archive event `TIME` \"YYYY-MM-DD HH:MM\" (default: the last event's time)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		},
		Action: runArchive,
	}
}

// lcThresholds returns the archive threshold and keep count: flags
// first, then threshold and keep (.memsys.json's, or the defaults).
func lcThresholds(cmd *cli.Command, threshold, keep int) (int, int, error) {
	if cmd.IsSet("threshold") {
		threshold = int(cmd.Int("threshold"))
	}
	if cmd.IsSet("keep") {
		keep = int(cmd.Int("keep"))
	}
	// The flags stand for archive.threshold and archive.keep, so the
	// file's bounds and words judge them (a --threshold 0 the file
	// refuses was taken here). Each message names the flag that was
	// given: status has no --keep; what came from the file is checked.
	if err := config.CheckCount("--threshold", int64(threshold), config.MinArchiveThreshold); err != nil {
		return 0, 0, usageErr("%v", err)
	}
	if err := config.CheckCount("--keep", int64(keep), config.MinArchiveKeep); err != nil {
		return 0, 0, usageErr("%v", err)
	}
	return threshold, keep, nil
}

// archiveKeepErr refuses a keep count not below the threshold, as
// .memsys.json's loader does, naming each as it was set: the flag, or
// the file's setting (its default when the file has none). Such a keep
// was taken, and archive kept every event it was told to archive above.
// status has no --keep, but plans with the file's: a --threshold at or
// below it called archival due while the plan it printed moved nothing,
// and would after every archive.
func archiveKeepErr(cmd *cli.Command, threshold, keep int) error {
	keepName, thresholdName := "archive.keep", "archive.threshold"
	if cmd.IsSet("keep") {
		keepName = "--keep"
	}
	if cmd.IsSet("threshold") {
		thresholdName = "--threshold"
	}
	if err := config.CheckKeep(keepName, int64(keep), thresholdName, int64(threshold)); err != nil {
		return usageErr("%v", err)
	}
	return nil
}

func runArchive(ctx context.Context, cmd *cli.Command) error {
	// "memsys archive 20" would otherwise move events with the defaults.
	if cmd.Args().Len() > 0 {
		return usageErr("archive takes no arguments, got %q: pass --keep N, --threshold N or --dry-run", words.Clip(cmd.Args().First()))
	}
	format, root, err := lcFormatRoot(cmd, "text", "json")
	if err != nil {
		return err
	}
	threshold, keep, err := memory.ArchiveLimits(root)
	if err != nil {
		return cannotRun{err}
	}
	if threshold, keep, err = lcThresholds(cmd, threshold, keep); err != nil {
		return err
	}
	if err := archiveKeepErr(cmd, threshold, keep); err != nil {
		return err
	}
	opt := memory.ArchiveOptions{Threshold: threshold, Keep: keep, DryRun: cmd.Bool("dry-run"), Agent: lcAgent(cmd.String("agent"))}
	if cmd.IsSet("time") {
		opt.Time = lcTime(cmd.String("time"))
	}
	res, err := memory.Archive(root, opt)
	if err != nil {
		return cannotRun{err}
	}
	if format == "json" {
		return lcJSON(cmd.Root().Writer, res)
	}
	res.WriteText(cmd.Root().Writer, front.CLI)
	return nil
}
