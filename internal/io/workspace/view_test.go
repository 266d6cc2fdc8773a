package workspace

import (
	"errors"
	"io/fs"
	"sort"
	"testing"

	"github.com/memsys/memsys/parse"
)

// mapSource is a Source over a map, for the View's unit tests (the git
// index is tested in gitx and through lint --staged's testscripts).
type mapSource map[string]string

func (m mapSource) Paths() []string {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (m mapSource) Read(rel string, max int64) ([]byte, int64, bool, error) {
	s, ok := m[rel]
	if !ok {
		return nil, 0, false, nil
	}
	if int64(len(s)) > max {
		return nil, int64(len(s)), true, nil
	}
	return []byte(s), int64(len(s)), true, nil
}

func TestView(t *testing.T) {
	log := "# Changelog\n\n## Event Log\n\n### evt-001 | 2025-01-01 10:00 | agent | create\n\n**Scope**: a\n**Summary**: s\n"
	v := NewView("staged", mapSource{
		LogName:                log,
		"changelog-archive.md": "# Archive\n",
		ContextPath:            "ctx\n",
		".memsys.json":         `{"tier": "core"}`,
	})
	tests := []struct {
		rel    string
		exists bool
		data   string
		err    string
	}{
		{rel: LogName, exists: true, data: log},
		{rel: ContextPath, exists: true, data: "ctx\n"},
		{rel: MemoryDir, exists: true, err: ".memory (staged): is a directory, not a file"},
		{rel: GraphPath, err: ".memory/graph.md: not staged"},
		{rel: TodoName, err: "TODO.md: not staged"},
	}
	for _, tt := range tests {
		if got := v.Exists(tt.rel); got != tt.exists {
			t.Errorf("Exists(%q) = %v, want %v", tt.rel, got, tt.exists)
		}
		data, err := v.ReadFile(tt.rel)
		if string(data) != tt.data || errText(err) != tt.err {
			t.Errorf("ReadFile(%q) = %q, %v; want %q, %q", tt.rel, data, err, tt.data, tt.err)
		}
		if tt.err != "" && !tt.exists && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%q): %v is not fs.ErrNotExist", tt.rel, err)
		}
	}
	if got := v.Tier(); got != Core {
		t.Errorf("Tier = %q, want core (.memory/context.md staged)", got)
	}
	cfg, _, err := v.ReadConfig()
	if err != nil || cfg.Tier != "core" {
		t.Errorf("Config = %+v, %v", cfg, err)
	}
	var ids []string
	m, err := v.StreamWith(nil, func(e *parse.Event) { ids = append(ids, e.ID) })
	if err != nil || m.ArchivePath != "changelog-archive.md" || len(ids) != 1 || ids[0] != "evt-001" {
		t.Errorf("StreamWith = %+v, %v, events %q", m, err, ids)
	}
}

func TestViewLimits(t *testing.T) {
	v := NewView("staged", mapSource{AgentsName: "x"})
	if _, err := v.StreamWith(nil, func(*parse.Event) {}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("StreamWith without a log: %v, want fs.ErrNotExist", err)
	}
	if got := v.Tier(); got != MVP {
		t.Errorf("Tier = %q, want mvp", got)
	}
	big := NewView("staged", bigSource{})
	want := "CHANGELOG.md (staged): 536870913 bytes, over the 512 MiB limit: archive older events (memsys archive)"
	if _, err := big.ReadFile(LogName); errText(err) != want {
		t.Errorf("ReadFile of a file over the limit: %v, want %q", err, want)
	}
	// A derived file gets its own advice: archiving shrinks the log only.
	want = ".memory/graph.md (staged): 536870913 bytes, over the 512 MiB limit: it is not what memsys writes: move it away and run memsys regen"
	if _, err := big.ReadFile(parse.GraphFile); errText(err) != want {
		t.Errorf("ReadFile of a derived file over the limit: %v, want %q", err, want)
	}
}

// bigSource holds one file over MaxFileSize, without its bytes.
type bigSource struct{}

func (bigSource) Paths() []string { return []string{LogName} }
func (bigSource) Read(string, int64) ([]byte, int64, bool, error) {
	return nil, MaxFileSize + 1, true, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
