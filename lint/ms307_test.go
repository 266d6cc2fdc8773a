package lint

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/parse"
)

func TestUnmerged(t *testing.T) {
	events := func(log string) []parse.Event { return parse.Parse("CHANGELOG.md", []byte(log)).Events }
	refEv := func(n int, summary, ref string) string {
		return "### " + parse.FormatID(n, 3) + " | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: " + summary + "\n\n**Refs**: " + ref + "\n\n---\n\n"
	}
	base := head + ev(1, "one")
	theirs := base + ev(2, "t two") + refEv(3, "t three", "evt-002")
	ours := base + ev(2, "o two")
	for _, tc := range []struct {
		name         string
		base, theirs string
		staged       string
		want         string
	}{
		{"ours only", base, theirs, ours, "evt-002,evt-003"},
		{"merged, theirs renumbered with its refs", base, theirs, ours + ev(3, "t two") + refEv(4, "t three", "evt-003"), ""},
		{"one of theirs kept", base, theirs, ours + ev(3, "t two"), "evt-003"},
		{"theirs added nothing", base, base, ours, ""},
		{"theirs only (ours dropped: MS302's concern)", base, theirs, theirs, ""},
		{"no merge base in this clone", "", theirs, ours, "evt-002,evt-003"},
		{"an edit of a base event is not new", base, head + ev(1, "one, edited"), ours, ""},
		{"two equal events need two copies", base, base + ev(2, "same") + ev(3, "same"), base + ev(2, "same"), "evt-003"},
		{"a cherry-pick written once", base, theirs, base + ev(2, "t two") + refEv(3, "t three", "evt-002"), ""},
	} {
		var ids []string
		for _, e := range Unmerged(events(tc.base), events(tc.theirs), events(tc.staged)) {
			ids = append(ids, e.ID)
		}
		if got := strings.Join(ids, ","); got != tc.want {
			t.Errorf("%s: missing %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMergeRuleThroughThePass runs MS307 on a fake repository: HEAD,
// the merge base, MERGE_HEAD and the index.
func TestMergeRuleThroughThePass(t *testing.T) {
	base := head + ev(1, "one")
	ours := base + ev(2, "ours two")
	theirs := base
	for i := 2; i <= 6; i++ {
		theirs += ev(i, "theirs "+strings.Repeat("x", i))
	}
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		revs   *Revisions
		staged string
		want   string
	}{
		{"ours staged", &Revisions{Base: "h", Head: ":0", MergeHead: "m", MergeBase: "b"}, ours,
			"MS307 the merge of m (MERGE_HEAD) would drop 5 events it added (evt-002, evt-003, evt-004 and 2 more): the staged log holds one side only; run `git checkout -m CHANGELOG.md`, then `memsys renumber --onto HEAD`, and stage the files again"},
		{"no merge in progress", &Revisions{Base: "h", Head: ":0"}, ours, ""},
		{"both staged", &Revisions{Base: "h", Head: ":0", MergeHead: "m", MergeBase: "b"}, ours + strings.NewReplacer("evt-002", "evt-003", "evt-003", "evt-004", "evt-004", "evt-005", "evt-005", "evt-006", "evt-006", "evt-007").Replace(strings.TrimPrefix(theirs, base)), ""},
	} {
		git := fakeGit{blobs: map[string]string{"h:CHANGELOG.md": ours, "b:CHANGELOG.md": base, "m:CHANGELOG.md": theirs, ":0:CHANGELOG.md": c.staged}}
		files := memFS{"CHANGELOG.md": []byte(c.staged)}
		var got []string
		for _, d := range l.Check(Input{Git: git, Revisions: c.revs, ReadFile: files.read, Exists: files.exists}) {
			if d.Rule == "MS307" {
				got = append(got, d.Rule+" "+d.Message)
			}
		}
		if g := strings.Join(got, "\n"); g != c.want {
			t.Errorf("%s: got %q, want %q", c.name, g, c.want)
		}
	}
}
