package ledger

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestPlanRefusesSecondCorrection: a ledger line whose Supersedes field
// would leave an event of the memory, or of an earlier line, with two
// live corrections (lint's MS126) stops the plan, in the words of a
// JSON object, as append refuses one; a line that corrects the
// correction, names both, or revives nothing is planned.
func TestPlanRefusesSecondCorrection(t *testing.T) {
	existing := func(n int) (string, string, bool) {
		if n >= 1 && n <= 4 {
			return parse.FormatID(n, 3), "fix", true
		}
		return "", "", false
	}
	memEdges := []parse.Supersession{
		{ID: "evt-002", Targets: []string{"evt-001"}},
		{ID: "evt-004", Targets: []string{"evt-003"}},
	}
	line := func(id, sup string) string {
		return `{"id": "` + id + `", "ts": "2026-02-01T10:00:00Z", "type": "fix", "content": "c", "scope": "s", "fields": [{"key": "Supersedes", "value": "` + sup + `"}]}` + "\n"
	}
	// evt-003 corrects evt-002, which corrected evt-001; evt-004 is
	// evt-001's live correction: superseding evt-003 brings evt-002 back.
	revive := []parse.Supersession{
		{ID: "evt-002", Targets: []string{"evt-001"}},
		{ID: "evt-003", Targets: []string{"evt-002"}},
		{ID: "evt-004", Targets: []string{"evt-001"}},
	}
	if _, err := planEdges("l.jsonl", []byte(line("A", "evt-003")), "evt-005", existing, nil, "agent", revive); err == nil ||
		err.Error() != `l.jsonl:1: supersedes evt-003: it makes evt-002 live again, which corrects evt-001 as evt-004 does (lint's MS126 error): name evt-002 in the "supersedes" key as well` {
		t.Errorf("revival: %v", err)
	}
	for _, c := range []struct {
		name, ledger, want string
	}{
		{"second correction of the memory's event", line("A", "evt-001"),
			`l.jsonl:1: supersedes evt-001: evt-002 already corrects it, and two live corrections of one event are lint's MS126 error: correct evt-002 instead (supersedes evt-002), or name both (supersedes evt-001,evt-002)`},
		{"second correction of an earlier line's", line("A", "evt-003, evt-004") + line("B", "evt-003"),
			`l.jsonl:2: supersedes evt-003: evt-005 already corrects it`},
		{"revives a correction", line("A", "evt-001, evt-002") + line("B", "evt-005"),
			""}, // evt-002 comes back, and it is evt-001's only live correction
		{"correct the correction", line("A", "evt-002"), ""},
		{"name both", line("A", "evt-1, evt-2"), ""},
	} {
		_, err := planEdges("l.jsonl", []byte(c.ledger), "evt-005", existing, nil, "agent", memEdges)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if c.want == "" && got != "" || c.want != "" && !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\ngot  %s\nwant %s", c.name, got, c.want)
		}
	}
}
