package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
)

// TestStates: --list-rules's view of a Linter. Each rule runs at the
// severity the file, then --rule, set, and says which set it; a rule
// nothing set runs at its default and says nothing.
func TestStates(t *testing.T) {
	cfg := config.Default()
	cfg.File = "/abs/.memsys.json"
	cfg.Rules = []config.RuleSetting{
		{Rule: "MS104", Severity: diag.Off, Line: 1},
		{Rule: "time-order", Severity: diag.Error, Line: 2},
		{Rule: "MS105", Severity: diag.Error, Line: 3},   // its default
		{Rule: "MS106", Severity: diag.Warning, Line: 4}, // --rule wins
	}
	l, err := New(cfg, config.RuleSetting{Rule: "scope-summary", Severity: diag.Off}, config.RuleSetting{Rule: "MS111", Severity: diag.Error})
	if err != nil {
		t.Fatal(err)
	}
	states := l.States()
	if len(states) != len(Rules()) || !slices.IsSortedFunc(states, func(a, b RuleState) int { return strings.Compare(a.ID, b.ID) }) {
		t.Fatalf("%d states, want %d sorted by ID", len(states), len(Rules()))
	}
	want := map[string]struct{ effective, setBy, text string }{
		"MS101": {"error", "", "error"},
		"MS104": {"off", ".memsys.json", "off (.memsys.json; default error)"},
		"MS110": {"error", ".memsys.json", "error (.memsys.json; default warning)"},
		"MS105": {"error", ".memsys.json", "error (.memsys.json)"},
		"MS106": {"off", "--rule", "off (--rule; default error)"},
		"MS111": {"error", "--rule", "error (--rule; default warning)"},
		"MS112": {"warning", "", "warning"},
	}
	for _, s := range states {
		w, ok := want[s.ID]
		if !ok {
			if s.SetBy != "" || s.Effective != l.Severity(s.ID).String() {
				t.Errorf("%s: effective %q set by %q, want its default, set by nothing", s.ID, s.Effective, s.SetBy)
			}
			continue
		}
		if s.Effective != w.effective || s.SetBy != w.setBy || s.SeverityText() != w.text {
			t.Errorf("%s: effective %q, set by %q, text %q; want %q, %q, %q", s.ID, s.Effective, s.SetBy, s.SeverityText(), w.effective, w.setBy, w.text)
		}
		// The help's Severity stays the default, as --explain prints it.
		if r := Lookup(s.ID); s.Severity != r.Severity.String() {
			t.Errorf("%s: help severity %q, want the default %q", s.ID, s.Severity, r.Severity)
		}
	}
}

// TestSeverityTextOffByDefault: a rule off by default that nothing set
// reads as the list always printed it; one the file turns on says so.
func TestSeverityTextOffByDefault(t *testing.T) {
	for _, tc := range []struct {
		s    RuleState
		want string
	}{
		{RuleState{RuleHelp: RuleHelp{Severity: "warning", Enabled: false}, Effective: "off"}, "warning (off)"},
		{RuleState{RuleHelp: RuleHelp{Severity: "warning", Enabled: false}, Effective: "warning", SetBy: ".memsys.json"}, "warning (.memsys.json; default off)"},
		{RuleState{RuleHelp: RuleHelp{Severity: "warning", Enabled: false}, Effective: "off", SetBy: "--rule"}, "off (--rule)"},
	} {
		if got := tc.s.SeverityText(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, got, tc.want)
		}
	}
}
