package history

import (
	"bytes"
	"fmt"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/parse"
)

// CompareMerge checks a merge commit against one of its parents. Two
// branches that each appended events must renumber one side's events
// and interleave them when they merge, so order and IDs are free here;
// what must hold is that no event of the parent lost or changed a byte:
// each one's text, apart from its ID, is somewhere in the merge.
func CompareMerge(parent, merge Side, commit string) diag.Diagnostics {
	ds := diag.Diagnostics{}
	he := merge.events()
	have := make(map[string]bool, len(he))
	byNum := make(map[int]int, len(he))
	for i, e := range he {
		have[stripID(e.Text)] = true
		if _, dup := byNum[e.Num]; !dup {
			byNum[e.Num] = i
		}
	}
	for _, b := range parent.events() {
		if have[stripID(b.Text)] {
			continue
		}
		if i, ok := byNum[b.Num]; ok {
			h := he[i]
			ds = append(ds, diag.Diagnostic{Rule: Edited, Severity: diag.Error, Range: h.Range, Event: h.ID,
				Message: fmt.Sprintf("%s as committed at %s is not in this merge, whose %s reads otherwise: keep every committed event's text, renumbering only new ones", b.ID, commit, h.ID),
				Detail:  udiff.Unified(b.ID+" at "+commit, h.ID+" now", []byte(b.Text), []byte(h.Text))})
			continue
		}
		r := diag.Range{File: "CHANGELOG.md"}
		if merge.Log != nil {
			r = diag.Range{File: merge.Log.File, Line: 1, Col: 1}
		}
		ds = append(ds, diag.Diagnostic{Rule: Deleted, Severity: diag.Error, Range: r, Event: b.ID,
			Message: fmt.Sprintf("%s, committed at %s, was dropped by a merge", b.ID, commit),
			Detail:  udiff.Unified(b.ID+" at "+commit, b.ID+" now", []byte(b.Text), nil)})
	}
	ds.Sort()
	return ds
}

// PureAppend reports whether next is old with bytes added at the end,
// starting at a heading (after optional blank lines and "---"), so no
// committed byte changed and no committed event grew: a walk over
// thousands of commits can then skip parsing either version. A false
// result only means "compare properly".
func PureAppend(old, next []byte) bool {
	if len(old) == 0 || !bytes.HasPrefix(next, old) || old[len(old)-1] != '\n' {
		return len(old) == len(next) && bytes.Equal(old, next)
	}
	rest := next[len(old):]
	for len(rest) > 0 {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i]
			rest = rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0, bytes.Equal(t, []byte("---")):
			continue
		case len(line) > 0 && line[0] == '#':
			return true
		}
		return false
	}
	return true
}

// ParseSide parses a log and an archive (either may be nil). The
// comparison reads only IDs, positions and text, so event bodies are not
// parsed into fields (parse.HeadersOnly): an audit parses many versions.
func ParseSide(logName string, log []byte, archiveName string, archive []byte) Side {
	var s Side
	if log != nil {
		s.Log = parse.Parse(logName, log, parse.HeadersOnly())
	}
	if archive != nil {
		s.Archive = parse.Parse(archiveName, archive, parse.Archive(), parse.HeadersOnly())
	}
	return s
}
