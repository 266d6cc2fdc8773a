package lint

import (
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS307",
		Name:  "merge-keeps-theirs",
		Title: "a merge in progress keeps the merged commits' events",
		Doc: "While git brings other commits into the index (a merge, cherry-pick, rebase or `git merge --squash` that stopped on a conflict " +
			"or was told not to commit: MERGE_HEAD, CHERRY_PICK_HEAD, REBASE_HEAD or SQUASH_MSG in the git folder), `memsys lint --staged`, " +
			"which the pre-commit hook runs, checks that every event they added is in the staged log or archive, compared by content with IDs blanked, " +
			"as the merge driver and `memsys renumber` renumber them: for a merge, the events each merged branch (every branch of an octopus) " +
			"added since its merge base with HEAD; for a cherry-pick or a rebase, those the commit being replayed added to its parent; for a " +
			"squash merge, those the squashed branches' tips added since their merge base. A merge driver that could not run (memsys not on the PATH git runs with) leaves " +
			"CHANGELOG.md conflicted with this branch's events only, no markers; `git checkout --ours CHANGELOG.md` does the same. Staging that file " +
			"would commit without the other side's events. Restore the conflict with `git checkout -m CHANGELOG.md`, then resolve it " +
			"with `memsys renumber --onto HEAD` (or, once the driver runs, `git checkout -m` merges the log itself), and stage the files again; " +
			"an octopus merge is aborted and its branches merged one at a time. `git rebase --continue` commits without the pre-commit hook: " +
			"run `memsys lint --staged` (or `git commit`) before it. See docs/convergence.md.",
		Bad:      "git checkout --ours CHANGELOG.md && git add CHANGELOG.md (the other branch's evt-014 and evt-015 are gone)",
		Good:     "git checkout -m CHANGELOG.md && memsys renumber --onto HEAD && git add CHANGELOG.md .memory",
		Severity: diag.Error,
		Git:      true,
		Run:      mergeKeepsTheirs,
	})
}

// mergeKeepsTheirs reads, through the Pass, each commit the operation
// in progress brings, the commit its new events are counted from, and
// the staged files, and reports, in one finding per commit, the events
// it added that the staged history lacks.
func mergeKeepsTheirs(p *Pass) {
	revs := p.Revisions()
	if revs == nil || revs.Merging == nil || len(revs.Merging.Heads) == 0 {
		return
	}
	_, staged, err := p.sides()
	if err != nil {
		p.Fail(err)
		return
	}
	m := revs.Merging
	for i, h := range m.Heads {
		theirs, err := p.readSide(h.Commit)
		if err != nil {
			p.Fail(err)
			return
		}
		var base side
		if h.Base != "" {
			if base, err = p.readSide(h.Base); err != nil {
				p.Fail(err)
				return
			}
		}
		missing := Unmerged(base.events(), theirs.events(), staged.events())
		if len(missing) == 0 {
			continue
		}
		r := diag.Range{File: parse.LogFile, Line: 1, Col: 1}
		if staged.Log != nil {
			r.File = staged.Log.File
		}
		p.Report(diag.Diagnostic{Range: r, Message: droppedMessage(m, i, missing), Detail: droppedDetail(m, i, missing)})
	}
}

// droppedMessage is MS307's one line for the events the i-th head of m
// added that the staged log lacks: the operation, the commit, how many
// and the first, and the recovery that works for that operation (each
// verified with real git in testscripts/lint-staged-*-drops.txtar).
func droppedMessage(m *Merging, i int, missing []parse.Event) string {
	var first []string
	for _, e := range missing[:min(3, len(missing))] {
		first = append(first, e.ID)
	}
	list := strings.Join(first, ", ")
	if len(missing) > len(first) {
		list += fmt.Sprintf(" and %d more", len(missing)-len(first))
	}
	what := fmt.Sprintf("the %s of %.12s (%s)", m.Op, m.Heads[i].Commit, m.Op.Ref())
	recovery := fmt.Sprintf("the staged log holds one side only; run `git checkout -m %s`, then `memsys renumber --onto HEAD`, and stage the files again", parse.LogFile)
	switch {
	case m.Op == OpMerge && len(m.Heads) > 1:
		// renumber resolves two sides; the octopus stopped on its last
		// branch with the others already merged into ours.
		what = fmt.Sprintf("the octopus merge of %.12s (MERGE_HEAD, branch %d of %d)", m.Heads[i].Commit, i+1, len(m.Heads))
		recovery = "the staged log lacks them; run `git merge --abort`, then merge the branches one at a time, which the merge driver merges"
	case m.Op == OpSquash:
		// renumber reads the other side from MERGE_HEAD, which a squash
		// merge does not write; the driver merges it again.
		// git restore and merge --abort leave SQUASH_MSG behind: a squash
		// given up still reads as one in progress, and this finding
		// would stop every commit until the file goes.
		recovery = fmt.Sprintf("the staged log holds one side only; run `git checkout -m %s` with the merge driver installed (memsys merge-driver install), which merges the log, then `memsys regen`, and stage the files again (a squash you gave up left SQUASH_MSG behind: delete the file `git rev-parse --git-path SQUASH_MSG` names)", parse.LogFile)
	}
	return fmt.Sprintf("%s would drop %s it added (%s): %s", what, words.Plural(len(missing), "event"), list, recovery)
}

// droppedDetail names the commits in full and every missing event's
// heading.
func droppedDetail(m *Merging, i int, missing []parse.Event) string {
	var all strings.Builder
	for _, e := range missing {
		heading, _, _ := strings.Cut(e.Text, "\n")
		all.WriteString(words.Clip(heading) + "\n")
	}
	from := "merge base"
	if m.Op == OpCherryPick || m.Op == OpRebase {
		from = "parent"
	}
	h := m.Heads[i]
	return fmt.Sprintf("%s is commit %s; %s %s. Events it added that the staged log and archive lack:\n%s", m.Op.Ref(), h.Commit, from, orNone(h.Base), all.String())
}

func orNone(s string) string {
	if s == "" {
		return "(none in this clone)"
	}
	return s
}

// Unmerged lists, in theirs' order, the events theirs added since base
// that staged lacks. Events are compared as the merge driver matches
// them: by their text with every event ID blanked, so a copy the merge
// renumbered, its refs rewritten, counts as kept. Each event of staged
// stands for one event of theirs at most. An event of theirs that
// reads like one of base, or has a base event's number (an edit: the
// append-only rules' concern), is not new. The events theirs shares
// with base from the start, byte for byte, are paired without blanking
// (a branch's log is its base's plus new events at the end).
func Unmerged(base, theirs, staged []parse.Event) []parse.Event {
	n := 0
	for n < len(base) && n < len(theirs) && base[n].Text == theirs[n].Text {
		n++
	}
	nums := make(map[int]bool, len(base))
	for _, e := range base {
		nums[e.Num] = true
	}
	old := blankCounts(base[n:])
	var added []parse.Event
	for _, e := range theirs[n:] {
		if k := blankIDs(e.Text); old[k] > 0 {
			old[k]--
			continue
		}
		if e.Num > 0 && nums[e.Num] {
			continue
		}
		added = append(added, e)
	}
	if len(added) == 0 {
		return nil
	}
	have := blankCounts(staged)
	var out []parse.Event
	for _, e := range added {
		if k := blankIDs(e.Text); have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// blankCounts counts the events of evs by their text with IDs blanked.
func blankCounts(evs []parse.Event) map[string]int {
	m := make(map[string]int, len(evs))
	for _, e := range evs {
		m[blankIDs(e.Text)]++
	}
	return m
}
