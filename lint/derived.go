package lint

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/materialize"
)

// expected returns what regen would write to rel (parse.GraphFile or
// parse.ContextFile): the Session replayed the events as they passed.
func (p *Pass) expected(rel string) ([]byte, bool) {
	b, ok := p.shared.derived[rel]
	return b, ok
}

// lastEvent is the ID of the last event of the history, "" when none.
func (p *Pass) lastEvent() string { return p.shared.last }

type horizonAt struct {
	id   string
	line int
}

// horizonOf is horizon(src) for the derived file rel, computed once per
// Check. Only the goroutine running the rules calls it.
func (p *Pass) horizonOf(rel string, src []byte) (id string, line int) {
	h, ok := p.shared.horizons[rel]
	if !ok {
		h.id, h.line = materialize.FindHorizon(src)
		p.shared.horizons[rel] = h
	}
	return h.id, h.line
}

// checkStale is the seed's Staleness Check for one derived file; need
// says whether the tier requires the file. It returns the file's bytes
// when it exists and is fresh, for the drift rules.
func checkStale(p *Pass, rel string, need bool) {
	src, err := p.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		if need {
			p.Reportf(diag.Range{File: rel}, "", "%s is missing (%s tier): run memsys regen", rel, p.Tier())
		}
		return
	}
	if err != nil {
		p.Reportf(diag.Range{File: rel}, "", "cannot read %s: %v", rel, err)
		return
	}
	h, line := p.horizonOf(rel, src)
	last := p.lastEvent()
	switch {
	case materialize.Fresh(h, line, last):
	case line == 0:
		p.Reportf(lineRange(rel, 1), "", "%s has no event horizon, the last event is %s: run memsys regen", rel, last)
	case last == "":
		p.Reportf(lineRange(rel, line), "", "%s event horizon is %s but the log has no events: run memsys regen", rel, h)
	default:
		shown := h
		if shown == "" {
			shown = "empty"
		}
		p.Reportf(lineRange(rel, line), last, "%s event horizon is %s but the last event is %s: run memsys regen", rel, shown, last)
	}
}

// isStale reports whether checkStale would report rel, so drift is not
// reported twice for a file that is merely behind.
func isStale(p *Pass, rel string, src []byte) bool {
	h, line := p.horizonOf(rel, src)
	return !materialize.Fresh(h, line, p.lastEvent())
}

// checkDrift compares rel with what regen would write.
func checkDrift(p *Pass, rel string) {
	src, err := p.ReadFile(rel)
	if err != nil || isStale(p, rel, src) {
		return
	}
	want, ok := p.expected(rel)
	if !ok {
		return // not replayed: the file did not exist when the Session started
	}
	got := src
	if bytes.IndexByte(got, '\r') >= 0 {
		// A CRLF checkout (git autocrlf) of a file regen wrote is not a
		// hand edit: compare without the CRs.
		got = bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n"))
	}
	if bytes.Equal(got, want) {
		return
	}
	line := firstDiff(got, want)
	p.Report(diag.Diagnostic{
		Range:   lineRange(rel, line),
		Message: rel + " differs from what regen writes (edited by hand?): run memsys regen or memsys lint --fix",
		Detail:  udiff.Unified(rel, rel+" (regen)", got, want),
	})
}

// firstDiff is the 1-based line of the first difference of a and b.
func firstDiff(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}
