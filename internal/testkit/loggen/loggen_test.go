package loggen

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

func TestDeterministic(t *testing.T) {
	a := Generate(3000, 1)
	b := Generate(3000, 1)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed differ")
	}
	if c := Generate(3000, 2); bytes.Equal(a, c) {
		t.Fatal("different seeds give the same log")
	}
	// A prefix of a longer log is the shorter log: n only decides where
	// generation stops.
	if long := Generate(3100, 1); !bytes.HasPrefix(long, a) {
		t.Fatal("Generate(3000) is not a prefix of Generate(3100)")
	}
}

// TestGolden pins the bytes, so a change to the generator (which would
// silently change every benchmark input) is a visible test change.
func TestGolden(t *testing.T) {
	got := fmt.Sprintf("%x", sha256.Sum256(Generate(1000, 1)))
	const want = "b16a66d64ce837d591fa5b81402b22627f64502269a2db0977451fe3b4eb1bbe"
	if got != want {
		t.Errorf("Generate(1000, 1) sha256 = %s, want %s", got, want)
	}
}

func TestShape(t *testing.T) {
	const n = 20000
	src := Generate(n, 7)
	per := float64(len(src)) / n
	if per < 280 || per > 360 {
		t.Errorf("%.0f bytes/event, want about 320", per)
	}
	l := parse.Parse("CHANGELOG.md", src)
	if !l.HasEventLog {
		t.Fatal("no event log section")
	}
	for _, p := range l.Problems {
		t.Errorf("parse problem: %s", p)
	}
	if len(l.Events) != n {
		t.Fatalf("%d events, want %d", len(l.Events), n)
	}
	seen := map[string]bool{}
	entities := map[string]bool{}
	var prev int64
	for i, e := range l.Events {
		if e.ID != ID(i+1) || e.Num != i+1 {
			t.Fatalf("event %d has ID %q", i+1, e.ID)
		}
		if k := e.Time.Key(); k < prev {
			t.Fatalf("%s: time goes backwards", e.ID)
		} else {
			prev = k
		}
		seen[e.Type] = true
		if v, ok := e.Detail("entity"); ok {
			entities[v] = true
		}
		for _, r := range e.Refs {
			var num int
			fmt.Sscanf(strings.TrimPrefix(r, "evt-"), "%d", &num)
			if num <= 0 || num >= e.Num {
				t.Fatalf("%s refs %s, not an earlier event", e.ID, r)
			}
		}
		want := map[string][]string{
			"create": {"entity", "path", "purpose"}, "modify": {"entity", "changes"},
			"decision": {"from", "to", "rationale", "entity", "attribute"}, "dependency": {"entity", "version"},
			"blocker": {"blocked_entity", "blocking_entity"}, "test": {"target", "result"},
			"fix": {"symptom", "root_cause", "resolution"}, "milestone": {"name", "criteria_met"},
			"handoff": {"from_agent", "to_agent"}, "delete": {"entity", "reason"},
			"escalation": {"reason", "requested_action"},
		}[e.Type]
		for _, k := range want {
			if _, ok := e.Detail(k); !ok {
				t.Fatalf("%s (%s) lacks detail %q", e.ID, e.Type, k)
			}
		}
	}
	if len(seen) != 11 {
		t.Errorf("types seen: %v, want all 11", seen)
	}
	if len(entities) < 200 || len(entities) > 600 {
		t.Errorf("%d distinct entities, want a few hundred", len(entities))
	}
}

func TestFixRefsBlocker(t *testing.T) {
	l := parse.Parse("CHANGELOG.md", Generate(500, 3))
	byID := map[string]string{}
	fixes := 0
	for _, e := range l.Events {
		byID[e.ID] = e.Type
		if e.Type != "fix" {
			continue
		}
		for _, r := range e.Refs {
			if byID[r] == "blocker" {
				fixes++
				break
			}
		}
	}
	if fixes < 30 {
		t.Errorf("only %d fixes ref a blocker", fixes)
	}
}

func BenchmarkGenerate100k(b *testing.B) {
	for b.Loop() {
		Generate(100000, 1)
	}
}

// TestSemantic: GenerateSemantic is deterministic, parses cleanly,
// carries each of issue 12's fields, names only earlier events, never
// supersedes one event twice, and its Supersedes fields are exactly
// what parse.ScanSupersedes predicts from the bytes.
func TestSemantic(t *testing.T) {
	const n = 5000
	src := GenerateSemantic(n, 3)
	if !bytes.Equal(src, GenerateSemantic(n, 3)) {
		t.Fatal("two runs with the same seed differ")
	}
	l := parse.Parse("CHANGELOG.md", src)
	for _, p := range l.Problems {
		t.Errorf("parse problem: %s", p)
	}
	if len(l.Events) != n {
		t.Fatalf("%d events, want %d", len(l.Events), n)
	}
	counts := map[string]int{}
	superseded := map[string]bool{}
	var want []parse.Supersession
	for _, e := range l.Events {
		if e.Type == "commitment" {
			counts["commitment"]++
		}
		if v, ok := e.Detail("priority"); ok {
			counts["priority "+v]++
		}
		if v, ok := e.Detail("closes"); ok {
			counts["closes"]++
			if n, _ := parse.EventNum(v); n >= e.Num {
				t.Errorf("%s closes %s, not earlier", e.ID, v)
			}
		}
		for _, s := range e.Supersedes {
			counts["supersedes"]++
			if n, _ := parse.EventNum(s); n >= e.Num || n < 1 {
				t.Errorf("%s supersedes %s, not earlier", e.ID, s)
			}
			if superseded[s] {
				t.Errorf("%s superseded twice", s)
			}
			superseded[s] = true
		}
		if sp, ok := parse.SupersessionOf(&e); ok {
			want = append(want, sp)
		}
	}
	for _, k := range []string{"commitment", "priority P0", "priority P2", "priority P3", "closes", "supersedes"} {
		if counts[k] < 1 || k != "priority P0" && counts[k] < 10 {
			t.Errorf("%d events with %s in %d, want more", counts[k], k, n)
		}
	}
	got := parse.ScanSupersedes("CHANGELOG.md", src)
	if len(got) != len(want) {
		t.Fatalf("ScanSupersedes found %d fields, the parser %d", len(got), len(want))
	}
	for i := range got {
		if !got[i].Equal(want[i]) {
			t.Fatalf("field %d: scanned %+v, parsed %+v", i, got[i], want[i])
		}
	}
	// Generate itself is unchanged by the semantic mode.
	if bytes.Equal(src, Generate(n, 3)) {
		t.Error("GenerateSemantic adds nothing")
	}
}
