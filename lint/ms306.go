package lint

import (
	"fmt"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS306",
		Name:  "event-id-collision",
		Title: "new events do not reuse IDs the base added meanwhile",
		Doc: "Two branches that append concurrently give their new events the same IDs. With `--base REV`, when REV has moved on since this branch forked (REV is not an ancestor of the branch), memsys compares the events each side added since the merge base: every event of the branch whose ID REV also added, with other content, is a finding, and the append-only checks (MS301-MS305) compare with the merge base instead of REV. " +
			"Fix it with `memsys renumber --onto REV`, which moves the branch's events after REV's, rewriting refs; or merge REV with the merge driver installed (`memsys merge-driver install`), which does the same. See docs/convergence.md.",
		Bad:      "main added evt-015 (a fix); this branch added its own evt-015 (a decision)",
		Good:     "this branch's decision is evt-016, after main's evt-015 (memsys renumber --onto origin/main)",
		Severity: diag.Error,
		Git:      true,
		Run:      collisionRule,
	})
}

// collisionRule reads the merge base, REV and the head through the
// Pass and reports each event of the head whose ID REV also added.
func collisionRule(p *Pass) {
	revs := p.Revisions()
	if revs == nil || revs.Onto == "" {
		return
	}
	var sides [3]side
	for i, rev := range []string{revs.Base, revs.Onto, revs.Head} {
		s, err := p.readSide(rev)
		if err != nil {
			p.Fail(err)
			return
		}
		sides[i] = s
	}
	for _, c := range Collide(sides[0].events(), sides[1].events(), sides[2].events()) {
		d := diag.Diagnostic{Range: c.B.Range, Event: c.B.ID,
			Message: fmt.Sprintf("%s is also %s on %s with other content: run `memsys renumber --onto %s`", c.B.ID, c.A.ID, revs.OntoName, revs.OntoName),
			Detail:  udiff.Unified(c.A.ID+" on "+revs.OntoName, c.B.ID+" here", []byte(c.A.Text), []byte(c.B.Text))}
		if revs.NoteBase {
			d.Detail = fmt.Sprintf("%s is commit %s\n%s", revs.OntoName, revs.Onto, d.Detail)
		}
		p.Report(d)
	}
}

// Collision is one ID two histories both added since their common
// ancestor, with other content.
type Collision struct {
	ID   string
	A, B *parse.Event // the event in each history
}

// Collide lists, in b's order, the events a and b both added after base
// under the same number with different text: merged by hand they would
// give one ID to two events. The same event added on both sides (a
// cherry-pick) is no collision. memsys collisions uses it for every
// pair of branches.
func Collide(base, a, b []parse.Event) []Collision {
	old := make(map[int]bool, len(base))
	for _, e := range base {
		old[e.Num] = true
	}
	added := map[int]*parse.Event{}
	for i := range a {
		if e := &a[i]; e.Num > 0 && !old[e.Num] {
			if _, dup := added[e.Num]; !dup {
				added[e.Num] = e
			}
		}
	}
	var out []Collision
	seen := map[int]bool{}
	for i := range b {
		e := &b[i]
		if e.Num == 0 || old[e.Num] || seen[e.Num] {
			continue
		}
		seen[e.Num] = true
		if x, ok := added[e.Num]; ok && x.Text != e.Text {
			out = append(out, Collision{ID: e.ID, A: x, B: e})
		}
	}
	return out
}

// History returns the events of an archive and a log (either may be
// nil) in history order.
func History(archive, log *parse.Log) []parse.Event {
	return side{Archive: archive, Log: log}.events()
}
