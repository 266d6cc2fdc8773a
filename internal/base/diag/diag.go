package diag

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/memsys/memsys/internal/base/words"
)

// Severity orders how much a diagnostic matters. Off exists so a
// configuration can switch a rule off with the same type it uses to
// raise or lower it.
type Severity int

const (
	// Off means the rule does not run.
	Off Severity = iota
	// Warning is reported but does not fail a run (unless --strict).
	Warning
	// Error fails the run with exit code 1.
	Error
	// Note is information that fails nothing, even with --strict: a
	// rule's finding on an event that a later event supersedes, where
	// the correction has already been written. Rules never default to
	// it and configuration cannot choose it.
	Note
)

// String returns the lower-case name used in every output format.
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Note:
		return "note"
	default:
		return "off"
	}
}

// ParseSeverity reads "error", "warning" or "off".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "off", "none":
		return Off, nil
	}
	return Off, fmt.Errorf("unknown severity %q: use error, warning or off", words.Clip(s))
}

// Range is a span of a file. Lines and columns count from 1 (columns in
// bytes), offsets from 0; End is exclusive. A zero Line means the
// position is unknown and printers show "?".
type Range struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Col       int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndCol    int    `json:"endColumn"`
	Offset    int    `json:"offset"`
	EndOffset int    `json:"endOffset"`
}

// String formats the start as file:line:col, with "?" for unknown parts.
func (r Range) String() string {
	f := r.File
	if f == "" {
		f = "?"
	}
	l, c := "?", "?"
	if r.Line > 0 {
		l = fmt.Sprint(r.Line)
	}
	if r.Col > 0 {
		c = fmt.Sprint(r.Col)
	}
	return f + ":" + l + ":" + c
}

// Diagnostic is one finding: a parse problem or a lint result. The shape
// follows hcl.Diagnostic and analysis.Diagnostic: a terse Message, a
// Detail of full sentences (what to do, or a diff), and related ranges.
type Diagnostic struct {
	Rule     string   // stable rule ID such as MS101; empty for plain errors
	Severity Severity // Error, Warning or Note
	Range    Range    // where; Line 0 when it concerns a whole file
	Event    string   // event ID as written ("evt-017"), if any
	Message  string   // one line, no final period
	Detail   string   // optional longer text, such as a unified diff
	Related  []Range  // other places that explain the finding
	// MCP is Message as the MCP server words it, when the two differ:
	// advice naming a command ("run memsys regen") names the tool
	// ("run memsys_regen") for an agent. Baselines and fingerprints
	// match Message only, so both front ends see the same findings.
	MCP string
	// Baseline marks a finding that was already there before the
	// change under review (on an event the base revision has): shown
	// as a note, never counted, never failing a run.
	Baseline bool
	// Fingerprint identifies the finding across runs as the baseline
	// file records it (lint.Fingerprint, empty until set). It is
	// computed while the path is still relative to the memory root,
	// so printers that show the path from elsewhere (SARIF: the
	// repository root) carry the baseline's value, not one of their own.
	Fingerprint string
}

// Error formats the diagnostic in the one-line text form
// "file:line:col: severity: message [RULE]", so a Diagnostic can travel
// as an error.
func (d Diagnostic) Error() string {
	s := d.Range.String() + ": " + d.Severity.String() + ": " + d.Message
	if d.Rule != "" {
		s += " [" + d.Rule + "]"
	}
	return s
}

// Diagnostics is a list of findings.
type Diagnostics []Diagnostic

// Notes returns the number of baseline findings.
func (ds Diagnostics) Notes() int {
	n := 0
	for _, d := range ds {
		if d.Baseline {
			n++
		}
	}
	return n
}

// HasErrors reports whether any diagnostic is an error (baseline
// findings are not).
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error && !d.Baseline {
			return true
		}
	}
	return false
}

// Count returns the number of errors and warnings; baseline findings
// count as neither (see Notes).
func (ds Diagnostics) Count() (errors, warnings int) {
	for _, d := range ds {
		if d.Baseline {
			continue
		}
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		}
	}
	return errors, warnings
}

// Sort orders diagnostics by file, line, column, rule and message, the
// order every printer uses, so output never depends on the order rules
// ran in.
func (ds Diagnostics) Sort() {
	// Each key is compared only when the ones before it tie: a long log
	// has thousands of findings, sorted on every lint.
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		if c := cmp.Compare(a.Range.File, b.Range.File); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Range.Line, b.Range.Line); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Range.Col, b.Range.Col); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Rule, b.Rule); c != 0 {
			return c
		}
		return cmp.Compare(a.Message, b.Message)
	})
}

// Relocate returns ds with every file name (of the range and the
// related ranges) passed through to: how a command shows paths relative
// to where it was started rather than to the memory root.
func (ds Diagnostics) Relocate(to func(file string) string) Diagnostics {
	for i := range ds {
		ds[i].Range.File = to(ds[i].Range.File)
		for j := range ds[i].Related {
			ds[i].Related[j].File = to(ds[i].Related[j].File)
		}
	}
	return ds
}
