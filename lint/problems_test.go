package lint

import (
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// problemLog has a parse problem of many kinds: a bad ID, a bad
// timestamp, a date-only one, a heading at level 4, free text, a
// duplicate field, an event outside the Event Log.
const problemLog = `# Changelog

### evt-009 | 2026-03-01 10:00 | ada | test

## Event Log

### evt-001: Title

### evt-002 | 2026-13-45 10:00 | ada | test

**Scope**: api
**Summary**: Bad time

### evt-003 | 2026-03-01 | ada | test

**Scope**: api
**Summary**: Date only
**Summary**: Twice

Free text.

#### evt-004 | 2026-03-01 10:00 | ada | test

**Scope**: api
**Summary**: Level four
`

// TestParseFindings: a command that prints parse problems itself
// (regen) says what lint says of each: ParseFindings gives every
// problem the rule ID, message and position lint reports it with
// (ProblemRule names the rule), and drops those of a rule turned off.
func TestParseFindings(t *testing.T) {
	log := parse.Parse("CHANGELOG.md", []byte(problemLog))
	kinds := map[parse.Kind]bool{}
	for _, p := range log.Problems {
		kinds[p.Kind] = true
		if ProblemRule(p.Kind) == "" {
			t.Errorf("no rule reports parse problems of kind %q", p.Kind)
		}
	}
	if len(kinds) < 6 {
		t.Fatalf("the log has problems of %d kinds, want at least 6: %v", len(kinds), log.Problems)
	}
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	linted := l.Check(Input{LogFile: "CHANGELOG.md", Log: log, Events: log.Events})
	got := l.ParseFindings(log.Problems)
	if len(got) != len(log.Problems) {
		t.Fatalf("ParseFindings gave %d findings for %d problems", len(got), len(log.Problems))
	}
	for _, f := range got {
		found := false
		for _, d := range linted {
			if d.Rule == f.Rule && d.Range == f.Range && d.Message == f.Message && d.Event == f.Event && d.Severity == f.Severity {
				found = true
			}
		}
		if !found {
			t.Errorf("ParseFindings says %s %s: %s [%s], lint says no such thing", f.Severity, f.Range, f.Message, f.Rule)
		}
	}
	off, err := New(config.Config{Rules: []config.RuleSetting{{Rule: "MS111", Severity: diag.Off}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range off.ParseFindings(log.Problems) {
		if f.Rule == "MS111" {
			t.Errorf("MS111 is off, but ParseFindings reports %s", f.Message)
		}
	}
	if n := len(off.ParseFindings(log.Problems)); n != len(got)-1 {
		t.Errorf("with MS111 off, %d findings, want %d", n, len(got)-1)
	}
	if id := ProblemRule(parse.KindDateOnly); id != "MS111" {
		t.Errorf("ProblemRule(date-only) = %q, want MS111", id)
	}
	if id := ProblemRule("no-such-kind"); id != "" {
		t.Errorf("ProblemRule of an unknown kind = %q, want none", id)
	}
}
