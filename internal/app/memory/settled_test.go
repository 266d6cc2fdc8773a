package memory

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/fixtures"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// draftOf is the draft of e's own fields, as export's planFast builds it.
func draftOf(e *parse.Event) Draft {
	var details func(ds []parse.Detail) []DraftDetail
	details = func(ds []parse.Detail) []DraftDetail {
		var out []DraftDetail
		for _, d := range ds {
			out = append(out, DraftDetail{Key: d.Key, Value: d.Value, Children: details(d.Children)})
		}
		return out
	}
	return Draft{Type: e.Type, Scope: e.Scope, Summary: e.Summary, Agent: e.Agent, Time: e.Time.String(),
		Details: details(e.Details), Refs: slices.Clone(e.Refs), Tags: slices.Clone(e.Tags), Supersedes: slices.Clone(e.Supersedes)}
}

// TestSettled holds Settled to Normalize: a draft Settled calls settled
// must be one Normalize accepts and leaves as it was (refs and tags
// compared by content), on the draft of every event of every fixture
// memory's log and of generated logs, with the log's events as the
// known ones; and both answers must occur.
func TestSettled(t *testing.T) {
	var logs [][]byte
	for _, m := range fixtures.Memories(t, "../../..") {
		if src, ok := m.Files[parse.LogFile]; ok {
			logs = append(logs, src)
		}
	}
	logs = append(logs, loggen.Generate(300, 1), loggen.GenerateSemantic(600, 2))
	// Each event's draft as it is, and edited towards what Normalize
	// rewrites or refuses.
	edits := []func(d *Draft){
		func(d *Draft) {},
		func(d *Draft) { d.Scope += " " },
		func(d *Draft) { d.Type = " " + d.Type },
		func(d *Draft) { d.Time = d.Time[:min(len(d.Time), 10)] },
		func(d *Draft) { d.Time = strings.Replace(d.Time, " ", "T", 1) },
		func(d *Draft) { d.Tags = append(d.Tags, "none") },
		func(d *Draft) { d.Tags = append(d.Tags, "a,b") },
		func(d *Draft) { d.Refs = append(d.Refs, d.Refs...) },
		func(d *Draft) { d.Refs = append(d.Refs, "evt-1") },
		func(d *Draft) { d.Refs = append(d.Refs, "evt-999") },
		func(d *Draft) { d.Supersedes = append(d.Supersedes, "evt-001") },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "priority", Value: "P7"}) },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "closes", Value: "evt-001"}) },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "closes", Value: "evt-1"}) },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "closes", Value: "evt-001,evt-001"}) },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "note", Value: "x "}) },
		func(d *Draft) { d.Details = append(d.Details, DraftDetail{Key: "a:b", Value: "x"}) },
		func(d *Draft) { d.Agent = "a\x1b" },
		func(d *Draft) { d.Summary = "\xff" },
	}
	settled, not := 0, 0
	for _, src := range logs {
		l := parse.Parse(parse.LogFile, src)
		known := KnownIn(l)
		for i := range l.Events {
			for j, edit := range edits {
				d := draftOf(&l.Events[i])
				edit(&d)
				orig := draftOf(&l.Events[i])
				edit(&orig)
				if !Settled(&d, known) {
					not++
					continue
				}
				settled++
				if !reflect.DeepEqual(d, orig) {
					t.Fatalf("%s, edit %d: Settled changed the draft", l.Events[i].ID, j)
				}
				n := draftOf(&l.Events[i])
				edit(&n)
				if err := Normalize(&n, known); err != nil {
					t.Fatalf("%s, edit %d: settled, but Normalize refuses it: %v", l.Events[i].ID, j, err)
				}
				same := n.Type == d.Type && n.Scope == d.Scope && n.Summary == d.Summary && n.Agent == d.Agent && n.Time == d.Time &&
					slices.Equal(n.Refs, d.Refs) && slices.Equal(n.Tags, d.Tags) && len(n.Supersedes) == 0 && reflect.DeepEqual(n.Details, d.Details)
				if !same {
					t.Fatalf("%s, edit %d: settled, but Normalize rewrites it:\n%#v\n%#v", l.Events[i].ID, j, d, n)
				}
			}
		}
	}
	if settled < 500 || not < 50 {
		t.Errorf("%d drafts settled, %d not: want at least 500 and 50", settled, not)
	}
	t.Logf("%d drafts settled, %d not", settled, not)
}
