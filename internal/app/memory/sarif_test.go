package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/lint"
)

// sarifLog is the part of lint's SARIF the fingerprint tests read.
type sarifLog struct {
	Runs []struct {
		Results []struct {
			RuleID    string `json:"ruleId"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

// sarifMS112 lints root as memsys lint --format sarif does from the
// repository root, the memory being in services/api (Lint's paths
// relocated before printing), and returns the line and fingerprint of
// its one MS112 result.
func sarifMS112(t *testing.T, root string) (line int, fp string) {
	t.Helper()
	r, err := Lint(context.Background(), root, LintOptions{Fingerprints: true})
	if err != nil {
		t.Fatal(err)
	}
	res := &lint.Result{Diagnostics: r.Diagnostics.Relocate(func(f string) string { return "services/api/" + f }), Events: r.Events, Roots: 1}
	var out bytes.Buffer
	if err := (&lint.SARIFPrinter{}).Print(&out, res); err != nil {
		t.Fatal(err)
	}
	var log sarifLog
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range log.Runs[0].Results {
		if x.PartialFingerprints[lint.FingerprintKey] == "" {
			t.Errorf("%s result without %s: %v", x.RuleID, lint.FingerprintKey, x.PartialFingerprints)
		}
		if x.RuleID == "MS112" {
			n++
			loc := x.Locations[0].PhysicalLocation
			if loc.ArtifactLocation.URI != "services/api/CHANGELOG.md" {
				t.Errorf("MS112 at %q, want services/api/CHANGELOG.md", loc.ArtifactLocation.URI)
			}
			line, fp = loc.Region.StartLine, x.PartialFingerprints[lint.FingerprintKey]
		}
	}
	if n != 1 {
		t.Fatalf("%d MS112 results, want 1:\n%s", n, out.Bytes())
	}
	return line, fp
}

// TestSARIFFingerprintIsBaselines: the SARIF fingerprint of a finding
// is the one .memsys-baseline.json records for it (computed on the
// root-relative path, though SARIF prints the path from the repository
// root), and it stays the same when an unrelated event is appended
// below the finding, or inserted above it, or a paragraph is added
// above the log, which move the finding down: code scanning keeps one
// alert.
func TestSARIFFingerprintIsBaselines(t *testing.T) {
	ev := func(n, typ, details string) string {
		return "### evt-00" + n + " | 2025-03-01 10:0" + n + " | ada | " + typ + "\n\n**Scope**: api\n**Summary**: step " + n +
			"\n\n**Details**:\n" + details + "\n**Refs**: none\n**Tags**: none\n\n"
	}
	create := ev("1", "create", "- entity: api\n- path: src/api\n- purpose: public API\n")
	test := ev("2", "test", "- result: pass\n") // no target: MS112
	modify := func(n string) string { return ev(n, "modify", "- entity: api\n- changes: faster\n- reason: load\n") }
	head := "# Changelog\n\n## Event Log\n\n"
	root := newRootWith(t, map[string][]byte{"AGENTS.md": []byte("# Agents\n\n## Memory System Protocol\n")})
	write := func(log string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "CHANGELOG.md"), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(head + create + test)
	line, fp := sarifMS112(t, root)
	for _, step := range []struct {
		what, log string
		moves     bool
	}{
		{"an event appended below", head + create + test + modify("3"), false},
		{"an event inserted above", head + create + modify("3") + test, true},
		{"a paragraph above the log", "# Changelog\n\nKept by hand.\n\n## Event Log\n\n" + create + test + modify("3"), true},
	} {
		write(step.log)
		l, f := sarifMS112(t, root)
		if step.moves && l == line {
			t.Fatalf("%s: MS112 still on line %d: the test proves nothing", step.what, l)
		}
		if f != fp {
			t.Errorf("%s: fingerprint %s (line %d), was %s (line %d)", step.what, f, l, fp, line)
		}
	}

	if _, err := Lint(context.Background(), root, LintOptions{WriteBaseline: true}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, lint.BaselineFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err := lint.ReadBaseline(lint.BaselineFile, data)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, e := range b.Findings {
		if e.Rule == "MS112" {
			recorded = append(recorded, e.Fingerprint)
		}
	}
	if len(recorded) != 1 || recorded[0] != fp {
		t.Errorf("the baseline records MS112 as %v, SARIF as %s", recorded, fp)
	}
}

// TestFingerprintsOnlyForSARIF: a lint that prints no SARIF leaves the
// findings without fingerprints, which cost a long history's warm lint
// a few times its time.
func TestFingerprintsOnlyForSARIF(t *testing.T) {
	root := newRootWith(t, map[string][]byte{"CHANGELOG.md": []byte("# Changelog\n\n## Event Log\n\n### evt-001 | 2025-03-01 10:00 | ada | test\n\n**Scope**: api\n**Summary**: s\n\n**Details**:\n- result: pass\n\n**Refs**: none\n**Tags**: none\n")})
	for _, want := range []bool{false, true} {
		r, err := Lint(context.Background(), root, LintOptions{Fingerprints: want})
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Diagnostics) == 0 {
			t.Fatal("no findings: the test proves nothing")
		}
		for _, d := range r.Diagnostics {
			if (d.Fingerprint != "") != want {
				t.Errorf("Fingerprints %v: %s has fingerprint %q", want, d.Rule, d.Fingerprint)
			}
		}
	}
}
