package memory

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// smallTail makes logs of a few hundred bytes take the tail path.
func smallTail(t testing.TB) {
	first, most := tailFirst, tailMax
	tailFirst, tailMax = 64, 4096
	t.Cleanup(func() { tailFirst, tailMax = first, most })
}

// planBoth plans d on src through PlanAppend and through the whole-file
// path and returns both results (an error as its text).
func planBoth(t testing.TB, src, arch []byte, d Draft, countLine bool) (tail, whole string) {
	show := func(p Planned, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return fmt.Sprintf("%s line %d\n%s", p.ID, p.Line, p.Data)
	}
	var af LogFile
	if arch != nil {
		af = bytes.NewReader(arch)
	}
	d1, d2 := d, d
	tail = show(PlanAppend("CHANGELOG.md", bytes.NewReader(src), "changelog-archive.md", af, &d1, countLine))
	whole = show(planWhole("CHANGELOG.md", bytes.NewReader(src), nil, "changelog-archive.md", af, &d2, countLine))
	return tail, whole
}

// TestPlanAppendTail checks that append planned from the log's tail
// writes exactly what the whole-file plan writes and fails with the
// same message, on logs whose tails are easy and hard to cut.
func TestPlanAppendTail(t *testing.T) {
	smallTail(t)
	draft := func(refs ...string) Draft {
		return Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00", Refs: refs}
	}
	fenced := strings.Replace(event(9, "fix"), "**Refs**", "```\n### evt-999 | in code\n\n---\n```\n\n**Refs**", 1)
	arch := []byte("# Archive\n\n## Archive: evt-001 through evt-001\n\n" + event(1, "create"))
	// Newest first: the highest ID is at the top, far above the tail.
	var desc strings.Builder
	desc.WriteString(head)
	for n := 30; n >= 1; n-- {
		desc.WriteString(event(n, "create") + "\n---\n\n")
	}
	cases := []struct {
		name string
		src  string
		arch []byte
		d    Draft
	}{
		{"rule separated", string(genLog(12, "\n---\n\n")), nil, draft()},
		{"blank separated", string(genLog(12, "\n")), nil, draft()},
		{"ends with a rule", string(genLog(12, "\n---\n\n")) + "\n---\n", nil, draft()},
		{"no final newline", strings.TrimSuffix(string(genLog(12, "\n---\n\n")), "\n"), nil, draft()},
		{"ref in the tail", string(genLog(12, "\n---\n\n")), nil, draft("evt-12", "evt-011")},
		{"ref far back", string(genLog(30, "\n---\n\n")), nil, draft("evt-2")},
		{"ref in the archive", string(genLog(12, "\n---\n\n")), arch, draft("evt-1")},
		{"ref to nothing", string(genLog(12, "\n---\n\n")), nil, draft("evt-99")},
		{"bad type", string(genLog(12, "\n---\n\n")), nil, Draft{Type: "launch", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00"}},
		{"section after the log", string(genLog(12, "\n---\n\n")) + "\n## Notes\n\nfree text\n", nil, draft()},
		{"fence in the last event", string(genLog(12, "\n---\n\n")) + "\n---\n\n" + fenced, nil, draft()},
		{"comment around old events", head + "<!--\n\n" + strings.TrimPrefix(string(genLog(12, "\n---\n\n")), head) + "-->\n\n" + event(13, "fix"), nil, draft()},
		{"CRLF", strings.ReplaceAll(string(genLog(12, "\n---\n\n")), "\n", "\r\n"), nil, draft("evt-3")},
		{"four-digit IDs", strings.ReplaceAll(string(genLog(12, "\n---\n\n")), "evt-0", "evt-00"), nil, draft("evt-3")},
		{"no event log", "# Changelog\n\n" + strings.Repeat("text\n\n", 40), nil, draft()},
		{"last heading has 10 digits", string(genLog(12, "\n---\n\n")) + "\n---\n\n" + strings.Replace(event(13, "fix"), "evt-013", "evt-9999999999", 1), nil, draft()},
		{"10 digits, then an event", string(genLog(12, "\n---\n\n")) + "\n---\n\n" + strings.Replace(event(13, "fix"), "evt-013", "evt-9999999999", 1) + "\n---\n\n" + event(14, "fix"), nil, draft()},
		{"newest first", desc.String(), nil, draft()},
		// No section: every event counts, and append refuses the log
		// (it appended once the log outgrew the tail's first window).
		{"no section, events", "# Changelog\n\n" + strings.TrimPrefix(string(genLog(30, "\n---\n\n")), head), nil, draft()},
		// The section added below the events, or an event above it:
		// their IDs are taken.
		{"section below the events", "# Changelog\n\n" + strings.TrimPrefix(string(genLog(30, "\n---\n\n")), head) + "\n## Event Log\n", nil, draft()},
		{"event above the section", "# Changelog\n\n" + event(40, "fix") + "\n" + strings.TrimPrefix(string(genLog(30, "\n---\n\n")), "# Changelog\n\n"), nil, draft()},
		{"tail of bad headings only", string(genLog(12, "\n---\n\n")) + strings.Repeat("\n---\n\n"+strings.Replace(event(13, "fix"), "evt-013", "evt-01x", 1), 4), nil, draft()},
	}
	for _, c := range cases {
		for _, countLine := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/line=%v", c.name, countLine), func(t *testing.T) {
				tail, whole := planBoth(t, []byte(c.src), c.arch, c.d, countLine)
				if tail != whole {
					t.Errorf("tail plan:\n%s\nwhole-file plan:\n%s", tail, whole)
				}
			})
		}
	}
	// A heading past the largest ID after the last event stops append,
	// naming its line, on either path.
	tooLong := string(genLog(12, "\n---\n\n")) + "\n---\n\n" + strings.Replace(event(13, "fix"), "evt-013", "evt-9999999999", 1)
	if tail, _ := planBoth(t, []byte(tooLong), nil, draft(), false); !strings.Contains(tail, `error: CHANGELOG.md:`) || !strings.Contains(tail, `"evt-9999999999" has 10 digits`) {
		t.Errorf("append after a 10-digit heading: %s", tail)
	}
	// The tail path is taken where it should be: a plain log is not
	// read whole.
	tl, ok, err := ReadTail("CHANGELOG.md", bytes.NewReader(genLog(30, "\n---\n\n")))
	if err != nil || !ok || tl.Whole() {
		t.Fatalf("ReadTail on a plain log: ok=%v whole=%v err=%v", ok, tl != nil && tl.Whole(), err)
	}
	// The whole read answers the cases above as the tail must.
	for name, want := range map[string]string{
		"no section, events":       `error: CHANGELOG.md: no "## Event Log" section: add the line "## Event Log" above the first event`,
		"section below the events": "evt-031 ",
		"event above the section":  "evt-041 ",
	} {
		for _, c := range cases {
			if c.name == name {
				if tail, _ := planBoth(t, []byte(c.src), nil, draft(), false); !strings.HasPrefix(tail, want) {
					t.Errorf("%s: append plans %q, want %q", name, tail[:min(len(tail), 120)], want)
				}
			}
		}
	}
}

// FuzzPlanAppend checks PlanAppend against the whole-file plan on any
// log whose parse is clean (ascending IDs, all in the log, no problem):
// the tail may only make append faster, never change what it writes.
func FuzzPlanAppend(f *testing.F) {
	f.Add(string(genLog(12, "\n---\n\n")), "evt-3")
	f.Add(string(genLog(12, "\n")), "evt-12")
	f.Add(string(genLog(12, "\n---\n\n"))+"```\n### evt-013 | x\n```\n", "")
	f.Add(head+"<!--\n\n"+event(1, "fix")+"-->\n\n"+event(2, "fix")+"\n"+event(3, "fix"), "evt-1")
	f.Fuzz(func(t *testing.T, src, ref string) {
		smallTail(t)
		checkPlan(t, src, ref)
	})
}

// checkPlan compares the tail and whole-file plans of one append to
// src, if src is a log whose parse is clean.
func checkPlan(t *testing.T, src, ref string) {
	t.Helper()
	{
		if strings.ContainsRune(src, '\r') {
			return // a mixed-ending log may get the other ending; lint reports mixed endings
		}
		l := parse.Parse("CHANGELOG.md", []byte(src), parse.HeadersOnly())
		if len(l.Problems) > 0 {
			return
		}
		for i, e := range l.Events {
			if !e.InLog || e.Num <= 0 || i > 0 && e.Num <= l.Events[i-1].Num {
				return
			}
		}
		var refs []string
		if ref != "" {
			refs = []string{ref}
		}
		d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00", Refs: refs}
		tail, whole := planBoth(t, []byte(src), nil, d, true)
		if tail != whole {
			t.Fatalf("log %q\nref %q\ntail plan:\n%s\nwhole-file plan:\n%s", src, ref, tail, whole)
		}
	}
}

// TestPlanAppendMutations runs checkPlan over deterministic random
// edits of clean logs (bytes changed, cut, copied elsewhere), the
// fuzz target's property without the fuzzing engine.
func TestPlanAppendMutations(t *testing.T) {
	smallTail(t)
	r := rand.New(rand.NewPCG(1, 2))
	fenced := strings.Replace(event(9, "fix"), "**Refs**", "```\n### evt-999 | in code\n```\n\n<!-- a\n\n### evt-998 | x\n-->\n\n**Refs**", 1)
	bases := []string{string(genLog(12, "\n---\n\n")), string(genLog(12, "\n")), string(genLog(8, "\n---\n\n")) + "\n---\n\n" + fenced}
	refs := []string{"", "evt-3", "evt-011", "evt-9", "evt-42"}
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		b := []byte(bases[i%len(bases)])
		for range 1 + r.IntN(4) {
			p := r.IntN(len(b))
			switch r.IntN(3) {
			case 0:
				b[p] = "#`~<>-!\n x"[r.IntN(10)]
			case 1:
				b = append(b[:p], b[min(p+r.IntN(50), len(b)):]...)
			case 2:
				q := r.IntN(len(b))
				b = append(b[:p], append([]byte(string(b[q:min(q+60, len(b))])), b[p:]...)...)
			}
		}
		checkPlan(t, string(b), refs[r.IntN(len(refs))])
	}
}

// TestPlanAppendCloses: closes must name a loop. The named event's type
// comes from the tail, from its heading found far back (FindHeading)
// or in the archive, or from the whole parse, and every path gives the
// same answer.
func TestPlanAppendCloses(t *testing.T) {
	smallTail(t)
	typed := func(n int, types map[int]string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 1; i <= n; i++ {
			if i > 1 {
				b.WriteString("\n---\n\n")
			}
			typ := "create"
			if x, ok := types[i]; ok {
				typ = x
			}
			b.WriteString(event(i, typ))
		}
		return b.String()
	}
	src := typed(30, map[int]string{2: "blocker", 3: "handoff", 4: "commitment", 5: "Escalation", 28: "decision", 29: "blocker"})
	arch := []byte("# Archive\n\n## Archive: evt-001 through evt-001\n\n" + event(1, "escalation"))
	archHandoff := []byte("# Archive\n\n## Archive: evt-001 through evt-001\n\n" + event(1, "handoff"))
	notLoop := func(id, noun string) string {
		return "error: closes \"" + id + "\" names " + noun + ", which opens no loop: close a blocker, escalation or commitment, or list " + id + " in refs instead"
	}
	cases := []struct {
		name, closes string
		arch         []byte
		want         string // "" when the append is planned
	}{
		{"loop in the tail", "evt-029", nil, ""},
		{"decision in the tail", "evt-028", nil, notLoop("evt-028", "a decision")},
		{"blocker far back", "evt-2", nil, ""},
		{"escalation far back, heading in capitals", "evt-005", nil, ""},
		{"commitment and blocker", "evt-004, evt-002", nil, ""},
		{"handoff far back", "evt-003", nil, notLoop("evt-003", "a handoff")},
		{"second ID not a loop", "evt-002, evt-010", nil, notLoop("evt-010", "a create")},
		{"loop in the archive", "evt-1", arch, ""},
		{"handoff in the archive", "evt-1", archHandoff, notLoop("evt-1", "a handoff")},
		{"CRLF: blocker far back", "crlf evt-002", nil, ""},
		{"CRLF: handoff far back", "crlf evt-003", nil, notLoop("evt-003", "a handoff")},
	}
	// The far-back cases are answered by FindHeading from the heading
	// line alone, not by the whole-file fallback.
	for _, l := range []string{src, strings.ReplaceAll(src, "\n", "\r\n")} {
		for num, want := range map[int]string{3: "handoff", 5: "escalation"} {
			if id, typ, ok, err := FindHeading(strings.NewReader(l), int64(len(l)), num); !ok || err != nil || typ != want || id != parse.FormatID(num, 3) {
				t.Errorf("FindHeading(%d) = %q, %q, %v, %v; want type %q", num, id, typ, ok, err, want)
			}
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// The log's own evt-001 is left out, so evt-1 is the archive's.
			log := strings.Replace(src, event(1, "create")+"\n---\n\n", "", 1)
			closes := c.closes
			if rest, ok := strings.CutPrefix(closes, "crlf "); ok {
				log, closes = strings.ReplaceAll(log, "\n", "\r\n"), rest
			}
			d := Draft{Type: "milestone", Scope: "s", Summary: "x", Agent: "a", Time: "2026-03-01 10:00", Details: []DraftDetail{{Key: "closes", Value: closes}}}
			tail, whole := planBoth(t, []byte(log), c.arch, d, false)
			if tail != whole {
				t.Fatalf("tail plan:\n%s\nwhole-file plan:\n%s", tail, whole)
			}
			if c.want == "" && strings.HasPrefix(tail, "error: ") || c.want != "" && tail != c.want {
				t.Errorf("got %s\nwant %s", tail, c.want)
			}
		})
	}
}
