package ledger

import (
	"io"

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
	logSrc, err := workspace.ReadFile(root, parse.LogFile)
	if err != nil {
		return nil, err
	}
	log := parse.Parse(parse.LogFile, logSrc, parse.HeadersOnly())
	var arch *parse.Log
	if name, asrc, err := memory.ReadArchive(root); err != nil {
		return nil, err
	} else if name != "" {
		arch = parse.Parse(name, asrc, parse.Archive(), parse.HeadersOnly())
	}
	first, err := memory.NextID(log, arch)
	if err != nil {
		return nil, err
	}
	lines, err := Plan(file, src, first, memory.KnownIn(log, arch), agent)
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
		texts[i] = l.Text
		if nl != "\n" {
			texts[i] = memory.Render(l.NewID, l.Draft, nl)
		}
	}
	out, err := memory.AppendEvents(parse.LogFile, logSrc, log, texts)
	if err != nil {
		return nil, err
	}
	if err := workspace.WriteFile(root, parse.LogFile, out); err != nil {
		return nil, err
	}
	return r, nil
}

// ExportRoot writes the history of the memory at root to w as JSONL
// (see Write): its events inside an Event Log section, the archive's
// included. It writes nothing when the memory cannot be read whole.
// Records go out as they are made, so the output is never held in
// memory whole.
func ExportRoot(root string, w io.Writer) error {
	mem, err := workspace.Load(root)
	if err != nil {
		return err
	}
	if err := mem.Incomplete(); err != nil {
		return err
	}
	return writeIf(w, mem.Events, func(e *parse.Event) bool { return e.InLog })
}

// ImportFile reads the ledger at path and imports it (see Import).
func ImportFile(root, path, agent string, dryRun bool) (*Result, error) {
	src, err := workspace.ReadInput(path)
	if err != nil {
		return nil, err
	}
	return Import(root, path, src, agent, dryRun)
}
