package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
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
			&cli.BoolFlag{Name: "fix", Usage: "rewrite stale or drifted derived files as regen does (never CHANGELOG.md or the archive)"},
			&cli.StringSliceFlag{Name: "rule", Usage: "set a rule's severity, overriding .memsys.json: `ID=SEVERITY` (error, warning, off)"},
			&cli.StringFlag{Name: "base", Usage: "check that the log only appended events since git `REV` (\"auto\": the pull request base)"},
			&cli.StringFlag{Name: "head", Usage: "with --base, compare git `REV` instead of the working tree"},
			&cli.BoolFlag{Name: "staged", Usage: "check that the staged log only appends to HEAD"},
		},
		Action: runLint,
	}
}

func runLint(ctx context.Context, cmd *cli.Command) error {
	stdout := cmd.Root().Writer
	format := cmd.String("format")
	if !slices.Contains(lint.Formats, format) {
		return usageErr("lint: unknown format %q: use %s", format, strings.Join(lint.Formats, ", "))
	}
	if cmd.Bool("list-rules") {
		return listRules(stdout, format)
	}
	overrides, err := ruleFlags(cmd.StringSlice("rule"))
	if err != nil {
		return err
	}
	base, explicit := cmd.String("C"), cmd.IsSet("C")
	if base == "" {
		base = "."
	}
	// Paths are shown relative to base, which must be absolute for that:
	// roots come back absolute from FindRoot.
	if base, err = filepath.Abs(base); err != nil {
		return cannotRun{err}
	}
	roots, err := lintRoots(base, explicit, cmd.Args().Slice())
	if err != nil {
		return err
	}
	git := gitOptions{Base: cmd.String("base"), Head: cmd.String("head"), Staged: cmd.Bool("staged")}
	res := &lint.Result{Diagnostics: diag.Diagnostics{}, Roots: len(roots)}
	for _, root := range roots {
		ds, events, err := lintRoot(ctx, root, overrides, cmd.Bool("fix"), git)
		if err != nil {
			return err
		}
		res.Events += events
		for _, d := range ds {
			d.Range.File = displayPath(base, root, d.Range.File)
			for i := range d.Related {
				d.Related[i].File = displayPath(base, root, d.Related[i].File)
			}
			res.Diagnostics = append(res.Diagnostics, d)
		}
	}
	res.Diagnostics.Sort()

	opt := lint.PrinterOptions{Color: useColor(stdout), Version: "dev"}
	if format == "github" {
		if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" {
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err != nil {
				return cannotRun{fmt.Errorf("lint: open $GITHUB_STEP_SUMMARY: %w", err)}
			}
			defer f.Close()
			opt.StepSummary = f
		}
	}
	p, err := lint.NewPrinter(format, opt)
	if err != nil {
		return usageErr("lint: %v", err)
	}
	if err := p.Print(stdout, res); err != nil {
		return cannotRun{fmt.Errorf("lint: write output: %w", err)}
	}
	errs, warns := res.Diagnostics.Count()
	if errs > 0 || (cmd.Bool("strict") && warns > 0) {
		return errFindings
	}
	return nil
}

// ruleFlags reads --rule ID=SEVERITY values.
func ruleFlags(vals []string) ([]config.RuleSetting, error) {
	var out []config.RuleSetting
	for _, v := range vals {
		id, sev, ok := strings.Cut(v, "=")
		if !ok {
			return nil, usageErr("lint: --rule %q has no \"=\": write it as ID=SEVERITY, e.g. --rule MS117=off", v)
		}
		s, err := diag.ParseSeverity(strings.TrimSpace(sev))
		if err != nil {
			return nil, usageErr("lint: --rule %q: %v", v, err)
		}
		out = append(out, config.RuleSetting{Rule: strings.TrimSpace(id), Severity: s})
	}
	return out, nil
}

// lintRoots finds the memory roots: the one around base without
// patterns, else every folder matching a pattern (relative to base) that
// holds a CHANGELOG.md. The result is sorted, so output never depends on
// the order the file system lists folders in.
func lintRoots(base string, explicit bool, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		root, err := workspace.FindRoot(base, explicit)
		if err != nil {
			return nil, cannotRun{err}
		}
		return []string{root}, nil
	}
	seen := map[string]bool{}
	var roots []string
	fsys := os.DirFS(base)
	realBase, err := filepath.EvalSymlinks(base)
	if err != nil {
		return nil, cannotRun{err}
	}
	for _, pat := range patterns {
		pat = strings.TrimPrefix(filepath.ToSlash(pat), "./")
		if !doublestar.ValidatePattern(pat) {
			return nil, usageErr("lint: bad pattern %q: see doublestar syntax, e.g. 'services/**'", pat)
		}
		matches, err := doublestar.Glob(fsys, pat, doublestar.WithFailOnIOErrors())
		if err != nil {
			return nil, cannotRun{fmt.Errorf("lint: pattern %q: %w", pat, err)}
		}
		found := false
		for _, m := range matches {
			dir := filepath.Join(base, filepath.FromSlash(m))
			if filepath.Base(dir) == workspace.LogName {
				dir = filepath.Dir(dir)
			}
			if st, err := os.Stat(filepath.Join(dir, workspace.LogName)); err != nil || !st.Mode().IsRegular() {
				continue
			}
			// A pattern must not lead through a symlink to a memory
			// outside the start folder: --fix would write there.
			if real, err := filepath.EvalSymlinks(dir); err != nil || !inside(realBase, real) {
				return nil, usageErr("lint: %s leads outside %s through a symlink: memsys does not follow it", m, base)
			}
			found = true
			if !seen[dir] {
				seen[dir] = true
				roots = append(roots, dir)
			}
		}
		if !found {
			return nil, usageErr("lint: no memory root (a folder with %s) matches %q", workspace.LogName, pat)
		}
	}
	slices.Sort(roots)
	return roots, nil
}

// lintRoot lints one memory root; with fix it first rewrites the derived
// files lint finds stale or drifted, then lints the result.
func lintRoot(ctx context.Context, root string, overrides []config.RuleSetting, fix bool, git gitOptions) (diag.Diagnostics, int, error) {
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return nil, 0, cannotRun{err}
	}
	l, err := lint.New(cfg, overrides...)
	if err != nil {
		return nil, 0, cannotRun{err}
	}
	// The history streams through a lint Session: events are checked
	// and replayed as the parser completes them and none is kept.
	in := lintInput(root)
	in.Derive = fix
	s := l.Start(in)
	mem := &workspace.Memory{Root: root, Tier: workspace.DetectTier(root)}
	if _, err := os.Lstat(filepath.Join(root, workspace.LogName)); !errors.Is(err, fs.ErrNotExist) {
		if mem, err = workspace.Stream(root, s.Event); err != nil {
			return nil, 0, cannotRun{err}
		}
	}
	// A missing log is a finding (MS101), not a failure to run.
	ds := s.Finish(mem.Log, mem.Archive)
	events := s.Events()
	if fix {
		if ds, err = fixDerived(root, l, s, ds); err != nil {
			return nil, 0, err
		}
	}
	if git.Base != "" || git.Head != "" || git.Staged {
		gds, err := gitChecks(ctx, root, git)
		if err != nil {
			var ec cli.ExitCoder
			if !errors.As(err, &ec) {
				err = cannotRun{err}
			}
			return nil, 0, err
		}
		ds = append(ds, l.Adjust(gds)...)
	}
	return ds, events, nil
}

func lintInput(root string) lint.Input {
	return lint.Input{
		LogFile: workspace.LogName,
		ReadFile: func(rel string) ([]byte, error) {
			return workspace.ReadFile(root, rel)
		},
		Exists: func(rel string) bool {
			_, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
			return err == nil
		},
	}
}

// fixRules are the findings --fix repairs, by rewriting the file the
// diagnostic names.
var fixRules = map[string]bool{"MS202": true, "MS203": true, "MS204": true, "MS205": true}

// fixDerived rewrites the derived files the findings of s name with
// what regen writes (the Session replayed the history for it), then
// lints again.
func fixDerived(root string, l *lint.Linter, s *lint.Session, ds diag.Diagnostics) (diag.Diagnostics, error) {
	var files []string
	for _, d := range ds {
		if fixRules[d.Rule] && !slices.Contains(files, d.Range.File) {
			files = append(files, d.Range.File)
		}
	}
	if len(files) == 0 {
		return ds, nil
	}
	graph, context := s.Derived()
	content := map[string][]byte{lint.GraphFile: graph, lint.ContextFile: context}
	unlock, err := workspace.Lock(root)
	if err != nil {
		return nil, cannotRun{err}
	}
	defer unlock()
	if err := os.MkdirAll(filepath.Join(root, lint.MemoryDir), 0o755); err != nil {
		return nil, cannotRun{fmt.Errorf("lint --fix: %w", err)}
	}
	for _, f := range files {
		data, ok := content[f]
		if !ok {
			continue
		}
		if err := workspace.WriteFile(root, f, data); err != nil {
			return nil, cannotRun{fmt.Errorf("lint --fix: %w", err)}
		}
	}
	again := l.Start(lintInput(root))
	mem, err := workspace.Stream(root, again.Event)
	if err != nil {
		return nil, cannotRun{err}
	}
	return again.Finish(mem.Log, mem.Archive), nil
}

// displayPath makes a diagnostic's file relative to where memsys was
// started (or -C), as the user will open it.
func displayPath(base, root, file string) string {
	if file == "" {
		return file
	}
	abs := file
	if !filepath.IsAbs(file) {
		abs = filepath.Join(root, filepath.FromSlash(file))
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// useColor is true only on a terminal and never with NO_COLOR
// (https://no-color.org).
func useColor(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&fs.ModeCharDevice != 0
}

func listRules(w io.Writer, format string) error {
	rules := lint.Rules()
	if format == "json" {
		type jrule struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Severity string `json:"severity"`
			Enabled  bool   `json:"enabled"`
			Title    string `json:"title"`
			Doc      string `json:"doc"`
		}
		out := make([]jrule, 0, len(rules))
		for _, r := range rules {
			out = append(out, jrule{r.ID, r.Name, r.Severity.String(), !r.DefaultOff, r.Title, r.Doc})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tTITLE")
	for _, r := range rules {
		sev := r.Severity.String()
		if r.DefaultOff {
			sev += " (off)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, sev, r.Title)
	}
	return tw.Flush()
}

// inside reports whether p is root or below it.
func inside(root, p string) bool {
	r, err := filepath.Rel(root, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}
