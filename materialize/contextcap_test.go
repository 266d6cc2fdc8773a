package materialize

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestSectionsBuildOnlyKeptItems checks that the section builders,
// which build only the items their cap keeps and count the rest,
// give exactly the sections that building every item and then cutting
// to the cap gives: each builder runs once with the caps as shipped
// and once with caps so large that nothing is skipped, whose result
// is then cut (Section.cap). The logs are long enough for every
// section to pass its cap, with P0 decisions and loops among them,
// and small caps push the P0 items past the cap.
func TestSectionsBuildOnlyKeptItems(t *testing.T) {
	saved := sectionCaps
	t.Cleanup(func() { sectionCaps = saved })
	for _, n := range []int{50, 2000, 20000} {
		for _, gen := range []func(int, int64) []byte{loggen.Generate, loggen.GenerateSemantic, p0Loops} {
			src := gen(n, 3)
			x := NewReplayer(DefaultOptions())
			parse.Stream("CHANGELOG.md", src, func(e *parse.Event) { x.Apply(e) })
			g := x.r.graph()
			for _, scale := range []int{1, 0} { // 0: every cap is 1
				caps := map[string]int{}
				for k, v := range saved {
					caps[k] = max(1, v*scale)
				}
				all := map[string]int{}
				for k := range saved {
					all[k] = 1 << 30
				}
				build := func(caps map[string]int) []*Section {
					sectionCaps = caps
					b := &ctxBuilder{d: x.d, g: g, h: g.HorizonTime()}
					b.openBlocks()
					// Not recent: the digest chose its candidates under
					// the caps of the replay.
					return []*Section{b.mission(), b.sprint(), b.constraints(), b.openLoops(), b.conflicts(), b.blockers(), b.dependencies(), b.next()}
				}
				got, want := build(caps), build(all)
				sectionCaps = caps
				for i := range got {
					got[i].cap()
					want[i].cap()
					if !sectionEqual(got[i], want[i]) {
						t.Errorf("n=%d scale=%d %s: built %d items (+%d more), cutting all gives %d (+%d more)",
							n, scale, got[i].Title, len(got[i].Items), got[i].More, len(want[i].Items), want[i].More)
					}
				}
			}
		}
	}
}

// p0Loops is a log of n/10 commitments, open loops, every seventh one
// P0: P0 loops past the cap, which the cap keeps.
func p0Loops(n int, _ int64) []byte {
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Event Log\n")
	for i := 1; i <= n/10; i++ {
		p := "P2"
		if i%7 == 0 {
			p = "P0"
		}
		fmt.Fprintf(&b, "\n### evt-%03d | 2026-01-01 09:00 | a | commitment\n\n**Scope**: s%d\n**Summary**: promise %d\n\n**Details**:\n- owner: a\n- priority: %s\n\n---\n", i, i, i, p)
	}
	return []byte(b.String())
}

func sectionEqual(a, b *Section) bool {
	pa, pb := make([]string, len(a.Items)), make([]string, len(b.Items))
	for i := range a.Items {
		pa[i] = fmt.Sprint(a.prio(i))
	}
	for i := range b.Items {
		pb[i] = fmt.Sprint(b.prio(i))
	}
	return a.Title == b.Title && a.More == b.More && slices.Equal(a.Items, b.Items) && slices.Equal(pa, pb)
}
