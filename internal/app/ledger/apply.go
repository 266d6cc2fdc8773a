package ledger

import (
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// Result is what an import did (or, with DryRun, would do).
type Result struct {
	Lines  []Line `json:"-"`
	Events int    `json:"events"`
	First  string `json:"first"` // first new ID, "" when the ledger is empty
	Last   string `json:"last"`
	DryRun bool   `json:"dry_run"`
}

// Import appends the ledger's events to the memory at root, under the
// memory's lock, in one atomic write of the log: every line or none.
// With dryRun it plans and validates but writes nothing.
func Import(root, file string, src []byte, agent string, dryRun bool) (*Result, error) {
	unlock, err := workspace.Lock(root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	logSrc, err := workspace.ReadFile(root, workspace.LogName)
	if err != nil {
		return nil, err
	}
	log := parse.Parse(workspace.LogName, logSrc, parse.HeadersOnly())
	var arch *parse.Log
	for _, name := range workspace.ArchiveNames {
		asrc, err := workspace.ReadFile(root, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		arch = parse.Parse(name, asrc, parse.Archive(), parse.HeadersOnly())
		break
	}
	lines, err := Plan(file, src, memory.NextID(log, arch), memory.KnownIn(log, arch), agent)
	if err != nil {
		return nil, err
	}
	r := &Result{Lines: lines, Events: len(lines), DryRun: dryRun}
	if len(lines) > 0 {
		r.First, r.Last = lines[0].NewID, lines[len(lines)-1].NewID
	}
	if dryRun || len(lines) == 0 {
		return r, nil
	}
	nl := memory.Newline(logSrc)
	texts := make([][]byte, len(lines))
	for i, l := range lines {
		texts[i] = memory.Render(l.NewID, l.Draft, nl)
	}
	out, err := memory.AppendEvents(workspace.LogName, logSrc, log, texts)
	if err != nil {
		return nil, err
	}
	if err := workspace.WriteFile(root, workspace.LogName, out); err != nil {
		return nil, err
	}
	return r, nil
}

// ExportRoot exports the whole history of the memory at root.
func ExportRoot(root string) ([]byte, error) {
	mem, err := workspace.Load(root)
	if err != nil {
		return nil, err
	}
	if err := mem.Incomplete(); err != nil {
		return nil, err
	}
	evs := make([]parse.Event, 0, len(mem.Events))
	for _, e := range mem.Events {
		if e.InLog {
			evs = append(evs, e)
		}
	}
	return Export(evs)
}

// ImportFile reads the ledger at path and imports it (see Import).
func ImportFile(root, path, agent string, dryRun bool) (*Result, error) {
	src, err := workspace.ReadInput(path)
	if err != nil {
		return nil, err
	}
	return Import(root, path, src, agent, dryRun)
}
