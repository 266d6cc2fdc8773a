package memory

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

// TestLoadConfig: the configuration every command reads is refused when
// lint would refuse it, in lint's words, and read as written otherwise.
func TestLoadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, file string // file "" writes none
		want       string // the error, with the root as <root>
	}{
		{"none", "", ""},
		{"known rule by ID and name", `{"rules": {"MS104": "off", "event-type": "warning"}}`, ""},
		{"unknown rule", `{"rules": {"MS999": "off"}}`,
			`<root>/.memsys.json:1: unknown rule "MS999": use an ID or name that memsys lint --list-rules prints`},
		{"unknown rule name", "{\n\"rules\": {\n\"MS104\": \"off\",\n\"no-such\": \"off\"}}",
			`<root>/.memsys.json:4: unknown rule "no-such": use an ID or name that memsys lint --list-rules prints`},
		{"one rule twice, disagreeing", "{\"rules\": {\n\"MS104\": \"off\",\n\"ref-target\": \"error\"}}",
			`<root>/.memsys.json:3: rule "ref-target" is MS104, which line 2 sets already as "MS104", to off: keep one`},
		{"not JSON", "{bad", `<root>/.memsys.json:1: invalid character 'b': write valid JSON such as {"rules": {"MS117": "off"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig(root)
			got := ""
			if err != nil {
				got = filepath.ToSlash(err.Error())
			}
			want := tc.want
			if want != "" {
				want = filepath.ToSlash(root) + want[len("<root>"):]
			}
			if got != want {
				t.Fatalf("error %q, want %q", got, want)
			}
			if err == nil && cfg.ArchiveThreshold == 0 {
				t.Errorf("config %+v: not the defaults' thresholds", cfg)
			}
		})
	}
}

// TestLintNoLog: where there is no CHANGELOG.md lint cannot run, with
// the error every command gives there, whatever MS101's severity in the
// file or from --rule: turned off, a missing log used to pass.
func TestLintNoLog(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		rule       []config.RuleSetting
	}{
		{"default", "", nil},
		{"off in the file", `{"rules": {"MS101": "off"}}`, nil},
		{"warning in the file", `{"rules": {"event-log-section": "warning"}}`, nil},
		{"off by --rule", "", []config.RuleSetting{{Rule: "MS101", Severity: diag.Off}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(tc.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Lint(context.Background(), root, LintOptions{Overrides: tc.rule})
			want := workspace.MissingLog(root).Error()
			if err == nil || err.Error() != want || !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("Lint: report %+v, error %v; want %q", r, err, want)
			}
		})
	}
}

// TestRuleStates: the list is root's configuration after --rule; a file
// that cannot be read gives the defaults and the error, so the list the
// error points at still prints.
func TestRuleStates(t *testing.T) {
	root := t.TempDir()
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sev := func(states []lint.RuleState, id string) string {
		for _, s := range states {
			if s.ID == id {
				return s.Effective + " " + s.SetBy
			}
		}
		return "missing"
	}
	write(`{"rules": {"MS104": "off", "MS110": "error"}}`)
	states, err := RuleStates(root, []config.RuleSetting{{Rule: "MS110", Severity: diag.Off}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sev(states, "MS104") + "|" + sev(states, "MS110") + "|" + sev(states, "MS101"); got != "off .memsys.json|off --rule|error " {
		t.Errorf("got %q", got)
	}
	write(`{"rules": {"MS104": "off", "MS999": "off"}}`)
	states, err = RuleStates(root, nil)
	if err == nil || len(states) != len(lint.Rules()) || sev(states, "MS104") != "error " {
		t.Errorf("unknown rule: %d states, MS104 %q, error %v; want the defaults and the error", len(states), sev(states, "MS104"), err)
	}
}
