package ledger

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// checkTally counts the events sameChecks compared: those planFast
// settled, those it left to plan and plan accepted, and refusals.
type checkTally struct{ fast, planned, refused int }

// sameChecks runs export's check (planner.check, planFast first) and
// plan alone (what export ran on every event before planFast) side by
// side over events, in order, as exportLines does: the events of the
// Event Log, up to the first control character or refusal. After every
// event both must agree on the outcome (the error's words, and whether
// the event was checked against the log's parse) and their planners
// must hold the same state, so a divergence on one event cannot hide
// behind a later one.
func sameChecks(t testing.TB, name string, events []parse.Event) checkTally {
	t.Helper()
	var n checkTally
	none := func(int) (string, string, bool) { return "", "", false }
	pf := newPlanner(parse.FormatID(1, 3), none, nil, "agent")
	pp := newPlanner(parse.FormatID(1, 3), none, nil, "agent")
	for i := range events {
		e := &events[i]
		if !e.InLog {
			continue
		}
		if _, _, ok := lint.ControlAt(e); ok {
			break
		}
		var gotOK bool
		var gotErr error
		fast := pf.planFast(e)
		if fast {
			gotOK = true
			n.fast++
		} else {
			gotOK, gotErr = pf.check(e, true)
		}
		l, wantErr := pp.plan(lineOf(e), e)
		wantOK := wantErr == nil && l.NewID == e.ID && sameText(l.Text, e.Text)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || gotOK != wantOK {
			t.Fatalf("%s: %s: check gives (%v, %v), plan (%v, %v)", name, e.ID, gotOK, gotErr, wantOK, wantErr)
		}
		if d := plannerDiff(pf, pp); d != "" {
			t.Fatalf("%s: %s: after the check the planners differ: %s", name, e.ID, d)
		}
		if wantErr != nil {
			n.refused++
			break
		}
		if !fast {
			n.planned++
		}
	}
	return n
}

// plannerDiff names the first part of the state two planners hold
// differently, or is "".
func plannerDiff(a, b *planner) string {
	switch {
	case a.next != b.next:
		return fmt.Sprintf("next %s, %s", a.next, b.next)
	case !maps.Equal(a.newOf.byText, b.newOf.byText) || !maps.Equal(a.newOf.byNum, b.newOf.byNum):
		return fmt.Sprintf("old IDs %v, %v", a.newOf, b.newOf)
	case !maps.Equal(a.byNum, b.byNum):
		return fmt.Sprintf("new IDs %v, %v", a.byNum, b.byNum)
	case !reflect.DeepEqual(a.edges, b.edges):
		return fmt.Sprintf("edges %v, %v", a.edges, b.edges)
	case !reflect.DeepEqual(a.hides, b.hides):
		return fmt.Sprintf("hides %v, %v", a.hides, b.hides)
	}
	return ""
}

// TestExportFastSame holds export's check, planFast first, to plan's
// verdict and state, event by event, on every memory of exportMemories
// (each fixture memory, the refusal cases, generated histories), and
// checks that both paths are taken: planFast settles most events of a
// generated history, plan the rest.
func TestExportFastSame(t *testing.T) {
	var all checkTally
	for _, m := range exportMemories(t) {
		root := t.TempDir()
		for name, data := range m.files {
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		mem, err := workspace.Load(root)
		if err != nil {
			continue // export cannot run either: nothing to compare
		}
		n := sameChecks(t, m.name, mem.Events)
		if m.name == "generated" && n.fast < 290 {
			t.Errorf("generated: planFast settled %d of 300 events, want nearly all", n.fast)
		}
		all.fast, all.planned, all.refused = all.fast+n.fast, all.planned+n.planned, all.refused+n.refused
	}
	if all.fast < 1000 || all.planned < 50 || all.refused < 10 {
		t.Errorf("planFast settled %d events, plan %d, and %d were refused: want at least 1000, 50 and 10", all.fast, all.planned, all.refused)
	}
	t.Logf("planFast settled %d events, plan %d; %d refused alike", all.fast, all.planned, all.refused)
}

// FuzzExportFast holds export's check to plan's on any log: the fuzzer
// mutates generated histories and hand-written events towards the
// edges planFast must leave to plan (a renamed ref, a closes of itself,
// a seed type, a blank agent, a time without minutes).
func FuzzExportFast(f *testing.F) {
	f.Add(loggen.GenerateSemantic(8, 2))
	head := "# Changelog\n\n## Event Log\n\n"
	for _, body := range []string{
		"### evt-001 | 2026-01-02 03:04 | a | commitment\n\n**Scope**: s\n**Summary**: open\n\n**Refs**: none\n**Tags**: none\n\n### evt-002 | 2026-01-02 03:05 | a | milestone\n\n**Scope**: s\n**Summary**: done\n\n**Details**:\n- closes: evt-001\n\n**Refs**: evt-001\n**Tags**: a, b\n",
		"### evt-002 | 2026-01-02 03:04 | a | fact\n\n**Scope**: s\n**Summary**: seed type\n\n**Refs**: evt-002\n**Tags**: none\n",
		"### evt-001 | 2026-01-02 | a | test\n\n**Scope**: s\n**Summary**: a date\n\n**Details**:\n- closes: evt-001\n- priority: P9\n  - x: y\n\n**Refs**: none\n**Tags**: none\n**Supersedes**: evt-001\n",
	} {
		f.Add([]byte(head + body))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameChecks(t, "fuzz", parse.Parse(parse.LogFile, src).Events)
	})
}
