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
// the commits each operation brings, the commits their new events are
// counted from, and the index.
func TestMergeRuleThroughThePass(t *testing.T) {
	base := head + ev(1, "one")
	ours := base + ev(2, "ours two")
	theirs := base
	for i := 2; i <= 6; i++ {
		theirs += ev(i, "theirs "+strings.Repeat("x", i))
	}
	// the second branch of an octopus, and a commit replayed onto ours
	// whose parent p holds theirs' first two new events
	other := base + ev(2, "other two")
	parent := base + ev(2, "theirs xx") + ev(3, "theirs xxx")
	bothStaged := ours + strings.NewReplacer("evt-002", "evt-003", "evt-003", "evt-004", "evt-004", "evt-005", "evt-005", "evt-006", "evt-006", "evt-007").Replace(strings.TrimPrefix(theirs, base))
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	merging := func(op Op, heads ...Merged) *Revisions {
		return &Revisions{Base: "h", Head: ":0", Merging: &Merging{Op: op, Heads: heads}}
	}
	const recovery = "the staged log holds one side only; run `git checkout -m CHANGELOG.md`, then `memsys renumber --onto HEAD`, and stage the files again"
	for _, c := range []struct {
		name   string
		revs   *Revisions
		staged string
		want   string
	}{
		{"ours staged", merging(OpMerge, Merged{"m", "b"}), ours,
			"MS307 the merge of m (MERGE_HEAD) would drop 5 events it added (evt-002, evt-003, evt-004 and 2 more): " + recovery},
		{"no merge in progress", &Revisions{Base: "h", Head: ":0"}, ours, ""},
		{"both staged", merging(OpMerge, Merged{"m", "b"}), bothStaged, ""},
		{"no merge base: every event of theirs", merging(OpMerge, Merged{"m", ""}), ours,
			"MS307 the merge of m (MERGE_HEAD) would drop 5 events it added (evt-002, evt-003, evt-004 and 2 more): " + recovery},
		{"octopus: the second branch dropped", merging(OpMerge, Merged{"m", "b"}, Merged{"o", "b"}), bothStaged,
			"MS307 the octopus merge of o (MERGE_HEAD, branch 2 of 2) would drop 1 event it added (evt-002): the staged log lacks them; run `git merge --abort`, then merge the branches one at a time, which the merge driver merges"},
		{"octopus: both dropped, one finding each", merging(OpMerge, Merged{"m", "b"}, Merged{"o", "b"}), base,
			"MS307 the octopus merge of m (MERGE_HEAD, branch 1 of 2) would drop 5 events it added (evt-002, evt-003, evt-004 and 2 more): the staged log lacks them; run `git merge --abort`, then merge the branches one at a time, which the merge driver merges\n" +
				"MS307 the octopus merge of o (MERGE_HEAD, branch 2 of 2) would drop 1 event it added (evt-002): the staged log lacks them; run `git merge --abort`, then merge the branches one at a time, which the merge driver merges"},
		{"octopus: both kept", merging(OpMerge, Merged{"m", "b"}, Merged{"o", "b"}), bothStaged + strings.ReplaceAll(strings.TrimPrefix(other, base), "evt-002", "evt-008"), ""},
		{"cherry-pick: only what the commit added to its parent", merging(OpCherryPick, Merged{"m", "p"}), ours,
			"MS307 the cherry-pick of m (CHERRY_PICK_HEAD) would drop 3 events it added (evt-004, evt-005, evt-006): " + recovery},
		{"cherry-pick kept", merging(OpCherryPick, Merged{"m", "p"}), ours + strings.NewReplacer("evt-004", "evt-003", "evt-005", "evt-004", "evt-006", "evt-005").Replace(strings.TrimPrefix(theirs, parent)), ""},
		{"rebase", merging(OpRebase, Merged{"m", "p"}), ours,
			"MS307 the rebase of m (REBASE_HEAD) would drop 3 events it added (evt-004, evt-005, evt-006): " + recovery},
		{"squash merge", merging(OpSquash, Merged{"m", "b"}), ours,
			"MS307 the squash merge of m (SQUASH_MSG) would drop 5 events it added (evt-002, evt-003, evt-004 and 2 more): the staged log holds one side only; run `git checkout -m CHANGELOG.md` with the merge driver installed (memsys merge-driver install), which merges the log, then `memsys regen`, and stage the files again (a squash you gave up left SQUASH_MSG behind: delete the file `git rev-parse --git-path SQUASH_MSG` names)"},
	} {
		git := fakeGit{blobs: map[string]string{"h:CHANGELOG.md": ours, "b:CHANGELOG.md": base, "m:CHANGELOG.md": theirs,
			"o:CHANGELOG.md": other, "p:CHANGELOG.md": parent, ":0:CHANGELOG.md": c.staged}}
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

func TestOpNames(t *testing.T) {
	for op, want := range map[Op]string{OpMerge: "merge MERGE_HEAD", OpCherryPick: "cherry-pick CHERRY_PICK_HEAD", OpRebase: "rebase REBASE_HEAD", OpSquash: "squash merge SQUASH_MSG"} {
		if got := op.String() + " " + op.Ref(); got != want {
			t.Errorf("Op %d: %q, want %q", op, got, want)
		}
	}
}
