package materialize

import (
	"reflect"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// sup builds one Supersedes field: the event id names targets.
func sup(id string, targets ...string) parse.Supersession {
	return parse.Supersession{ID: id, Targets: targets}
}

// TestSupersededTwice is the table behind lint's MS126 and append's
// refusal: a second live correction of one event is reported, once
// per target, with the first live correction; a correction that a
// later live event supersedes no longer counts.
func TestSupersededTwice(t *testing.T) {
	for _, c := range []struct {
		name  string
		edges []parse.Supersession
		want  []Twice
	}{
		{"none", nil, nil},
		{"one correction", []parse.Supersession{sup("evt-002", "evt-001")}, nil},
		{"two corrections", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-001")},
			[]Twice{{Edge: 1, Target: "evt-001", First: 0}}},
		{"short ID matches", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-1")},
			[]Twice{{Edge: 1, Target: "evt-1", First: 0}}},
		{"second names both: the first is dead", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-001", "evt-002")}, nil},
		{"chain: correcting the correction", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-002")}, nil},
		{"a third after a chain", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-002"), sup("evt-004", "evt-001")}, nil},
		{"a revived correction", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-002"), sup("evt-004", "evt-001"), sup("evt-005", "evt-003")},
			[]Twice{{Edge: 2, Target: "evt-001", First: 0}}},
		{"three corrections", []parse.Supersession{sup("evt-002", "evt-001"), sup("evt-003", "evt-001"), sup("evt-004", "evt-001")},
			[]Twice{{Edge: 1, Target: "evt-001", First: 0}, {Edge: 2, Target: "evt-001", First: 0}}},
		{"itself and no ID do not count", []parse.Supersession{sup("evt-002", "evt-002", "x"), sup("evt-003", "evt-002", "x")}, nil},
		{"one event naming a target twice", []parse.Supersession{sup("evt-002", "evt-001", "evt-1")}, nil},
	} {
		if got := SupersededTwice(c.edges); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestSkippedAt holds SkippedAt, what memsys show reports for a
// superseded event, to Replay's Change for every event of generated
// histories with supersessions (and a hand-made MS126 one, where the
// first and the last live correction differ).
func TestSkippedAt(t *testing.T) {
	twice := "# Changelog\n\n## Event Log\n" +
		"\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: x\n\n**Details**:\n- entity: n\n" +
		"\n### evt-002 | 2026-01-01 10:01 | a | create\n\n**Scope**: s\n**Summary**: x\n\n**Details**:\n- entity: n\n\n**Supersedes**: evt-001\n" +
		"\n### evt-003 | 2026-01-01 10:02 | a | create\n\n**Scope**: s\n**Summary**: x\n\n**Details**:\n- entity: n\n\n**Supersedes**: evt-1\n"
	skipped := 0
	for i, src := range []string{string(loggen.GenerateSemantic(300, 7)), string(loggen.GenerateSemantic(300, 8)), twice} {
		evs := parse.Parse(parse.LogFile, []byte(src)).Events
		_, changes := Replay(evs)
		edges := Supersessions(evs)
		by := SupersededBy(evs)
		before := 0
		for k := range evs {
			got, ok := SkippedAt(edges, before, evs[k].ID)
			if _, has := parse.SupersessionOf(&evs[k]); has {
				before++
			}
			if _, want := by[k]; ok != want {
				t.Fatalf("log %d, %s: SkippedAt ok=%v, replay's change %+v", i, evs[k].ID, ok, changes[k])
			}
			if ok {
				skipped++
				if !reflect.DeepEqual(got, changes[k]) {
					t.Fatalf("log %d, %s: SkippedAt %+v, replay %+v", i, evs[k].ID, got, changes[k])
				}
			}
		}
	}
	// With two live corrections, replay names the last one: so must show.
	evs := parse.Parse(parse.LogFile, []byte(twice)).Events
	if got, _ := SkippedAt(Supersessions(evs), 0, "evt-001"); !reflect.DeepEqual(got.Notes, []string{"superseded by evt-003: skipped"}) {
		t.Errorf("evt-001 of two live corrections: notes %q", got.Notes)
	}
	if skipped < 5 {
		t.Errorf("%d skipped events: the corpus must supersede some", skipped)
	}
}
