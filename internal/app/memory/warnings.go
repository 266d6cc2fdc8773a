package memory

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// historyProblems are the parse problems of the archive and the log
// (either may be nil), archive first, as regen warns of them.
func historyProblems(archive, log *parse.Log) []parse.Problem {
	var ps []parse.Problem
	for _, l := range []*parse.Log{archive, log} {
		if l != nil {
			ps = append(ps, l.Problems...)
		}
	}
	return ps
}

// lintedProblems returns problems, the history's parse problems that a
// command prints as warnings beside its result (regen, memsys_regen),
// as the findings lint reports for them (lint.Linter.ParseFindings:
// each under its rule's ID), less the ones lint would not print either:
// those of a rule cfg turns off, and those the baseline file accepts
// (lint.Baseline.Filter, the matching lint applies), which accepted
// counts. Without this, a team that adopted memsys on an old log and
// recorded its findings (lint --write-baseline) got the same warnings
// from every regen, at every agent's shutdown, while lint said "no
// problems".
//
// baseline reads lint.BaselineFile; it is called only when a problem
// is left to match, so a clean log costs nothing. A missing file hides
// nothing; nor does one lint cannot read: lint reports it, and until
// it is fixed every problem is printed as before.
//
// Nor are those lint calls notes: a content rule's finding on an event
// a later one supersedes (lint.NoteSuperseded). superseded gives the
// history's superseded events by number (supersededIn); it is called
// only when a finding on an event is left, and may be nil.
func lintedProblems(cfg config.Config, problems []parse.Problem, baseline func() ([]byte, error), superseded func() map[int]string) (shown diag.Diagnostics, accepted int) {
	if len(problems) == 0 {
		return nil, 0
	}
	l, err := lint.New(cfg)
	if err != nil {
		// A rule setting lint refuses (lint says which): the default
		// severities, as regen has never judged the settings.
		l, _ = lint.New(config.Default())
	}
	shown = l.ParseFindings(problems)
	if len(shown) == 0 {
		return shown, 0
	}
	data, err := baseline()
	if err == nil && data != nil {
		if b, err := lint.ReadBaseline(lint.BaselineFile, data); err == nil {
			shown, accepted = b.Filter(shown)
		}
	}
	return withoutNotes(shown, superseded), accepted
}

// withoutNotes leaves out of shown the findings lint turns into notes
// because their event is superseded.
func withoutNotes(shown diag.Diagnostics, superseded func() map[int]string) diag.Diagnostics {
	if superseded == nil || !slices.ContainsFunc(shown, func(d diag.Diagnostic) bool { return d.Event != "" }) {
		return shown
	}
	by := superseded()
	if len(by) == 0 {
		return shown
	}
	lint.NoteSuperseded(shown, by)
	return slices.DeleteFunc(shown, func(d diag.Diagnostic) bool { return d.Severity == diag.Note })
}

// supersededIn returns lintedProblems' superseded for the history load
// reads: the events replay skips, by number, with the event that
// supersedes each (materialize.SupersededBy). It parses the history
// whole when load's Memory holds no events (a streamed one) and its
// bytes hold a Supersedes field, which lintedProblems asks for only
// when a problem on an event is to be printed.
func supersededIn(load func() (*workspace.Memory, error)) func() map[int]string {
	return func() map[int]string {
		mem, err := load()
		if err == nil && mem.Events == nil && mem.LogBytes == nil {
			// The history cache's Memory, which read the archive only.
			read := *mem
			read.LogBytes, err = workspace.ReadFile(mem.Root, workspace.LogName)
			mem = &read
		}
		if err != nil {
			return nil
		}
		evs := mem.Events
		if evs == nil && len(mem.Supersessions()) == 0 {
			// No Supersedes field (the byte scan replay trusts too):
			// nothing is superseded, and the history is not parsed.
			return nil
		}
		if evs == nil {
			if mem.ArchivePath != "" {
				evs = append(evs, parse.Parse(mem.ArchivePath, mem.ArchiveBytes, parse.Archive()).Events...)
			}
			evs = append(evs, parse.Parse(workspace.LogName, mem.LogBytes).Events...)
		}
		out := map[int]string{}
		for i, by := range materialize.SupersededBy(evs) {
			out[evs[i].Num] = by
		}
		return out
	}
}

// readBaseline reads root's lint.BaselineFile: nil, no error, when it
// has none. Most roots have none, so a single Lstat answers them before
// ReadFile resolves the path.
func readBaseline(root string) ([]byte, error) {
	if err := workspace.Lstat(root, lint.BaselineFile); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	data, err := workspace.ReadFile(root, lint.BaselineFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}
