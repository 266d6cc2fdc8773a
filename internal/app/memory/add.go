package memory

import (
	"errors"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/parse"
)

// AppendResult is what memsys append reports (its JSON form).
type AppendResult struct {
	ID          string   `json:"id"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Time        string   `json:"time"`
	Agent       string   `json:"agent"`
	Type        string   `json:"type"`
	Regenerated []string `json:"regenerated"`
}

// Append adds the event d at the end of root's log and, with regen,
// rewrites the derived files in the same critical section.
//
// Concurrency: the whole read-highest-ID, render, write sequence runs
// under workspace.Lock, an exclusive flock on a lock file beside the log
// (not on CHANGELOG.md itself, which the atomic rename replaces), so 32
// agents appending at once get 32 consecutive IDs, and no other append
// slips in between the event and the regenerated horizon. The write is
// the full new file through workspace.WriteFile (temp file, fsync,
// rename): a crash leaves the old log or the new one, never half an
// event. The log is read headers-only (parse.HeadersOnly), which is what
// keeps an append to a 100k-event log a small fraction of a full lint.
func Append(root string, d Draft, regen bool) (AppendResult, error) {
	unlock, err := workspace.Lock(root)
	if err != nil {
		return AppendResult{}, err
	}
	defer unlock()
	res, err := appendLocked(root, d)
	if err != nil || !regen {
		return res, err
	}
	res.Regenerated, err = Regen(root)
	return res, err
}

// appendLocked validates d against the log and archive and appends it.
// The caller holds the lock.
func appendLocked(root string, d Draft) (AppendResult, error) {
	// workspace.ReadFile applies the size limit and refuses symlinks
	// that leave the root.
	src, err := workspace.ReadFile(root, workspace.LogName)
	if err != nil {
		return AppendResult{}, err
	}
	log := parse.Parse(workspace.LogName, src, parse.HeadersOnly())
	var arch *parse.Log
	if name, asrc, err := ReadArchive(root); err != nil {
		return AppendResult{}, err
	} else if name != "" {
		arch = parse.Parse(name, asrc, parse.Archive(), parse.HeadersOnly())
	}
	if err := Normalize(&d, KnownIn(log, arch)); err != nil {
		return AppendResult{}, err
	}
	id := NextID(log, arch)
	text := Render(id, d, Newline(src))
	if err := CheckRoundTrip(id, d, text); err != nil {
		return AppendResult{}, err
	}
	out, err := AppendEvent(workspace.LogName, src, log, text)
	if err != nil {
		return AppendResult{}, err
	}
	if err := workspace.WriteFile(root, workspace.LogName, out); err != nil {
		return AppendResult{}, err
	}
	line := strings.Count(string(out[:len(out)-len(text)]), "\n") + 1
	return AppendResult{ID: id, File: workspace.LogName, Line: line, Time: d.Time, Agent: d.Agent, Type: d.Type, Regenerated: []string{}}, nil
}

// ReadArchive reads the first archive file that exists; name is ""
// when there is none.
func ReadArchive(root string) (name string, src []byte, err error) {
	for _, n := range workspace.ArchiveNames {
		src, err := workspace.ReadFile(root, n)
		if err == nil {
			return n, src, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
	}
	return "", nil, nil
}
