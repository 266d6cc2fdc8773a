package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// LintOptions are memsys lint's choices for one memory root.
type LintOptions struct {
	Overrides []config.RuleSetting // --rule, over .memsys.json
	Fix       bool                 // rewrite what the Fix rules found
	Git       history.GitOptions   // --base, --head, --staged
}

// Lint lints the memory at root and returns the findings (paths relative
// to root) and the number of events checked. The history streams
// through a lint Session: events are checked and replayed as the parser
// completes them and none is kept. With Fix it first rewrites the files
// the findings of the rules that declare Fix name, then lints the
// result.
func Lint(ctx context.Context, root string, o LintOptions) (diag.Diagnostics, int, error) {
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return nil, 0, err
	}
	l, err := lint.New(cfg, o.Overrides...)
	if err != nil {
		return nil, 0, err
	}
	git, revs, closeGit, err := history.Revisions(ctx, root, o.Git)
	if err != nil {
		return nil, 0, err
	}
	defer closeGit()
	in := LintInput(root)
	in.Git, in.Revisions = git, revs
	// A plain lint goes through the result cache (lintcache.go).
	cached := git == nil && revs == nil && !o.Fix && workspace.CacheEnabled()
	var name string
	var rec *lintRecorder
	if cached {
		name = lintCacheName(root, o.Overrides)
		if ds, events, ok := lintFromCache(root, name, in); ok {
			return ds, events, nil
		}
		rec = &lintRecorder{reads: map[string]lintRead{}}
		in = rec.wrap(in)
	}
	ds, events, s, mem, err := lintOnce(l, root, in, o.Fix)
	if err != nil {
		return nil, 0, err
	}
	if cached {
		lintToCache(root, name, mem, rec, ds, events)
	}
	if o.Fix {
		if ds, err = fixDerived(root, l, s, ds, in); err != nil {
			return nil, 0, err
		}
	}
	return ds, events, nil
}

// lintOnce runs one Session over root. A missing log is a finding
// (MS101), not a failure to run.
func lintOnce(l *lint.Linter, root string, in lint.Input, derive bool) (diag.Diagnostics, int, *lint.Session, *workspace.Memory, error) {
	in.Derive = derive
	s := l.Start(in)
	mem := &workspace.Memory{Root: root, Tier: workspace.DetectTier(root)}
	if !errors.Is(workspace.Lstat(root, workspace.LogName), fs.ErrNotExist) {
		var err error
		if mem, err = workspace.Stream(root, s.Event); err != nil {
			return nil, 0, nil, nil, err
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
func fixDerived(root string, l *lint.Linter, s *lint.Session, ds diag.Diagnostics, in lint.Input) (diag.Diagnostics, error) {
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
		if err := workspace.WriteFile(root, f, data); err != nil {
			return nil, fmt.Errorf("lint --fix: %w", err)
		}
	}
	again, _, _, _, err := lintOnce(l, root, in, false)
	return again, err
}
