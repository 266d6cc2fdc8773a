package converge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/parse"
)

// genEvent is one event of a generated log: a label that identifies it
// by content, and the labels of the events it names in **Refs** and in
// its details' prose.
type genEvent struct {
	label string
	refs  []string
	prose string // label mentioned in a detail, "" for none
}

// render writes events as a log, numbering them from 1 in order and
// resolving labels to IDs among them.
func render(head string, evs []genEvent) []byte {
	id := map[string]string{}
	for i, e := range evs {
		id[e.label] = fmt.Sprintf("evt-%03d", i+1)
	}
	var b strings.Builder
	b.WriteString(head)
	for i, e := range evs {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		refs := "none"
		if len(e.refs) > 0 {
			var r []string
			for _, l := range e.refs {
				r = append(r, id[l])
			}
			refs = strings.Join(r, ", ")
		}
		fmt.Fprintf(&b, "### %s | 2025-01-01 10:%02d | agent | create\n\n**Scope**: s\n**Summary**: %s\n\n**Details**:\n- entity: %s\n", id[e.label], i%60, e.label, e.label)
		if e.prose != "" {
			fmt.Fprintf(&b, "- note: follows up %s\n", id[e.prose])
		}
		fmt.Fprintf(&b, "\n**Refs**: %s\n**Tags**: t\n", refs)
	}
	return []byte(b.String())
}

const genHead = "# Changelog\n\n## Event Log\n\n"

// gitText is the real line merge, git merge-file.
func gitText(t testing.TB) TextMerge {
	g := &gitx.Git{Dir: t.TempDir()}
	return func(a, o, th []byte) ([]byte, bool, error) {
		return g.MergeFile(t.Context(), a, o, th, 0, "ours", "base", "theirs")
	}
}

// checkMerged checks a clean merge of sides that only appended: every
// event of every side exactly once, IDs consecutive from 1, ours'
// events under their own IDs, and every ref and prose mention naming
// the event (by label) it named on its side.
func checkMerged(t testing.TB, got Result, ours []genEvent, sides ...[]genEvent) {
	t.Helper()
	if len(got.Conflicts) > 0 {
		t.Fatalf("conflicts: %v\n%s", got.Conflicts, got.Data)
	}
	l := parse.Parse("CHANGELOG.md", got.Data)
	for _, p := range l.Problems {
		t.Fatalf("merged log has a problem: %s\n%s", p, got.Data)
	}
	byLabel := map[string]*parse.Event{}
	byID := map[string]string{}
	for i := range l.Events {
		e := &l.Events[i]
		if e.Num != i+1 {
			t.Fatalf("event %d is %s: IDs are not consecutive\n%s", i+1, e.ID, got.Data)
		}
		if _, dup := byLabel[e.Summary]; dup {
			t.Fatalf("%q appears twice\n%s", e.Summary, got.Data)
		}
		byLabel[e.Summary] = e
		byID[e.ID] = e.Summary
	}
	want := map[string]genEvent{}
	for _, s := range sides {
		for _, e := range s {
			want[e.label] = e
		}
	}
	if len(want) != len(l.Events) {
		t.Fatalf("%d events merged, want %d\n%s", len(l.Events), len(want), got.Data)
	}
	for i, e := range ours {
		if m := byLabel[e.label]; m == nil || m.Num != i+1 {
			t.Fatalf("ours' %q moved from evt-%03d\n%s", e.label, i+1, got.Data)
		}
	}
	for label, e := range want {
		m := byLabel[label]
		if m == nil {
			t.Fatalf("%q is lost\n%s", label, got.Data)
		}
		var refs []string
		for _, r := range m.Refs {
			refs = append(refs, byID[r])
		}
		if strings.Join(refs, ",") != strings.Join(e.refs, ",") {
			t.Fatalf("%s (%q) refers to %v, want %v\n%s", m.ID, label, refs, e.refs, got.Data)
		}
		note, _ := m.Detail("note")
		if e.prose != "" && note != "follows up "+byLabel[e.prose].ID {
			t.Fatalf("%s (%q) prose reads %q, want it to name %s\n%s", m.ID, label, note, byLabel[e.prose].ID, got.Data)
		}
	}
}

// appended returns base plus n new events labelled prefix1..prefixN;
// each refers to the event before it (a new one or the last of base),
// and every second one mentions the first event of the log in prose
// (an ancestor event, or its own first new one).
func appended(base []genEvent, prefix string, n int) []genEvent {
	out := append([]genEvent(nil), base...)
	for i := 1; i <= n; i++ {
		e := genEvent{label: fmt.Sprintf("%s%d", prefix, i)}
		if len(out) > 0 {
			e.refs = []string{out[len(out)-1].label}
		}
		if i%2 == 0 {
			e.prose = out[len(base)].label
		}
		out = append(out, e)
	}
	return out
}

// TestMergeGenerated merges every ancestor of 0..4 events with every
// pair of sides adding 0..4 events each, in both orders.
func TestMergeGenerated(t *testing.T) {
	text := gitText(t)
	for n := 0; n <= 4; n++ {
		anc := appended(nil, "base", n)
		for mo := 0; mo <= 4; mo++ {
			for mt := 0; mt <= 4; mt++ {
				o, th := appended(anc, "ours", mo), appended(anc, "theirs", mt)
				for _, order := range [][2][]genEvent{{o, th}, {th, o}} {
					got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: render(genHead, order[0]), Theirs: render(genHead, order[1]), Text: text})
					if err != nil {
						t.Fatal(err)
					}
					checkMerged(t, got, order[0], order[0], order[1])
					if want := len(order[1]) - n; len(got.Renumbered) != want {
						t.Fatalf("n=%d: %d renumbered, want %d", n, len(got.Renumbered), want)
					}
				}
			}
		}
	}
}

// TestMergeChain merges three branches from one base into main one
// after another, in every order: the result of one merge is ours in the
// next, and the merge base stays the original base.
func TestMergeChain(t *testing.T) {
	text := gitText(t)
	anc := appended(nil, "base", 2)
	branches := [][]genEvent{appended(anc, "x", 3), appended(anc, "y", 1), appended(anc, "z", 2)}
	for _, perm := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		main := render(genHead, anc)
		for _, k := range perm {
			got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: main, Theirs: render(genHead, branches[k]), Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Conflicts) > 0 {
				t.Fatalf("%v: %v", perm, got.Conflicts)
			}
			main = got.Data
		}
		checkMerged(t, Result{Data: main}, anc, branches...)
	}
}

// TestMergeRebase replays a branch's commits one at a time onto a main
// that appended meanwhile, as git rebase calls the driver: the
// ancestor of each step is the branch's previous commit, whose events
// ours already holds under new numbers. Every step must be clean and
// the end must hold main's events, then the branch's, refs intact.
func TestMergeRebase(t *testing.T) {
	text := gitText(t)
	anc := appended(nil, "base", 2)
	for m := 0; m <= 3; m++ {
		for b := 1; b <= 4; b++ {
			main := appended(anc, "main", m)
			branch := appended(anc, "br", b)
			onto := render(genHead, main)
			for k := 1; k <= b; k++ {
				got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, branch[:len(anc)+k-1]), Ours: onto, Theirs: render(genHead, branch[:len(anc)+k]), Text: text})
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Conflicts) > 0 {
					t.Fatalf("m=%d b=%d step %d: %v\n%s", m, b, k, got.Conflicts, got.Data)
				}
				onto = got.Data
			}
			checkMerged(t, Result{Data: onto}, main, main, branch)
		}
	}
}
