package memory

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// CheckStaged is memsys regen --check --staged: it replays the log and
// the archive as they are staged (the index, what `git commit` will
// record) and compares the derived files of the tier with their staged
// versions, returning a unified diff per file that differs. A pre-commit
// hook that checked the working tree let `append --regen` then `git add
// CHANGELOG.md` alone commit the new event with derived files one event
// behind (issue 10).
//
// The problems are the staged history's parse problems as regen warns
// of them (RegenResult.Problems), the staged baseline file applied, as
// lint --staged applies it. sealOnly reports that every file that
// differs differs only in its seal (materialize.SealOnlyDiffers): the
// text is what regen writes, so the staged events changed where the
// files do not show it (an edited event), or another memsys wrote them.
func CheckStaged(ctx context.Context, root string) (diff string, sealOnly bool, refused error, problems diag.Diagnostics, err error) {
	g, err := gitx.Open(ctx, root)
	if err != nil {
		return "", false, nil, nil, fmt.Errorf("regen --staged: %w", err)
	}
	prefix, err := g.Prefix(ctx)
	if err != nil {
		return "", false, nil, nil, fmt.Errorf("regen --staged: %w", err)
	}
	blobs, err := g.NewBlobs(ctx, prefix)
	if err != nil {
		return "", false, nil, nil, fmt.Errorf("regen --staged: %w", err)
	}
	defer blobs.Close()
	blobs.Limit = workspace.MaxFileSize
	staged := func(rel string) ([]byte, bool, error) {
		data, ok, err := blobs.Blob(":0", rel)
		if err != nil {
			return nil, false, fmt.Errorf("regen --staged: read the staged %s: %w", rel, err)
		}
		return data, ok, nil
	}
	cfg := config.Default()
	if data, ok, err := staged(config.FileName); err != nil {
		return "", false, nil, nil, err
	} else if ok {
		// Named as lint --staged names it (workspace.View.Config): the
		// hook runs both, and one broken staged file read two ways.
		if cfg, err = checkedConfig(config.Parse(config.FileName+" (staged)", data)); err != nil {
			return "", false, nil, nil, err
		}
	}
	mem := &workspace.Memory{Root: root}
	for _, name := range parse.ArchiveFiles {
		data, ok, err := staged(name)
		if err != nil {
			return "", false, nil, nil, err
		}
		if ok {
			mem.ArchivePath, mem.ArchiveBytes = name, data
			break
		}
	}
	data, ok, err := staged(parse.LogFile)
	if err != nil {
		return "", false, nil, nil, err
	}
	if !ok {
		// No log in the folder either: most often a subfolder memory
		// checked from the repository root (a pre-commit framework hook).
		if logAbsent(root) {
			return "", false, nil, nil, fmt.Errorf("regen --staged: no %s in this folder or the index: %s", parse.LogFile, runInMemory(ctx, root, "regen --check --staged"))
		}
		return "", false, nil, nil, fmt.Errorf("regen --staged: %s is not in the index: git add it", parse.LogFile)
	}
	mem.LogBytes = data
	// Through the history cache: it checks the staged bytes against its
	// checkpoint by hash, so a commit of the log as it is on disk (the
	// usual one) resumes where the last regen or lint left off.
	x, err := ReplayRead(root, lint.RenderOptions(cfg), mem)
	if err != nil {
		return "", false, nil, nil, err
	}
	problems, _ = lintedProblems(cfg, historyProblems(mem.Archive, mem.Log), func() ([]byte, error) {
		data, _, err := staged(lint.BaselineFile)
		return data, err
	}, supersededIn(func() (*workspace.Memory, error) { return mem, nil }))
	tier, err := stagedTier(cfg, staged)
	if err != nil {
		return "", false, nil, nil, err
	}
	var b strings.Builder
	sealOnly = true
	for _, f := range Derive(x, tier) {
		cur, _, err := staged(f.File)
		if err != nil {
			return "", false, nil, nil, err
		}
		d := udiff.Unified(f.File+" (staged)", f.File+" (regen of the staged log)", cur, f.Data)
		if d != "" && !materialize.SealOnlyDiffers(bytes.ReplaceAll(cur, []byte("\r\n"), []byte("\n")), f.Data) {
			sealOnly = false
		}
		b.WriteString(d)
	}
	if b.Len() > 0 && !sealOnly {
		// The staged history, for a sealed file's horizon replay.
		stream := func(before func(*workspace.Memory), each func(*parse.Event), opts ...parse.Option) (*workspace.Memory, error) {
			m := &workspace.Memory{Root: root, ArchivePath: mem.ArchivePath, ArchiveBytes: mem.ArchiveBytes, LogBytes: mem.LogBytes}
			if before != nil {
				before(m)
			}
			return m, m.Stream(each, opts...)
		}
		refused = handKept(Derive(x, tier), staged, sealedAt{root: root, opt: lint.RenderOptions(cfg), stream: stream})
	}
	return b.String(), sealOnly && b.Len() > 0, refused, problems, nil
}

// stagedTier is the tier as configured, else as the staged files show
// it: what the commit will record, not the working tree, where a file
// not yet added (a TODO.md, a new graph.md) would change the files the
// check compares. The index holds files, not folders: .memory counts
// as present when a derived file in it is staged.
func stagedTier(cfg config.Config, staged func(string) ([]byte, bool, error)) (parse.Tier, error) {
	var firstErr error
	has := func(rel string) bool {
		_, ok, err := staged(rel)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return ok
	}
	tier := parse.TierOf(cfg.Tier, func(rel string) bool {
		if rel == parse.MemoryDir {
			return has(parse.ContextFile) || has(parse.GraphFile)
		}
		return has(rel)
	}, func() []byte {
		agents, _, err := staged(parse.AgentsFile)
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return agents
	})
	if firstErr != nil {
		return "", firstErr
	}
	return tier, nil
}
