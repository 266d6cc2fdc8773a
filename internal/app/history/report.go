package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// Audit audits the memory at root as memsys audit does: since limits
// the walk (REV..HEAD, "" for all of history), and the rule severities
// of root's .memsys.json apply. Paths in the findings are shown relative
// to start, the folder memsys was started in.
func Audit(ctx context.Context, root, start, since string) (*Result, error) {
	// No gitx.Open: Run's first git call (gitx.Git.Layout) fails as
	// Open would outside a repository, and a git process is most of
	// what a small audit costs.
	g := &gitx.Git{Dir: root}
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	l, err := lint.New(cfg)
	if err != nil {
		return nil, err
	}
	res, err := Run(ctx, g, Options{Since: since, Linter: l})
	if err != nil {
		var me *gitx.MissingError
		var se *ShallowError
		switch {
		case errors.As(err, &me):
			rev := words.ClipPath(since)
			return nil, fmt.Errorf("audit --since: %v", gitx.NoCommits(err, fmt.Sprintf("there is no %q to audit after", rev), "memsys audit --since "+rev))
		case errors.As(err, &se):
			return nil, fmt.Errorf("audit: %v", err)
		}
		return nil, fmt.Errorf("audit: %w", err)
	}
	if err := workspace.Stat(root, parse.LogFile); errors.Is(err, fs.ErrNotExist) {
		// The log moved to another folder (git mv): its history goes on
		// there, and here every event would read as deleted.
		if to, commit, ok, err := movedTo(ctx, g, root); err != nil {
			return nil, fmt.Errorf("audit: %w", err)
		} else if ok {
			dir := workspace.DisplayPath(start, root, to)
			return nil, fmt.Errorf("audit: %s moved away in commit %.12s and is now %s/%s: run memsys audit in %s (memsys -C %s audit)", parse.LogFile, commit, dir, parse.LogFile, dir, dir)
		}
		if res.Commits == 0 {
			// Nothing to audit and no log here: the wrong folder (a
			// monorepo's root, a mistyped -C), not a clean history. A CI
			// job would read exit 0 as a pass forever.
			return nil, fmt.Errorf("audit: no %s in %s and no commit that changed one: run memsys audit in the memory's folder (or pass -C DIR)", parse.LogFile, root)
		}
	}
	if err := placeAtHead(g, res.Findings); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		// Fingerprinted as lint fingerprints, while the path is
		// root-relative: the same from any folder and any -C.
		f.Fingerprint = lint.Fingerprint(f.Diagnostic)
		f.Range.File = workspace.DisplayPath(start, root, f.Range.File)
		if f.atHead.File != "" {
			f.atHead.File = workspace.DisplayPath(start, root, f.atHead.File)
		}
	}
	return res, nil
}

// placeAtHead finds where each finding is in HEAD's log or archive. A
// finding's range is where the event was in the commit that changed
// it, which the text and JSON reports name beside it; an annotation
// (github, sarif) is shown on the files of the commit the job checked
// out, HEAD, where an archive move since has put other lines, or the
// end of the file, at that place: every finding older than the move
// annotated the wrong event. The lines that changed keep their place
// in the event while HEAD holds it as the commit left it; otherwise the
// annotation spans the whole event. An event HEAD does not hold
// (deleted, never restored) keeps the commit's range.
func placeAtHead(g *gitx.Git, fs []Finding) error {
	if len(fs) == 0 {
		return nil
	}
	at := map[string]parse.Event{}
	names := append([]string{parse.LogFile}, parse.ArchiveFiles...)
	for _, name := range names {
		src, ok, err := g.ReadFile("HEAD", "./"+name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		var opts []parse.Option
		if name != parse.LogFile {
			opts = append(opts, parse.Archive())
		}
		for _, e := range parse.Parse(name, src, opts...).Events {
			if _, dup := at[e.ID]; !dup && e.InLog {
				at[e.ID] = e
			}
		}
	}
	for i := range fs {
		f := &fs[i]
		e, ok := at[f.Event]
		if !ok || f.Event == "" {
			continue
		}
		f.atHead = e.Range
		if f.eventLine > 0 && f.after != "" && parse.EndedText(e.Text) == parse.EndedText(f.after) {
			shift := e.Range.Line - f.eventLine
			f.atHead = f.Range
			f.atHead.File = e.Range.File
			f.atHead.Line += shift
			if f.atHead.EndLine > 0 {
				f.atHead.EndLine += shift
			}
			f.atHead.Offset, f.atHead.EndOffset = 0, 0 // not known in HEAD's bytes
		}
	}
	return nil
}

// Failed reports whether a finding is an error, so the audit exits 1.
func (r *Result) Failed() bool {
	for _, f := range r.Findings {
		if f.Severity == diag.Error {
			return true
		}
	}
	return false
}

// Lint returns the findings as a lint.Result for lint's printers (github,
// sarif): each finding's detail starts with its commit, author and date.
func (r *Result) Lint() *lint.Result {
	res := &lint.Result{Diagnostics: diag.Diagnostics{}, Roots: 1, Counted: words.Plural(r.Commits, "commit") + " audited", Command: "memsys audit"}
	for _, f := range r.Findings {
		d := f.Diagnostic
		d.Detail = f.header() + d.Detail
		if f.atHead.File != "" {
			// Shown on HEAD's files (placeAtHead); the detail's header
			// names the commit, where the diff applies.
			d.Range = f.atHead
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	res.Diagnostics.Sort()
	return res
}

// header names the commit of a finding, as the text report prints it.
func (f Finding) header() string {
	return fmt.Sprintf("commit %s (compared with %s)\nauthor %s\ndate   %s\n", f.Commit, f.Parent, f.Author, f.Date)
}

// WriteText prints the report as memsys audit does without --format:
// each finding, its commit and diff indented, then a count.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.Diagnostic.Error() + "\n")
		for _, l := range strings.SplitAfter(strings.TrimRight(f.header()+f.Detail, "\n"), "\n") {
			if l != "" {
				b.WriteString("    " + strings.TrimRight(l, "\n") + "\n")
			}
		}
	}
	commits := words.Plural(r.Commits, "commit")
	switch n := len(r.Findings); n {
	case 0:
		fmt.Fprintf(&b, "%s audited: no committed event was changed\n", commits)
	case 1:
		fmt.Fprintf(&b, "%s audited: 1 change to a committed event\n", commits)
	default:
		fmt.Fprintf(&b, "%s audited: %d changes to committed events\n", commits, n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the report as memsys audit --format json does.
func (r *Result) WriteJSON(w io.Writer) error {
	type jfinding struct {
		Rule    string `json:"rule"`
		Event   string `json:"event"`
		File    string `json:"file"`
		Line    int    `json:"line"`
		Message string `json:"message"`
		Commit  string `json:"commit"`
		Parent  string `json:"parent"`
		Author  string `json:"author"`
		Date    string `json:"date"`
		Diff    string `json:"diff"`
	}
	out := struct {
		Commits  int        `json:"commits"`
		Findings []jfinding `json:"findings"`
	}{Commits: r.Commits, Findings: []jfinding{}}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, jfinding{f.Rule, f.Event, f.Range.File, f.Range.Line, f.Message, f.Commit, f.Parent, f.Author, f.Date, f.Detail})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
