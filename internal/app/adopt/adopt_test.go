package adopt

import (
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

const log = `# Changelog

## Event Log

### evt-001 | 2025-03-01 10:00 | alice | create

**Scope**: auth
**Summary**: Create auth

**Details**:
- entity: auth
- path: src/auth/
- purpose: login

**Refs**: none
**Tags**: none
`

const hand = `# Knowledge Graph

## Nodes

| Node | Type | Status | Attributes |
|------|------|--------|------------|
| auth | component | completed | path=src/auth/; owner: team-a |
| ` + "`api`" + ` | component | in progress | |
| db choice | decision | active | to=postgres |
| Fix the login flow, then retest. | task | active | |

## Edges

| From | To | Relation |
|------|----|----------|
| api | auth | depends_on |
| auth | db choice | implements |
| api | auth | uses |
`

func TestMake(t *testing.T) {
	in := Input{
		Events:  parse.Parse("CHANGELOG.md", []byte(log)).Events,
		Graph:   []byte(hand),
		Context: []byte("# Current Context\n\n## Active Constraints\n\n- Every response is JSON\n- (none)\n"),
	}
	p := Make(in)
	var types []string
	for _, d := range p.Drafts {
		types = append(types, d.Type+" "+d.Scope)
		if !slices.Contains(d.Tags, Tag) {
			t.Errorf("draft %s %s lacks the %q tag", d.Type, d.Scope, Tag)
		}
	}
	want := []string{"modify auth", "create api", "create db choice", "decision constraints written by hand in context.md."}
	if !slices.Equal(types, want) {
		t.Errorf("drafts %q, want %q", types, want)
	}
	if p.Nodes != 3 || p.Edges != 2 || p.Constraints != 1 {
		t.Errorf("counts %d nodes %d edges %d constraints, want 3 2 1", p.Nodes, p.Edges, p.Constraints)
	}
	wantProblems := []string{
		`node "Fix the login flow, then retest." is not a name (it has sentence punctuation ","): not adopted; rename it in graph.md`,
		`edge api -uses-> auth: "uses" is not one of the seed's relations: not adopted`,
	}
	if !slices.Equal(p.Problems, wantProblems) {
		t.Errorf("problems\n got %q\nwant %q", p.Problems, wantProblems)
	}
	r, err := Apply("CHANGELOG.md", []byte(log), nil, in, p, "bob", "2025-03-02 09:00")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Missing) != 0 {
		t.Errorf("after adopt the replay still lacks %q", r.Missing)
	}
	if !slices.Equal(r.IDs, []string{"evt-002", "evt-003", "evt-004", "evt-005"}) {
		t.Errorf("ids %q", r.IDs)
	}
	// A second run over the adopted log has nothing left to do.
	in.Events = parse.Parse("CHANGELOG.md", r.Log).Events
	g, _ := materialize.Replay(in.Events)
	in.Context = materialize.RenderContext(materialize.BuildContext(in.Events, g, materialize.Options{}))
	if again := Make(in); len(again.Drafts) != 0 {
		t.Errorf("second run drafts %+v", again.Drafts)
	}
	if !strings.HasPrefix(string(r.Log), log) {
		t.Errorf("the log's existing bytes changed")
	}
}

func TestReadConstraints(t *testing.T) {
	got := materialize.ReadConstraints([]byte("## Active Mission\n\n- x\n\n## Active Constraints\n\n- a.b: Use &lt;x&gt; — evt-003\n* plain rule\n- … and 2 more\n\n## Blockers\n- y\n"))
	want := []string{"a.b: Use <x>", "plain rule"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestApplyRefusesNewestFirst adopts into a log kept newest first (as
// many hand-kept changelogs are): appending after its oldest event
// would leave an order neither newest first nor oldest first, which
// archive refuses and lint reports. Apply refuses with the line that
// says what to do and returns no log; a log with nothing to adopt is
// not refused: nothing is written.
func TestApplyRefusesNewestFirst(t *testing.T) {
	second := strings.Replace(strings.TrimPrefix(log, "# Changelog\n\n## Event Log\n\n"), "evt-001 | 2025-03-01", "evt-002 | 2025-03-02", 1)
	newest := "# Changelog\n\n## Event Log\n\n" + second + "\n" + strings.TrimPrefix(log, "# Changelog\n\n## Event Log\n\n")
	in := Input{Events: parse.Parse("CHANGELOG.md", []byte(newest)).Events, Graph: []byte(hand)}
	p := Make(in)
	if len(p.Drafts) == 0 {
		t.Fatal("nothing to adopt")
	}
	r, err := Apply("CHANGELOG.md", []byte(newest), nil, in, p, "bob", "2025-03-02 09:00")
	want := "CHANGELOG.md:5: the log is newest first (evt-002 at line 5 comes before evt-001 at line 18), and adopt appends its events at the end, below the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run memsys adopt again"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	if r.Log != nil || len(r.IDs) != 0 {
		t.Errorf("a refused adopt returned a log: %q", r.IDs)
	}
	if _, err := Apply("CHANGELOG.md", []byte(newest), nil, in, Plan{}, "bob", "2025-03-02 09:00"); err != nil {
		t.Errorf("nothing to adopt, refused: %v", err)
	}
}
