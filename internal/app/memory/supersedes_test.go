package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// TestCheckSupersedes: a new event may supersede what no live event
// corrects, correct a correction, or name the original and its
// correction; a second live correction is refused, naming the first,
// and so is a correction whose superseding brings back one that
// corrects what another live event corrects. Findings the history
// already has are not the new event's.
func TestCheckSupersedes(t *testing.T) {
	e := func(id string, targets ...string) parse.Supersession {
		return parse.Supersession{ID: id, Targets: targets}
	}
	for _, c := range []struct {
		name  string
		edges []parse.Supersession
		sup   []string
		want  string // "" when accepted
	}{
		{"nothing superseded", nil, []string{"evt-001"}, ""},
		{"no supersedes", []parse.Supersession{e("evt-002", "evt-001")}, nil, ""},
		{"second correction", []parse.Supersession{e("evt-002", "evt-001")}, []string{"evt-001"},
			"--supersedes evt-001: evt-002 already corrects it, and two live corrections of one event are lint's MS126 error: correct evt-002 instead (--supersedes evt-002), or name both (--supersedes evt-001,evt-002)"},
		{"correct the correction", []parse.Supersession{e("evt-002", "evt-001")}, []string{"evt-002"}, ""},
		{"name both", []parse.Supersession{e("evt-002", "evt-001")}, []string{"evt-001", "evt-002"}, ""},
		{"the correction is superseded: the original is free", []parse.Supersession{e("evt-002", "evt-001"), e("evt-003", "evt-002")}, []string{"evt-001"}, ""},
		{"a chain's live correction", []parse.Supersession{e("evt-002", "evt-001"), e("evt-003", "evt-001", "evt-002")}, []string{"evt-001"},
			"--supersedes evt-001: evt-003 already corrects it, and two live corrections of one event are lint's MS126 error: correct evt-003 instead (--supersedes evt-003), or name both (--supersedes evt-001,evt-003)"},
		{"revives a correction", []parse.Supersession{e("evt-002", "evt-001"), e("evt-003", "evt-002"), e("evt-004", "evt-001")}, []string{"evt-003"},
			"--supersedes evt-003: it makes evt-002 live again, which corrects evt-001 as evt-004 does (lint's MS126 error): name evt-002 in --supersedes as well"},
		{"revives, and names it", []parse.Supersession{e("evt-002", "evt-001"), e("evt-003", "evt-002"), e("evt-004", "evt-001")}, []string{"evt-003", "evt-002"}, ""},
		{"an old finding is not the new event's", []parse.Supersession{e("evt-002", "evt-001"), e("evt-003", "evt-001")}, []string{"evt-002"}, ""},
	} {
		err := CheckSupersedes(c.edges, "evt-009", c.sup)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
	// Over MCP the input is the "supersedes" parameter.
	err := CheckSupersedes([]parse.Supersession{e("evt-002", "evt-001")}, "evt-003", []string{"evt-001"})
	if got, want := front.Message(err, front.MCP), "supersedes evt-001: evt-002 already corrects it, and two live corrections of one event are lint's MS126 error: correct evt-002 instead (supersedes evt-002), or name both (supersedes evt-001,evt-002)"; got != want {
		t.Errorf("MCP:\ngot  %s\nwant %s", got, want)
	}
}

// TestAppendRefusesSecondCorrection appends through Append, on a small
// log (read whole), a long one (planned from its tail) and with the
// first correction in the archive: a second live correction is
// refused and nothing is written; superseding the correction, or
// naming both, is appended.
func TestAppendRefusesSecondCorrection(t *testing.T) {
	archived := strings.Replace(string(genLog(3, "\n---\n\n")), "## Event Log", "## Archive: evt-001 through evt-003", 1) +
		"\n---\n\n" + strings.Replace(event(4, "create"), "**Tags**: t\n", "**Tags**: t\n**Supersedes**: evt-001\n", 1)
	for _, c := range []struct {
		name      string
		log, arch []byte
	}{
		{"small", genLog(5, "\n---\n\n"), nil},
		{"long", genLog(3000, "\n---\n\n"), nil},
		{"archive", []byte(head), []byte(archived)},
	} {
		root := t.TempDir()
		writeMemory(t, root, c.log, c.arch)
		d := func(sup ...string) Draft {
			return Draft{Agent: "a", Time: "2026-01-02 10:00", Type: "test", Scope: "s", Summary: "x", Supersedes: sup}
		}
		first := "evt-004" // the archive's correction
		if c.arch == nil {
			res, err := Append(root, d("evt-001"), false, false)
			if err != nil {
				t.Fatalf("%s: first correction: %v", c.name, err)
			}
			first = res.ID
		}
		before, _ := os.ReadFile(filepath.Join(root, parse.LogFile))
		_, err := Append(root, d("evt-1"), false, false)
		if err == nil || !strings.Contains(err.Error(), first+" already corrects it") {
			t.Fatalf("%s: second correction: %v", c.name, err)
		}
		if after, _ := os.ReadFile(filepath.Join(root, parse.LogFile)); string(after) != string(before) {
			t.Errorf("%s: a refused append changed the log", c.name)
		}
		if _, err := Append(root, d("evt-001", first), false, false); err != nil {
			t.Errorf("%s: naming both: %v", c.name, err)
		}
	}
}
