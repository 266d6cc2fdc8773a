package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
)

func TestLoadMissingIsDefault(t *testing.T) {
	c, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("got %+v, want defaults", c)
	}
	o := c.Materialize()
	if o.ContextWords != 3000 || o.WindowHours != 48 || o.WindowEvents != 20 {
		t.Errorf("Materialize() = %+v", o)
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	src := `{
  "$schema": "x",
  "tier": "core",
  "rules": {"MS117": "off", "detail-keys": "error"},
  "archive": {"threshold": 80, "keep": 30},
  "context": {"windowHours": 24, "windowEvents": 10, "words": 1500, "decayP2Days": 60, "decayP3Days": 7},
  "loops": {"maxAgeDays": 14}
}
`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		File: filepath.Join(dir, FileName), Tier: "core",
		Rules: []RuleSetting{
			{Rule: "MS117", Severity: diag.Off, Line: 4},
			{Rule: "detail-keys", Severity: diag.Error, Line: 4},
		},
		ArchiveThreshold: 80, ArchiveKeep: 30, WindowHours: 24, WindowEvents: 10, ContextWords: 1500,
		DecayP2Days: 60, DecayP3Days: 7, LoopsMaxDays: 14,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	if o := c.Materialize(); o.ContextWords != 1500 || o.WindowHours != 24 || o.WindowEvents != 10 || o.DecayP2Days != 60 || o.DecayP3Days != 7 {
		t.Errorf("Materialize() = %+v", o)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{\n  \"rulez\": {}\n}", `c.json:2: unknown key "rulez" in the configuration: use one of "tier", "rules", "archive", "context", "loops" (see docs/lint.md)`},
		{"{\"archive\": {\n\"threshold\": 50,\n  \"kept\": 3}}", `c.json:3: unknown key "kept" in "archive": use one of "threshold", "keep" (see docs/lint.md)`},
		{"{\"context\": {\"words\": \"many\"}}", `c.json:1: context.words must be a whole number`},
		{"{\"context\": {\"windowHours\": -1}}", `c.json:1: context.windowHours must be a whole number of at least 0, not -1`},
		{"{\"context\": {\"words\": 1.5}}", `c.json:1: context.words must be a whole number of at least 1, not 1.5`},
		{"{\"context\": {\"decayP3Days\": 0}}", `c.json:1: context.decayP3Days must be a whole number of at least 1, not 0`},
		{"{\"loops\": {\"maxAge\": 3}}", `c.json:1: unknown key "maxAge" in "loops": use one of "maxAgeDays" (see docs/lint.md)`},
		{"{\n\"rules\": {\"MS101\": \"fatal\"}}", `c.json:2: rule "MS101": unknown severity "fatal": use error, warning or off`},
		{"{\"rules\": {\"MS101\": 1}}", `c.json:1: rule "MS101" must be set to "error", "warning" or "off"`},
		{"{\"rules\": []}", `c.json:1: "rules" must be an object: write {...}`},
		{"[]", `c.json:1: the configuration must be an object: write {...}`},
		{"{\"tier\": \"huge\"}", `c.json:1: "tier" must be one of "mvp", "core" or "full"`},
		{"{\"archive\": {\"threshold\": 10, \"keep\": 10}}", `c.json:1: archive.keep (10) must be less than archive.threshold (10): lower keep or raise threshold`},
		{"{\"tier\": \"mvp\", \"tier\": \"core\"}", `c.json:1: key "tier" appears twice: keep one`},
		{"{\n\n\"tier\": \"mvp\",,}", `c.json:3: invalid character ',' looking for beginning of object key string: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{\"tier\": \"mvp\"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{} {}", `c.json:1: unexpected data after the top-level object: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
	}
	for _, tc := range cases {
		_, err := Parse("c.json", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tc.src, err, tc.want)
		}
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("a directory named .memsys.json loaded without error")
	}
}
