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
		Title: "a merge in progress keeps the merged branch's events",
		Doc: "While a merge is in progress (git keeps MERGE_HEAD until it is committed), `memsys lint --staged`, which the pre-commit hook runs, " +
			"checks that every event the merged branch added since the merge base is in the staged log or archive, compared by content with IDs blanked, " +
			"as the merge driver and `memsys renumber` renumber them. A merge driver that could not run (memsys not on the PATH git runs with) leaves " +
			"CHANGELOG.md conflicted with this branch's events only, no markers; `git checkout --ours CHANGELOG.md` does the same. Staging that file " +
			"would commit the merge without the other branch's events. Restore the conflict with `git checkout -m CHANGELOG.md`, then resolve it " +
			"with `memsys renumber --onto HEAD` (or, once the driver runs, `git checkout -m` merges the log itself), and stage the files again. " +
			"See docs/convergence.md.",
		Bad:      "git checkout --ours CHANGELOG.md && git add CHANGELOG.md (the other branch's evt-014 and evt-015 are gone)",
		Good:     "git checkout -m CHANGELOG.md && memsys renumber --onto HEAD && git add CHANGELOG.md .memory",
		Severity: diag.Error,
		Git:      true,
		Run:      mergeKeepsTheirs,
	})
}

// mergeKeepsTheirs reads the merge base, MERGE_HEAD and the staged
// files through the Pass and reports, in one finding, the events
// MERGE_HEAD added that the staged history lacks.
func mergeKeepsTheirs(p *Pass) {
	revs := p.Revisions()
	if revs == nil || revs.MergeHead == "" {
		return
	}
	_, staged, err := p.sides()
	if err != nil {
		p.Fail(err)
		return
	}
	theirs, err := p.readSide(revs.MergeHead)
	if err != nil {
		p.Fail(err)
		return
	}
	var base side
	if revs.MergeBase != "" {
		if base, err = p.readSide(revs.MergeBase); err != nil {
			p.Fail(err)
			return
		}
	}
	missing := Unmerged(base.events(), theirs.events(), staged.events())
	if len(missing) == 0 {
		return
	}
	short := fmt.Sprintf("%.12s", revs.MergeHead)
	var first []string
	var all strings.Builder
	for i, e := range missing {
		if i < 3 {
			first = append(first, e.ID)
		}
		heading, _, _ := strings.Cut(e.Text, "\n")
		all.WriteString(words.Clip(heading) + "\n")
	}
	list := strings.Join(first, ", ")
	if len(missing) > len(first) {
		list += fmt.Sprintf(" and %d more", len(missing)-len(first))
	}
	r := diag.Range{File: parse.LogFile, Line: 1, Col: 1}
	if staged.Log != nil {
		r.File = staged.Log.File
	}
	p.Report(diag.Diagnostic{Range: r,
		Message: fmt.Sprintf("the merge of %s (MERGE_HEAD) would drop %s it added (%s): the staged log holds one side only; run `git checkout -m %s`, then `memsys renumber --onto HEAD`, and stage the files again",
			short, words.Plural(len(missing), "event"), list, parse.LogFile),
		Detail: fmt.Sprintf("MERGE_HEAD is commit %s; merge base %s. Events it added that the staged log and archive lack:\n%s", revs.MergeHead, orNone(revs.MergeBase), all.String())})
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
