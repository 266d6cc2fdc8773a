package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/ledger"
	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
)

// importCommand appends the events of a JSONL ledger (seed 000's
// ledger.jsonl, or memsys export's output), all or nothing.
func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "append the events of a JSONL ledger (seed 000's ledger.jsonl or memsys export), all or nothing",
		UsageText: "memsys import --from ledger.jsonl [--dry-run] [--agent NAME]\nmemsys export | memsys -C ../other import --from -",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the ledger `FILE`, one JSON event per line; - reads standard input"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the mapping of each line and write nothing"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` for lines without one (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
		},
		Action: runImport,
	}
}

func runImport(ctx context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 0 {
		return usageErr("import takes no arguments, got %q: pass the ledger with --from FILE", words.Clip(cmd.Args().First()))
	}
	from := cmd.String("from")
	if from == "" {
		return usageErr("import needs --from FILE: the JSONL ledger to import (- for standard input)")
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	var r *ledger.Result
	if from == "-" {
		from = ledger.StdinName
		r, err = ledger.ImportReader(root, from, cmd.Root().Reader, lcAgent(cmd.String("agent")), cmd.Bool("dry-run"))
	} else {
		// -C means "as if started in DIR": a relative --from is read from there.
		path := from
		if dir := cmd.String("C"); dir != "" && !filepath.IsAbs(from) {
			path = filepath.Join(dir, from)
		}
		r, err = ledger.ImportFile(root, path, lcAgent(cmd.String("agent")), cmd.Bool("dry-run"))
	}
	if err != nil {
		return cannotRun{err}
	}
	w := cmd.Root().Writer
	skipped := ""
	if r.Skipped > 0 {
		skipped = "; skipped " + words.Plural(r.Skipped, "line") + " already imported"
	}
	if r.DryRun {
		for _, l := range r.Lines {
			if l.Skipped {
				fmt.Fprintf(w, "%s:%d %s = %s (already imported, skipped)\n", from, l.Line, l.OldID, l.NewID)
				continue
			}
			fmt.Fprintf(w, "%s:%d %s -> %s | %s | %s | %s | %s\n", from, l.Line, l.OldID, l.NewID, l.Draft.Time, l.Draft.Agent, l.Draft.Type, l.Draft.Summary)
		}
		fmt.Fprintf(w, "dry run: %s would be appended%s; nothing written\n", words.Plural(r.Events, "event"), skipped)
		return nil
	}
	if r.Events == 0 {
		fmt.Fprintf(w, "nothing to import%s\n", skipped)
		return nil
	}
	fmt.Fprintf(w, "imported %s: %s%s\n", words.Plural(r.Events, "event"), memory.SpanOf(r.First, r.Last), skipped)
	return nil
}

// exportCommand writes every event, archive first, as JSONL.
func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print every event (archive and log) as JSONL, one object per line",
		UsageText: "memsys export [--format jsonl] [--skip-invalid]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "jsonl", Usage: "output `FORMAT`: jsonl"},
			&cli.BoolFlag{Name: "skip-invalid", Usage: "leave out the events memsys import would refuse (each named on stderr; exit 1) instead of refusing the export"},
		},
		Action: runExport,
	}
}

func runExport(ctx context.Context, cmd *cli.Command) error {
	if _, err := lcFormat(cmd, "jsonl"); err != nil {
		return err
	}
	if cmd.Args().Len() > 0 {
		return usageErr("export takes no arguments, got %q", words.Clip(cmd.Args().First()))
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	if !cmd.Bool("skip-invalid") {
		if err := ledger.ExportRoot(root, cmd.Root().Writer); err != nil {
			return cannotRun{err}
		}
		return nil
	}
	skips, err := ledger.ExportRootSkipping(root, cmd.Root().Writer)
	if err != nil {
		return cannotRun{err}
	}
	if len(skips) == 0 {
		return nil
	}
	// Findings: the ledger is written, but not every event is in it
	// as the log has it, which a script (CI) must notice.
	ew := cmd.Root().ErrWriter
	for _, s := range skips {
		fmt.Fprintln(ew, s)
	}
	return errFindings
}
