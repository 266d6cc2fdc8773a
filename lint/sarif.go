package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
)

// SARIFPrinter writes SARIF 2.1.0 as github/codeql-action/upload-sarif
// reads it: one run whose tool.driver lists every registered rule (built
// from the rule docs, as staticcheck's lintcmd/sarif.go does) and one
// result per diagnostic.
type SARIFPrinter struct {
	Version string // tool version; omitted when empty
}

// InformationURI is the tool's home page in SARIF output.
const InformationURI = "https://github.com/memsys/memsys"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Version        string      `json:"version,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string      `json:"id"`
	Name                 string      `json:"name"`
	ShortDescription     sarifText   `json:"shortDescription"`
	FullDescription      sarifText   `json:"fullDescription"`
	Help                 sarifText   `json:"help"`
	DefaultConfiguration sarifConfig `json:"defaultConfiguration"`
}

type sarifConfig struct {
	Level   string `json:"level"`
	Enabled *bool  `json:"enabled,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId,omitempty"`
	RuleIndex *int            `json:"ruleIndex,omitempty"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
	// BaselineState is SARIF's: "unchanged" for a finding the base
	// revision already had.
	BaselineState string `json:"baselineState,omitempty"`
	// PartialFingerprints lets code scanning keep one alert per
	// finding across commits. Without it upload-sarif hashes the
	// flagged line's text and the text after it, numbered among equal
	// lines, and a log repeats lines ("**Refs**: none"): an event
	// appended or inserted moves that hash, not the finding.
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

// FingerprintKey is the partialFingerprints key of a result's
// Fingerprint. The "/v1" follows the SARIF convention of versioned
// keys: a change to what Fingerprint hashes gets a new key, so code
// scanning does not match old alerts against new values.
const FingerprintKey = "memsysFindingHash/v3"

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
}

func sarifLevel(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	case diag.Note:
		return "note"
	}
	return "none"
}

// Print implements Printer.
func (s *SARIFPrinter) Print(w io.Writer, r *Result) error {
	rules := Rules()
	index := make(map[string]int, len(rules))
	driver := sarifDriver{Name: "memsys", InformationURI: InformationURI, Version: s.Version, Rules: make([]sarifRule, 0, len(rules))}
	for i, rule := range rules {
		index[rule.ID] = i
		cfg := sarifConfig{Level: sarifLevel(rule.Severity)}
		if rule.DefaultOff {
			off := false
			cfg.Enabled = &off
		}
		driver.Rules = append(driver.Rules, sarifRule{
			ID: rule.ID, Name: rule.Name,
			ShortDescription:     sarifText{Text: rule.Title},
			FullDescription:      sarifText{Text: rule.Doc},
			Help:                 sarifText{Text: helpText(rule), Markdown: helpMarkdown(rule)},
			DefaultConfiguration: cfg,
		})
	}
	results := make([]sarifResult, 0, len(r.Diagnostics))
	for _, d := range r.Diagnostics {
		fp := d.Fingerprint
		if fp == "" {
			fp = Fingerprint(d)
		}
		res := sarifResult{RuleID: d.Rule, Level: sarifLevel(d.Severity), Message: sarifText{Text: d.Message},
			PartialFingerprints: map[string]string{FingerprintKey: fp}}
		if d.Baseline {
			res.Level, res.BaselineState = "note", "unchanged"
		}
		if d.Detail != "" {
			res.Message.Text += "\n\n" + d.Detail
		}
		if i, ok := index[d.Rule]; ok {
			res.RuleIndex = &i
		}
		if d.Range.File != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: fileURI(d.Range.File)}}}
			if d.Range.Line > 0 {
				reg := &sarifRegion{StartLine: d.Range.Line, StartColumn: d.Range.Col}
				if d.Range.EndLine >= d.Range.Line {
					reg.EndLine = d.Range.EndLine
				}
				loc.PhysicalLocation.Region = reg
			}
			res.Locations = []sarifLocation{loc}
		}
		results = append(results, res)
	}
	out := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// fileURI is a relative URI reference for a path, which code scanning
// resolves against the repository root. URL.String, not EscapedPath:
// it writes "./" before a first segment holding a ':', which would
// otherwise read as a scheme.
func fileURI(p string) string {
	return (&url.URL{Path: filepath.ToSlash(p)}).String()
}

func helpText(r *Rule) string {
	return r.Doc + "\n\nBad:\n" + r.Bad + "\n\nGood:\n" + r.Good
}

func helpMarkdown(r *Rule) string {
	return r.Doc + "\n\nBad:\n\n```markdown\n" + r.Bad + "\n```\n\nGood:\n\n```markdown\n" + r.Good + "\n```"
}

// SARIFResultLimit is the most results GitHub code scanning accepts in
// one SARIF run: a file with more is rejected at upload ("Analysis
// SARIF file rejected due to result limits").
const SARIFResultLimit = 25000

// SARIFWarning is what to tell the user when r's SARIF would be
// rejected by code scanning, or "": the upload fails later, in another
// step, with GitHub's words, so memsys says why and what to do first.
func SARIFWarning(r *Result) string {
	if n := len(r.Diagnostics); n > SARIFResultLimit {
		return fmt.Sprintf("%s: GitHub code scanning rejects a SARIF run with more than %s: record the existing findings with memsys lint --write-baseline so only new ones are uploaded",
			words.Plural(n, "result"), words.Plural(SARIFResultLimit, "result"))
	}
	return ""
}
