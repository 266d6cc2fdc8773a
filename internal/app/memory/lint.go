package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// LintOptions are memsys lint's choices for one memory root.
type LintOptions struct {
	Overrides []config.RuleSetting // --rule, over .memsys.json
	Fix       bool                 // rewrite what the Fix rules found
	Git       history.GitOptions   // --base, --head, --staged
	// WriteBaseline records the findings in lint.BaselineFile instead
	// of applying it (lint --write-baseline).
	WriteBaseline bool
	// Notes receives one line per thing lint did besides judging: a
	// file --fix rewrote or kept, the baseline written. nil drops them.
	Notes func(string)
	// Exiting says the process prints the report and exits after this
	// lint (the memsys command's last root, not the MCP server): a lint
	// answered from the cache's
	// result then leaves the garbage collector off. What is allocated
	// after it (the findings, their paths and the printed lines) stays
	// live or is a few megabytes, and a collection started while the
	// findings were printed cost a 100k-event lint ~15 ms of CPU, a
	// fifth of it.
	Exiting bool
}

// LintReport is what Lint found at one root.
type LintReport struct {
	Diagnostics diag.Diagnostics
	Events      int // events checked
	// Suppressed counts the findings lint.BaselineFile holds, which are
	// not in Diagnostics.
	Suppressed int
}

// Lint lints the memory at root and returns the findings (paths relative
// to root) and the number of events checked. The history streams
// through a lint Session: events are checked and replayed as the parser
// completes them and none is kept. With Fix it first rewrites the files
// the findings of the rules that declare Fix name, then lints the
// result.
//
// A baseline file (lint.BaselineFile) at root hides the findings it
// holds; with WriteBaseline the findings are recorded there instead.
func Lint(ctx context.Context, root string, o LintOptions) (*LintReport, error) {
	if o.Notes == nil {
		o.Notes = func(string) {}
	}
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	l, err := lint.New(cfg, o.Overrides...)
	if err != nil {
		return nil, err
	}
	git, revs, closeGit, err := history.Revisions(ctx, root, o.Git)
	if err != nil {
		return nil, err
	}
	defer closeGit()
	in := LintInput(root)
	in.Git, in.Revisions = git, revs
	// A plain lint goes through the cache (lintcache.go); the baseline
	// is applied after it either way.
	var ds diag.Diagnostics
	var events int
	if git == nil && revs == nil && !o.Fix && workspace.CacheEnabled() {
		if ds, events, err = lintCached(l, root, lintCacheName(root, o.Overrides), in, o.Exiting); err != nil {
			return nil, err
		}
	} else {
		var s *lint.Session
		if ds, events, s, _, err = lintOnce(l, root, in, o.Fix, nil); err != nil {
			return nil, err
		}
		if o.Fix {
			if ds, err = fixDerived(root, l, s, ds, in, o.Notes); err != nil {
				return nil, err
			}
		}
	}
	r := &LintReport{Events: events}
	r.Diagnostics, r.Suppressed, err = applyBaseline(root, l, ds, o.WriteBaseline, o.Notes)
	return r, err
}

// applyBaseline applies root's baseline file, when it has one, to ds:
// the findings it holds are dropped and counted, its stale entries
// reported (MS208). With write, it records ds as the baseline first.
func applyBaseline(root string, l *lint.Linter, ds diag.Diagnostics, write bool, note func(string)) (diag.Diagnostics, int, error) {
	if write {
		b := lint.NewBaseline(ds)
		if err := workspace.WriteFile(root, lint.BaselineFile, b.Marshal()); err != nil {
			return nil, 0, err
		}
		note(fmt.Sprintf("lint: wrote %s (%s): commit it; later runs report only new findings", lint.BaselineFile, words.Plural(len(b.Findings), "finding")))
		kept, n, _ := b.Apply(ds)
		return kept, n, nil
	}
	data, err := workspace.ReadFile(root, lint.BaselineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return ds, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	b, err := lint.ReadBaseline(data)
	if err != nil {
		return nil, 0, err
	}
	kept, n, stale := b.Apply(ds)
	if sev := l.Severity("MS208"); sev != diag.Off {
		for _, d := range stale {
			d.Severity = sev
			kept = append(kept, d)
		}
	}
	kept.Sort()
	return kept, n, nil
}

// lintOnce runs one Session over root. A missing log is a finding
// (MS101), not a failure to run. When the log was read, beforeFinish
// (if not nil) sees the Session after the last event, with the log's
// last event and the number of events: the lint cache checkpoints it
// there.
func lintOnce(l *lint.Linter, root string, in lint.Input, derive bool, beforeFinish func(*lint.Session, *workspace.Memory, lastEvent, int)) (diag.Diagnostics, int, *lint.Session, *workspace.Memory, error) {
	in.Derive = derive
	// The replay learns beforehand which events later ones supersede,
	// predicted from the bytes; if that was wrong, Finish replays again
	// from a second stream.
	in.Restream = restream(root)
	s := l.Start(in)
	mem := &workspace.Memory{Root: root, Tier: workspace.DetectTier(root)}
	if !errors.Is(workspace.Lstat(root, workspace.LogName), fs.ErrNotExist) {
		var last lastEvent
		n := 0
		each := s.Event
		if beforeFinish != nil {
			each = func(e *parse.Event) {
				s.Event(e)
				n++
				last.ev = e
				if e.InLog && e.Range.File == workspace.LogName {
					last.set(e)
				}
			}
		}
		var err error
		// The Session says which events its rules and replay are done
		// with, and each keeps none but the last (parse.Reuse).
		if mem, err = workspace.StreamWith(root, func(m *workspace.Memory) { s.Expect(m.Supersessions()) }, each, parse.Reuse(s)); err != nil {
			return nil, 0, nil, nil, err
		}
		if beforeFinish != nil {
			beforeFinish(s, mem, last, n)
		}
	}
	ds := s.Finish(mem.Log, mem.Archive)
	if err := s.Err(); err != nil {
		return nil, 0, nil, nil, fmt.Errorf("lint: %w", err)
	}
	return ds, s.Events(), s, mem, nil
}

// LintInput is the lint.Input of the memory at root: its files, read
// through workspace.
func LintInput(root string) lint.Input {
	return lint.Input{
		LogFile:  workspace.LogName,
		ReadFile: func(rel string) ([]byte, error) { return workspace.ReadFile(root, rel) },
		Exists:   func(rel string) bool { return workspace.Stat(root, rel) == nil },
	}
}

// fixDerived rewrites the derived files that the findings of rules
// declaring Fix name with what regen writes (the Session replayed the
// history for it), then lints again.
func fixDerived(root string, l *lint.Linter, s *lint.Session, ds diag.Diagnostics, in lint.Input, note func(string)) (diag.Diagnostics, error) {
	var files []string
	for _, d := range ds {
		if r := lint.Lookup(d.Rule); r != nil && r.Fix && !slices.Contains(files, d.Range.File) {
			files = append(files, d.Range.File)
		}
	}
	if len(files) == 0 {
		return ds, nil
	}
	graph, context := s.Derived()
	content := map[string][]byte{parse.GraphFile: graph, parse.ContextFile: context}
	unlock, err := workspace.Lock(root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := workspace.MkdirAll(root, parse.MemoryDir); err != nil {
		return nil, fmt.Errorf("lint --fix: %w", err)
	}
	for _, f := range files {
		data, ok := content[f]
		if !ok {
			continue
		}
		// A derived file that holds rows no replay produces (a graph
		// kept by hand) is kept: memsys adopt records them first.
		if cur, err := workspace.ReadFile(root, f); err == nil {
			if rows := lint.Curated(f, cur, data, false); len(rows) > 0 {
				note(fmt.Sprintf("lint --fix: kept %s: it holds %s no replay produces (%s): run memsys adopt first", f, words.Plural(len(rows), "item"), strings.Join(rows, ", ")))
				continue
			}
		}
		if err := workspace.WriteFile(root, f, data); err != nil {
			return nil, fmt.Errorf("lint --fix: %w", err)
		}
		note("lint --fix: rewrote " + f + " as regen writes it")
	}
	again, _, _, _, err := lintOnce(l, root, in, false, nil)
	return again, err
}
