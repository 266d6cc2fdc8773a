package memory

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
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
	// Recovered says, in one line, that taking the lock removed the
	// partial event of an interrupted append ("" otherwise). The
	// command line prints it on stderr as well; over MCP it is the
	// agent's only word that the log was repaired.
	Recovered string `json:"recovered,omitempty" jsonschema:"set when this append first removed the partial event an interrupted append left at the end of the log: the log was repaired, then this event added"`
}

// Append adds the event d at the end of root's log and, with regen,
// rewrites the derived files in the same critical section. When the
// event was written but regen failed, res.ID is set and the error says
// so. countLine asks for AppendResult.Line, which costs a pass over the
// whole log (only --format json prints it).
//
// Concurrency: the whole read-last-ID, render, write sequence runs
// under workspace.Lock, an exclusive flock on a lock file beside the
// log, so 32 agents appending at once get 32 consecutive IDs, and no
// other append slips in between the event and the regenerated horizon.
// Only the end of the log is read (PlanAppend), and the event is added
// with one O_APPEND write and an fsync (workspace.File.Append), whose
// journal lets the next writer undo a write cut short: the cost of an
// append does not grow with the log (docs/lifecycle.md).
func Append(root string, d Draft, regen, countLine bool) (AppendResult, error) {
	unlock, recovered, err := workspace.LockRecover(root)
	if err != nil {
		return AppendResult{}, err
	}
	defer unlock()
	// The configuration is read once, by the steps that use it: the
	// history cache's entry for --supersedes (named by the render
	// options) and the regen.
	var cfg config.Config
	var cfgErr error = errNoConfig
	if regen || len(d.Supersedes) > 0 {
		cfg, cfgErr = LoadConfig(root)
	}
	if regen && cfgErr != nil {
		// A configuration regen cannot read would fail it after the
		// event is in the log: refuse first, with nothing written.
		return AppendResult{}, cfgErr
	}
	// A correction's check and the regen after it both need the whole
	// history: it is read once, and the regen replays those bytes and
	// the event appended to them (append.held).
	a := appendWith{cfg: cfg, haveCfg: cfgErr == nil, hold: regen && len(d.Supersedes) > 0}
	res, err := a.appendLocked(root, d, countLine)
	res.Recovered = recovered
	if err != nil || !regen {
		return res, err
	}
	if res.Regenerated, err = regenFrom(root, cfg, false, a.held, a.cp); err != nil {
		// The event is in the log: a caller that read the error as
		// "nothing written" would append it a second time.
		res.Regenerated = []string{}
		if errors.Is(err, ErrHandKept) {
			// Its advice is the next step: regen alone would refuse again.
			return res, front.Errorf("%s was appended (do not append it again); the derived files were not regenerated: %w", res.ID, err)
		}
		return res, front.Errorf("%s was appended; regenerating the derived files failed: %w; then run %s (do not append the event again)", res.ID, err, front.Regen.Word())
	}
	return res, nil
}

// errNoConfig stands for a configuration Append did not need to read.
var errNoConfig = errors.New("configuration not read")

// appendWith is what an append brings to its locked section: the
// configuration when haveCfg (without it, a Supersedes check parses the
// whole history rather than look the cache up), and whether to hold
// the history read for the check (hold), which held then is: the log
// with the new event, and the archive, for the regen that follows.
type appendWith struct {
	cfg     config.Config
	haveCfg bool
	hold    bool
	held    *workspace.Memory
	// cp is the history cache's checkpoint the Supersedes check found
	// over held, nil when none matched.
	cp *checkpointed
}

// appendLocked validates d against the log and archive and appends it.
// The caller holds the lock.
func (a *appendWith) appendLocked(root string, d Draft, countLine bool) (AppendResult, error) {
	log, err := workspace.OpenLog(root, workspace.LogName)
	if err != nil {
		return AppendResult{}, err
	}
	defer log.Close()
	var arch LogFile
	var archF *workspace.File
	archName := ""
	for _, n := range workspace.ArchiveNames {
		f, err := workspace.Open(root, n)
		if err == nil {
			arch, archF, archName = f, f, n
			defer f.Close()
			break
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return AppendResult{}, err
		}
	}
	var logFile, archFile LogFile = log, arch
	if a.hold {
		// The bytes of the files held open, read once: the checks and
		// the plan read them from memory.
		if a.held, err = workspace.ReadOpen(root, log, archName, archF); err != nil {
			return AppendResult{}, err
		}
		logFile = bytes.NewReader(a.held.LogBytes)
		if arch != nil {
			archFile = bytes.NewReader(a.held.ArchiveBytes)
		}
	}
	p, err := planAppendEdges(workspace.LogName, logFile, archName, archFile, &d, countLine, func() ([]parse.Supersession, bool) {
		if !a.haveCfg {
			return nil, false
		}
		if a.held != nil {
			edges, c, ok := heldEdges(root, lint.RenderOptions(a.cfg), a.held)
			if ok {
				// The regen cannot resume from it: the new event
				// supersedes an event it replayed as live. Its head
				// lends the new head its digests (earlierOf).
				a.cp = &checkpointed{mem: a.held, head: c.head, name: c.name, held: true, cold: true}
			}
			return edges, ok
		}
		return cachedEdges(root, lint.RenderOptions(a.cfg), log, archName, arch)
	})
	if err != nil {
		return AppendResult{}, err
	}
	if err := log.Append(root, p.Data); err != nil {
		a.held = nil
		return AppendResult{}, err
	}
	if a.held != nil {
		a.held.LogBytes = append(a.held.LogBytes[:len(a.held.LogBytes):len(a.held.LogBytes)], p.Data...)
	}
	return AppendResult{ID: p.ID, File: workspace.LogName, Line: p.Line, Time: d.Time, Agent: d.Agent, Type: d.Type, Regenerated: []string{}}, nil
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
