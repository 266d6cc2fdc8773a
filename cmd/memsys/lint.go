package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "check the memory against every integrity rule",
		ArgsUsage: "[PATTERN...]",
		Description: "Lints the memory root (or, with PATTERNs such as 'services/**', every memory root\n" +
			"found under them). Exit 0 without errors, 1 with errors (or warnings with --strict),\n" +
			"2 when lint cannot run. Rules, formats and .memsys.json are described in docs/lint.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, json, github or sarif"},
			&cli.BoolFlag{Name: "strict", Usage: "fail (exit 1) on warnings too"},
			&cli.BoolFlag{Name: "list-rules", Usage: "print the rules (ID, name, severity, title) and exit"},
			&cli.StringFlag{Name: "explain", Usage: "print the help of rule `ID` (or name), offline, and exit (--format text or json)"},
			&cli.BoolFlag{Name: "fix", Usage: "rewrite stale or drifted derived files as regen does (never CHANGELOG.md or the archive)"},
			&cli.StringSliceFlag{Name: "rule", Usage: "set a rule's severity, overriding .memsys.json: `ID=SEVERITY` (error, warning, off)"},
			&cli.StringFlag{Name: "base", Usage: "check that the log only appended events since git `REV` (\"auto\": the pull request base)"},
			&cli.StringFlag{Name: "head", Usage: "with --base, compare git `REV` instead of the working tree"},
			&cli.BoolFlag{Name: "staged", Usage: "lint the staged files (the git index: what the commit records), and check that the staged log only appends to HEAD"},
			&cli.BoolFlag{Name: "write-baseline", Usage: "record today's findings in " + lint.BaselineFile + "; later runs report only new ones"},
		},
		Action: runLint,
	}
}

func runLint(ctx context.Context, cmd *cli.Command) (err error) {
	stdout := cmd.Root().Writer
	format := cmd.String("format")
	if !slices.Contains(lint.Formats, format) {
		return usageErr("lint: unknown format %q: use %s", words.Clip(format), strings.Join(lint.Formats, ", "))
	}
	if format == "github" {
		// The line on stderr is in the step's log only; as an
		// annotation the pull request's checks show it too.
		defer func() {
			if _, ok := errors.AsType[cannotRun](err); ok {
				// The file named as on stderr: relative to where memsys
				// started, not the runner's absolute checkout path.
				msg := err.Error()
				if base, berr := lcStart(cmd); berr == nil {
					msg = workspace.DisplayError(base, err)
				}
				lint.WriteGitHubError(stdout, "memsys: "+msg)
			}
		}()
	}
	if cmd.Bool("list-rules") {
		return listRules(cmd, format)
	}
	if id := cmd.String("explain"); id != "" {
		r := lint.Lookup(id)
		if r == nil {
			return usageErr("lint --explain %q: no such rule: memsys lint --list-rules lists them", words.Clip(id))
		}
		switch format {
		case "json":
			return lcJSON(stdout, lint.Help(r, true))
		case "text":
			fmt.Fprint(stdout, lint.Explain(r))
			return nil
		}
		return usageErr("lint --explain prints text or json, not %q: see memsys lint --help", words.Clip(format))
	}
	overrides, err := ruleFlags(cmd.StringSlice("rule"))
	if err != nil {
		return err
	}
	base, err := lcStart(cmd)
	if err != nil {
		return err
	}
	roots, err := workspace.Roots(base, cmd.IsSet("C"), cmd.Args().Slice())
	if err != nil {
		return cannotRun{err}
	}
	opt := memory.LintOptions{Overrides: overrides, Fix: cmd.Bool("fix"), WriteBaseline: cmd.Bool("write-baseline"), Fingerprints: format == "sarif",
		Git:   history.GitOptions{Base: cmd.String("base"), Head: cmd.String("head"), Staged: cmd.Bool("staged")},
		Notes: func(s string) { fmt.Fprintln(cmd.Root().ErrWriter, "memsys: "+s) }}
	res := &lint.Result{Diagnostics: diag.Diagnostics{}, Roots: len(roots)}
	for i, root := range roots {
		opt.Exiting = i == len(roots)-1 // only the last root's lint is followed by the printing alone
		opt.Display = func(f string) string { return workspace.DisplayPath(base, root, f) }
		r, err := memory.Lint(ctx, root, opt)
		if err != nil {
			return cannotRun{err}
		}
		res.Events += r.Events
		res.Suppressed += r.Suppressed
		if r.Suppressed > 0 {
			res.BaselineFiles = append(res.BaselineFiles, opt.Display(lint.BaselineFile))
		}
		res.Diagnostics = append(res.Diagnostics, r.Diagnostics.Relocate(func(f string) string { return workspace.DisplayPath(base, root, f) })...)
	}
	res.Diagnostics.Sort()
	lint.ChdirAdvice(res.Diagnostics, lcDir(cmd))
	if err := lcPrint(ctx, cmd, format, res); err != nil {
		return err
	}
	errs, warns := res.Diagnostics.Count()
	if errs > 0 || (cmd.Bool("strict") && warns > 0) {
		return errFindings
	}
	return nil
}

// lcStart is the folder memsys was started in (or -C), absolute, as
// the base diagnostics' paths are shown relative to.
func lcStart(cmd *cli.Command) (string, error) {
	base := cmd.String("C")
	if base == "" {
		base = "."
	}
	abs, err := filepath.Abs(base)
	if err != nil {
		return "", cannotRun{err}
	}
	return abs, nil
}

// lcDir is -C's folder as given, cleaned ("" without -C): advice names
// it, so that it runs from where memsys was started (lint.Chdir).
func lcDir(cmd *cli.Command) string {
	if !cmd.IsSet("C") {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(cmd.String("C")))
}

// lcPrint prints res with the printer of format (lint's and audit's
// findings alike). Colour only on a terminal and never with NO_COLOR
// (https://no-color.org); the github format also writes the job summary
// to $GITHUB_STEP_SUMMARY when it is set.
func lcPrint(ctx context.Context, cmd *cli.Command, format string, res *lint.Result) error {
	stdout := cmd.Root().Writer
	opt := lint.PrinterOptions{Color: os.Getenv("NO_COLOR") == "" && workspace.IsTerminal(stdout), Version: "dev"}
	if format == "github" {
		if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
			f, err := workspace.OpenAppend(path)
			if err != nil {
				return cannotRun{fmt.Errorf("%s: open $GITHUB_STEP_SUMMARY: %w", cmd.Name, err)}
			}
			defer f.Close()
			opt.StepSummary = f
		}
	}
	p, err := lint.NewPrinter(format, opt)
	if err != nil {
		return usageErr("%s: %v", cmd.Name, err)
	}
	if format == "github" || format == "sarif" {
		// GitHub reads these paths from the repository root.
		start, err := lcStart(cmd)
		if err != nil {
			return err
		}
		res.Diagnostics = res.Diagnostics.Relocate(history.RepoRelative(ctx, start))
	}
	if err := p.Print(stdout, res); err != nil {
		return cannotRun{fmt.Errorf("%s: write output: %w", cmd.Name, err)}
	}
	if w := lint.SARIFWarning(res); format == "sarif" && w != "" {
		fmt.Fprintln(cmd.Root().ErrWriter, "memsys: "+cmd.Name+": "+w)
	}
	return nil
}

// ruleFlags reads --rule ID=SEVERITY values.
func ruleFlags(vals []string) ([]config.RuleSetting, error) {
	var out []config.RuleSetting
	for _, v := range vals {
		id, sev, ok := strings.Cut(v, "=")
		if !ok {
			return nil, usageErr("lint: --rule %q has no \"=\": write it as ID=SEVERITY, e.g. --rule MS117=off", words.Clip(v))
		}
		s, err := diag.ParseSeverity(strings.TrimSpace(sev))
		if err != nil {
			return nil, usageErr("lint: --rule %q: %v", words.Clip(v), err)
		}
		out = append(out, config.RuleSetting{Rule: strings.TrimSpace(id), Severity: s})
	}
	return out, nil
}

// listRules prints the rules as lint runs them at the memory root
// (-C, else the one around the current folder): the severities after
// its .memsys.json and --rule, marked with what set them. Where the
// configuration cannot be read the defaults are printed, then the
// error (exit 2): its advice is to look the rule up in this list.
func listRules(cmd *cli.Command, format string) error {
	w := cmd.Root().Writer
	if format != "text" && format != "json" {
		// github and sarif carry findings, not a rule list.
		return usageErr("lint --list-rules prints text or json, not %q: see memsys lint --help", words.Clip(format))
	}
	if cmd.Args().Len() > 0 {
		// One list per configuration: a pattern's roots may each have one.
		return usageErr("lint --list-rules takes no PATTERN, got %q: run it in the memory's folder (memsys -C DIR lint --list-rules)", words.Clip(cmd.Args().First()))
	}
	overrides, err := ruleFlags(cmd.StringSlice("rule"))
	if err != nil {
		return err
	}
	base, err := lcStart(cmd)
	if err != nil {
		return err
	}
	root, err := workspace.FindRoot(base, cmd.IsSet("C"))
	if err != nil {
		return cannotRun{err}
	}
	states, cfgErr := memory.RuleStates(root, overrides)
	if format == "json" {
		err = lcJSON(w, states)
	} else {
		tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tTITLE")
		for _, s := range states {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.ID, s.Name, s.SeverityText(), s.Title)
		}
		err = tw.Flush()
	}
	if cfgErr != nil {
		return cannotRun{cfgErr}
	}
	return err
}
