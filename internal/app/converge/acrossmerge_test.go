package converge

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/lint"
)

// mergedGit is a repository for lint --base across one merge: the
// branch's tip before it ("before") and the merge ("m1"), which is the
// newest merge since the base (lint.Merges).
type mergedGit struct{ before, merge []byte }

func (g mergedGit) Blob(rev, path string) ([]byte, bool, error) {
	if path != "CHANGELOG.md" {
		return nil, false, nil
	}
	switch rev {
	case "before":
		return g.before, true, nil
	case "m1":
		return g.merge, true, nil
	}
	return nil, false, nil
}

func (mergedGit) Shallow() bool { return false }

func (mergedGit) LastMerge(base, head string) (string, error) { return "m1", nil }

// historyOf runs lint's history rules (MS301-MS305) on tree against
// the branch's tip before the merge.
func historyOf(t *testing.T, g mergedGit, tree []byte) []string {
	t.Helper()
	l, err := lint.New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	read := func(p string) ([]byte, error) {
		if p == "CHANGELOG.md" {
			return tree, nil
		}
		return nil, fs.ErrNotExist
	}
	exists := func(p string) bool { _, err := read(p); return !errors.Is(err, fs.ErrNotExist) }
	ds, err := l.CheckHistory(lint.Input{Git: g, Revisions: &lint.Revisions{Base: "before"}, ReadFile: read, Exists: exists})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.Rule+" "+d.Message)
	}
	return got
}

// FuzzLintBaseAcrossMerge: a branch merges the trunk through the merge
// driver (the trunk's IDs kept, the branch's new events renumbered after
// them), and lint --base against the branch's tip before the merge
// finds nothing in the merge, nor in events appended after it in
// sequence; an edit of any event after the merge is found.
func FuzzLintBaseAcrossMerge(f *testing.F) {
	f.Add(uint8(1), []byte{1}, []byte{2}, uint8(0), uint8(1))
	f.Add(uint8(0), []byte{0, 1, 2}, []byte{3, 7}, uint8(4), uint8(2))
	f.Add(uint8(3), []byte{}, []byte{5}, uint8(1), uint8(0))
	f.Add(uint8(2), []byte{6, 6}, []byte{}, uint8(3), uint8(3))
	text := gitText(f)
	f.Fuzz(func(t *testing.T, n uint8, branchSpec, trunkSpec []byte, later, edit uint8) {
		anc := fromSpec(nil, "base", make([]byte, int(n)%5))
		branch, trunk := fromSpec(anc, "b", branchSpec), fromSpec(anc, "t", trunkSpec)
		if len(branch) == 0 {
			return
		}
		got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: render(genHead, trunk), Theirs: render(genHead, branch), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		checkMerged(t, got, trunk, trunk, branch)
		g := mergedGit{before: render(genHead, branch), merge: got.Data}
		// Events appended after the merge, in sequence: the merge numbers
		// its events from 1 in file order (checkMerged), so rendering the
		// merged order with the new events after it gives their text.
		merged := mergedOrder(t, got.Data)
		all := render(genHead, fromSpec(merged, "a", make([]byte, int(later)%3)))
		tree := append(append([]byte(nil), got.Data...), all[len(render(genHead, merged)):]...)
		if h := historyOf(t, g, tree); len(h) > 0 {
			t.Fatalf("findings on a merge and appended events: %q\n%s", h, tree)
		}
		// An edit of one event's summary after the merge. lint --base
		// judges the events the branch had; the trunk's only when the
		// merge renumbered the branch's, and the range is split at it.
		k := int(edit) % len(merged)
		i := nthIndex(tree, "**Summary**: ", k)
		edited := append(append(append([]byte(nil), tree[:i]...), "**Summary**: edited "...), tree[i+len("**Summary**: "):]...)
		renumbered := false
		for _, m := range got.Renumbered {
			renumbered = renumbered || m.From != m.To
		}
		had := false
		for _, e := range branch {
			had = had || e.label == merged[k].label
		}
		h := historyOf(t, g, edited)
		switch {
		case renumbered && (len(h) == 0 || !strings.HasPrefix(h[0], "MS301 ") || !strings.Contains(h[0], "the merge (m1)")):
			t.Fatalf("an edit of event %d after a merge that renumbered: findings %q", k+1, h)
		case !renumbered && had && (len(h) == 0 || !strings.HasPrefix(h[0], "MS301 ")):
			t.Fatalf("an edit of the branch's event %d after the merge: findings %q", k+1, h)
		}
	})
}

// mergedOrder returns the events of a merged log as genEvents in file
// order, labelled by their Summary (render writes the label there), with
// their refs and prose mentions mapped back to labels.
func mergedOrder(t *testing.T, data []byte) []genEvent {
	t.Helper()
	var evs []genEvent
	label := map[string]string{} // ID -> label
	for _, block := range strings.Split(string(data), "### ")[1:] {
		id, _, _ := strings.Cut(block, " ")
		_, rest, _ := strings.Cut(block, "**Summary**: ")
		l, _, _ := strings.Cut(rest, "\n")
		label[id] = l
		e := genEvent{label: l}
		if _, r, ok := strings.Cut(block, "**Refs**: "); ok {
			r, _, _ = strings.Cut(r, "\n")
			if r != "none" {
				for _, id := range strings.Split(r, ", ") {
					e.refs = append(e.refs, label[id])
				}
			}
		}
		if _, p, ok := strings.Cut(block, "- note: follows up "); ok {
			p, _, _ = strings.Cut(p, "\n")
			e.prose = label[p]
		}
		evs = append(evs, e)
	}
	return evs
}

// nthIndex is the index of the k-th (from 0) occurrence of sep in b.
func nthIndex(b []byte, sep string, k int) int {
	off := 0
	for ; k >= 0; k-- {
		i := bytes.Index(b[off:], []byte(sep))
		if i < 0 {
			return -1
		}
		if k == 0 {
			return off + i
		}
		off += i + len(sep)
	}
	return -1
}
