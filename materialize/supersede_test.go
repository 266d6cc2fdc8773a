package materialize

import (
	"reflect"
	"testing"

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
