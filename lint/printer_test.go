package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
)

// sampleResult has one diagnostic of every shape a printer must handle:
// errors and warnings, a whole-file finding without a line, a detail
// (diff), and the characters GitHub and Markdown escape.
func sampleResult() *Result {
	ds := diag.Diagnostics{
		{Rule: "MS104", Severity: diag.Error, Range: diag.Range{File: "CHANGELOG.md", Line: 42, Col: 1, EndLine: 42},
			Event: "evt-017", Message: "evt-017 refers to evt-099, which does not exist: fix the ID or write none"},
		{Rule: "MS112", Severity: diag.Warning, Range: diag.Range{File: "CHANGELOG.md", Line: 30, Col: 1, EndLine: 30},
			Event: "evt-012", Message: "evt-012 (decision) has no rationale detail: add \"- rationale: ...\" under **Details**"},
		{Rule: "MS205", Severity: diag.Error, Range: diag.Range{File: "services/a b/.memory/context.md", Line: 7, Col: 1, EndLine: 7},
			Message: "context.md differs: 100% | hand-edited, see a:b",
			Detail:  "--- a\n+++ b\n@@ -7 +7 @@\n-old\r\n+new\n"},
		{Rule: "MS207", Severity: diag.Warning, Range: diag.Range{File: "AGENTS.md"},
			Message: "AGENTS.md is missing: add one with a \"## Memory System Protocol\" section"},
	}
	ds.Sort()
	return &Result{Diagnostics: ds, Events: 42, Roots: 1}
}

func TestPrinters(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result *Result
	}{
		{"sample", sampleResult()},
		{"clean", &Result{Diagnostics: nil, Events: 3, Roots: 1}},
	} {
		for _, format := range Formats {
			t.Run(tc.name+"."+format, func(t *testing.T) {
				var summary bytes.Buffer
				p, err := NewPrinter(format, PrinterOptions{StepSummary: &summary, Version: "test"})
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				if err := p.Print(&out, tc.result); err != nil {
					t.Fatal(err)
				}
				writeGolden(t, filepath.Join("testdata", "golden", tc.name+"."+format), out.Bytes())
				if format == "github" {
					writeGolden(t, filepath.Join("testdata", "golden", tc.name+".step-summary.md"), summary.Bytes())
				}
				if format == "json" || format == "sarif" {
					var v any
					if err := json.Unmarshal(out.Bytes(), &v); err != nil {
						t.Errorf("invalid JSON: %v", err)
					}
				}
			})
		}
	}
	if _, err := NewPrinter("xml", PrinterOptions{}); err == nil || err.Error() != `unknown format "xml": use text, json, github, sarif` {
		t.Errorf("NewPrinter(xml) = %v", err)
	}
}

func TestTextColor(t *testing.T) {
	var out bytes.Buffer
	(&TextPrinter{Color: true}).Print(&out, sampleResult())
	if !strings.Contains(out.String(), "\x1b[1;31merror\x1b[0m") {
		t.Errorf("no colour:\n%q", out.String())
	}
	out.Reset()
	(&TextPrinter{}).Print(&out, sampleResult())
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("colour without Color:\n%q", out.String())
	}
}

func TestJSONEmptyIsArray(t *testing.T) {
	var out bytes.Buffer
	JSONPrinter{}.Print(&out, &Result{})
	if !strings.Contains(out.String(), `"diagnostics": []`) {
		t.Errorf("empty diagnostics not []:\n%s", out.String())
	}
}

func TestGitHubEscaping(t *testing.T) {
	if got, want := escapeData("100% a\r\nb:c,d"), "100%25 a%0D%0Ab:c,d"; got != want {
		t.Errorf("escapeData = %q, want %q", got, want)
	}
	if got, want := escapeProperty("a:b,c%\n"), "a%3Ab%2Cc%25%0A"; got != want {
		t.Errorf("escapeProperty = %q, want %q", got, want)
	}
}

// TestSARIFFileURI: a path whose first folder has a ':' is written with
// "./" before it, or a URI reader would take "a:b" for a scheme (RFC 3986
// section 4.2); other paths are percent-escaped as they were.
func TestSARIFFileURI(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"CHANGELOG.md", "CHANGELOG.md"},
		{".memory/graph.md", ".memory/graph.md"},
		{"services/a b/CHANGELOG.md", "services/a%20b/CHANGELOG.md"},
		{"a:b/CHANGELOG.md", "./a:b/CHANGELOG.md"},
		{"x/a:b/CHANGELOG.md", "x/a:b/CHANGELOG.md"},
		{"100%/CHANGELOG.md", "100%25/CHANGELOG.md"},
	} {
		if got := fileURI(tc.in); got != tc.want {
			t.Errorf("fileURI(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestStepSummaryLimit: GitHub drops a step summary over 1 MiB whole
// ("$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size
// of 1024k"), so a hand-kept log with tens of thousands of findings
// would show no summary at all. The table stops below the limit and
// says how many findings it left out and where they are.
func TestStepSummaryLimit(t *testing.T) {
	res := &Result{Events: 50000, Roots: 1}
	for i := 1; i <= 50000; i++ {
		res.Diagnostics = append(res.Diagnostics, diag.Diagnostic{Rule: "MS112", Severity: diag.Warning,
			Range: diag.Range{File: "CHANGELOG.md", Line: i * 13, Col: 1}, Event: fmt.Sprintf("evt-%05d", i),
			Message: fmt.Sprintf("evt-%05d (test) has no result detail: add \"- result: ...\" under **Details**", i)})
	}
	var summary bytes.Buffer
	if err := (&GitHubPrinter{StepSummary: &summary}).Print(io.Discard, res); err != nil {
		t.Fatal(err)
	}
	out := summary.String()
	if len(out) > StepSummaryLimit {
		t.Errorf("step summary is %d bytes, over GitHub's limit (%d)", len(out), StepSummaryLimit)
	}
	if !strings.Contains(out, "| warning | MS112 | `CHANGELOG.md:13:1` | evt-00001 |") {
		t.Error("the first finding is not in the table")
	}
	rows := strings.Count(out, "| warning | MS112 |")
	want := fmt.Sprintf("\n%d more findings are not in this table (GitHub shows at most 1 MiB here): the step's log lists every one\n", 50000-rows)
	if rows == 0 || rows == 50000 || !strings.HasSuffix(out, want+"\n") {
		t.Errorf("%d rows; the summary ends %q, want %q", rows, out[max(0, len(out)-200):], want)
	}

	// A small result is whole, with no such line.
	summary.Reset()
	res.Diagnostics = res.Diagnostics[:3]
	if err := (&GitHubPrinter{StepSummary: &summary}).Print(io.Discard, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(summary.String(), "more findings") || strings.Count(summary.String(), "| warning |") != 3 {
		t.Errorf("small summary:\n%s", summary.String())
	}
}

// TestSARIFWarning: a run over GitHub's result limit is rejected at
// upload, so memsys says so when it writes one, and only then.
func TestSARIFWarning(t *testing.T) {
	res := &Result{Diagnostics: make(diag.Diagnostics, SARIFResultLimit)}
	if w := SARIFWarning(res); w != "" {
		t.Errorf("at the limit: %q", w)
	}
	res.Diagnostics = append(res.Diagnostics, diag.Diagnostic{})
	if w := SARIFWarning(res); !strings.HasPrefix(w, "25001 results: GitHub code scanning rejects") || !strings.Contains(w, "--write-baseline") {
		t.Errorf("over the limit: %q", w)
	}
}

// TestSARIFPartialFingerprints: every result carries the baseline's
// fingerprint under FingerprintKey: the one set on the diagnostic while
// its path was root-relative when there is one (the printer sees the
// path from the repository root, which would hash differently), else
// Fingerprint of the diagnostic as it is.
func TestSARIFPartialFingerprints(t *testing.T) {
	res := sampleResult()
	want := make([]string, len(res.Diagnostics))
	for i := range res.Diagnostics {
		want[i] = Fingerprint(res.Diagnostics[i])
	}
	SetFingerprints(res.Diagnostics[:1])
	res.Diagnostics.Relocate(func(f string) string { return "services/api/" + f })
	if Fingerprint(res.Diagnostics[0]) == want[0] {
		t.Fatal("the relocated path does not change Fingerprint: the test proves nothing")
	}
	for i := 1; i < len(want); i++ {
		want[i] = Fingerprint(res.Diagnostics[i]) // none set: the path printed
	}
	var out bytes.Buffer
	if err := (&SARIFPrinter{}).Print(&out, res); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	got := log.Runs[0].Results
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d", len(got), len(want))
	}
	for i, r := range got {
		if len(r.PartialFingerprints) != 1 || r.PartialFingerprints[FingerprintKey] != want[i] {
			t.Errorf("result %d: partialFingerprints %v, want {%q: %q}", i, r.PartialFingerprints, FingerprintKey, want[i])
		}
	}
}

// TestTextBaselineNotesLast: findings the base revision already has
// come after the change's own, at most maxBaselineNotes of them, and the
// summary says how many were left out; in a hook on an adopted log they
// ran to hundreds of lines before the commit's error.
func TestTextBaselineNotesLast(t *testing.T) {
	r := &Result{Events: 40}
	for i := 1; i <= 15; i++ {
		r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Rule: "MS106", Severity: diag.Warning, Baseline: true,
			Range: diag.Range{File: "CHANGELOG.md", Line: i, Col: 1}, Message: fmt.Sprintf("old %d", i)})
		if i == 8 {
			r.Diagnostics = append(r.Diagnostics, diag.Diagnostic{Rule: "MS101", Severity: diag.Error,
				Range: diag.Range{File: "CHANGELOG.md", Line: 100, Col: 1}, Message: "new"})
		}
	}
	var out bytes.Buffer
	if err := (&TextPrinter{}).Print(&out, r); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 1+maxBaselineNotes+1 {
		t.Fatalf("%d lines, want the error, %d notes and the summary:\n%s", len(lines), maxBaselineNotes, &out)
	}
	if !strings.Contains(lines[0], ": error: new") || !strings.Contains(lines[1], ": note: old 1 ") || !strings.Contains(lines[maxBaselineNotes], ": note: old 10 ") {
		t.Errorf("the error first, then the first notes in order:\n%s", &out)
	}
	if want := "40 events: 1 error, 0 warnings (15 notes on events the base revision already has, the first 10 shown: --format json lists them all)"; lines[len(lines)-1] != want {
		t.Errorf("summary %q, want %q", lines[len(lines)-1], want)
	}
}
