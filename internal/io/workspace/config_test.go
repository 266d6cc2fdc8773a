package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
)

func TestLoadConfigMissingIsDefault(t *testing.T) {
	c, err := LoadConfig(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, config.Default()) {
		t.Errorf("got %+v, want defaults", c)
	}
}

func TestLoadConfigFile(t *testing.T) {
	dir := t.TempDir()
	src := `{
  "$schema": "x",
  "tier": "core",
  "rules": {"MS117": "off", "detail-keys": "error"},
  "archive": {"threshold": 80, "keep": 30},
  "context": {"windowHours": 24, "windowEvents": 10, "words": 1500}
}
`
	if err := os.WriteFile(filepath.Join(dir, config.FileName), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := LoadConfig(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		File: filepath.Join(dir, config.FileName), Tier: "core",
		Rules: []config.RuleSetting{
			{Rule: "MS117", Severity: diag.Off, Line: 4},
			{Rule: "detail-keys", Severity: diag.Error, Line: 4},
		},
		ArchiveThreshold: 80, ArchiveKeep: 30, WindowHours: 24, WindowEvents: 10, ContextWords: 1500,
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

func TestLoadConfigUnreadable(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, config.FileName), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConfig(dir); err == nil {
		t.Error("a directory named .memsys.json loaded without error")
	}
}
