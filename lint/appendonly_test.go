package lint

import (
	"strconv"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

const head = "# Changelog\n\n## Event Log\n\n"

func ev(n int, summary string) string {
	return "### " + parse.FormatID(n, 3) + " | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: " + summary + "\n\n---\n\n"
}

func sideOf(log string, archive string) side {
	s := side{Log: parse.Parse("CHANGELOG.md", []byte(log))}
	if archive != "" {
		s.Archive = parse.Parse("changelog-archive.md", []byte(archive), parse.Archive())
	}
	return s
}

func TestCompare(t *testing.T) {
	base := sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), "")
	cases := []struct {
		name   string
		head   side
		want   []string // "RULE line event"
		inDiff string
	}{
		{"appended", sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three")+ev(4, "four"), ""), nil, ""},
		{"crlf only", sideOf(strings.ReplaceAll(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), "\n", "\r\n"), ""), nil, ""},
		{"separator dropped", sideOf(head+strings.ReplaceAll(ev(1, "one")+ev(2, "two")+ev(3, "three"), "---\n\n", ""), ""), nil, ""},
		{"edited", sideOf(head+ev(1, "one")+ev(2, "TWO")+ev(3, "three"), ""), []string{"MS301 15 evt-002"}, "-**Summary**: two"},
		{"deleted", sideOf(head+ev(1, "one")+ev(3, "three"), ""), []string{"MS302 12 evt-002"}, "-**Summary**: two"},
		{"reordered", sideOf(head+ev(1, "one")+ev(3, "three")+ev(2, "two"), ""), []string{"MS303 19 evt-002"}, ""},
		{"first moved to the end", sideOf(head+ev(2, "two")+ev(3, "three")+ev(1, "one"), ""), []string{"MS303 19 evt-001"}, ""},
		{"inserted", sideOf(head+ev(1, "one")+ev(4, "four")+ev(2, "two")+ev(3, "three"), ""), []string{"MS304 12 evt-004"}, ""},
		{"renumbered", sideOf(head+ev(1, "one")+ev(2, "two")+ev(7, "three"), ""), []string{"MS305 19 evt-007"}, ""},
		{"gap", sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three")+ev(5, "five"), ""), []string{"MS305 26 evt-005"}, ""},
		{"moved to archive", sideOf(head+ev(3, "three")+ev(4, "four"),
			"# Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-01-01\n\n"+ev(1, "one")+ev(2, "two")), nil, ""},
		{"moved and edited", sideOf(head+ev(3, "three"),
			"# Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-01-01\n\n"+ev(1, "one")+ev(2, "2")), []string{"MS301 15 evt-002"}, "+**Summary**: 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := compare(base, c.head, "main (abc1234)")
			var got []string
			for _, d := range ds {
				got = append(got, d.Rule+" "+strconv.Itoa(d.Range.Line)+" "+d.Event)
				if !strings.Contains(d.Message, "main (abc1234)") {
					t.Errorf("message does not name the base: %s", d.Message)
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("got %q, want %q\n%v", got, c.want, ds)
			}
			if c.inDiff != "" && !strings.Contains(ds[0].Detail, c.inDiff) {
				t.Errorf("diff lacks %q:\n%s", c.inDiff, ds[0].Detail)
			}
		})
	}
	if ds := compare(side{}, base, "x"); len(ds) != 0 {
		t.Errorf("a new log is fine: %v", ds)
	}
}

// TestCompareDuplicateIDs: a hand-kept log with two committed evt-002
// (MS107) compares copy with copy, by occurrence, so an untouched log is
// not "changed" and "moved"; an edit to either copy is still MS301.
func TestCompareDuplicateIDs(t *testing.T) {
	base := sideOf(head+ev(1, "one")+ev(2, "two")+ev(2, "second two")+ev(3, "three"), "")
	cases := []struct {
		name string
		head side
		want []string
	}{
		{"unchanged", base, nil},
		{"appended", sideOf(head+ev(1, "one")+ev(2, "two")+ev(2, "second two")+ev(3, "three")+ev(4, "four"), ""), nil},
		{"second copy edited", sideOf(head+ev(1, "one")+ev(2, "two")+ev(2, "2nd two")+ev(3, "three"), ""), []string{"MS301 22 evt-002"}},
		{"second copy deleted", sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), ""), []string{"MS302 19 evt-002"}},
		{"moved to archive", sideOf(head+ev(2, "second two")+ev(3, "three"),
			"# Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-01-01\n\n"+ev(1, "one")+ev(2, "two")), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range compare(base, c.head, "main (abc1234)") {
				got = append(got, d.Rule+" "+strconv.Itoa(d.Range.Line)+" "+d.Event)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestCompareMerge(t *testing.T) {
	main := sideOf(head+ev(1, "one")+ev(2, "main two"), "")
	feature := sideOf(head+ev(1, "one")+ev(2, "feature two")+ev(3, "feature three, after evt-002"), "")
	cases := []struct {
		name  string
		merge side
		want  string // rules found against main, then against feature
	}{
		{"feature renumbered after main, its mention of evt-002 with it", sideOf(head+ev(1, "one")+ev(2, "main two")+ev(3, "feature two")+ev(4, "feature three, after evt-003"), ""), ""},
		{"main's event rewritten", sideOf(head+ev(1, "one")+ev(2, "feature two")+ev(3, "main 2")+ev(4, "feature three, after evt-002"), ""), "MS301"},
		{"a mention rewritten without a renumbering", sideOf(head+ev(1, "one")+ev(2, "feature two")+ev(3, "feature three, after evt-001"), ""), "MS301|MS301"},
		{"feature's event dropped", sideOf(head+ev(1, "one")+ev(2, "main two")+ev(3, "feature three, after evt-002"), ""), "|MS301"},
		{"an event dropped with its ID", sideOf(head+ev(2, "main two")+ev(3, "feature three, after evt-002"), ""), "MS302|MS302,MS301"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, p := range []side{main, feature} {
				var rules []string
				for _, d := range compareMerge(p, c.merge, "p", true, nil) {
					rules = append(rules, d.Rule)
				}
				got = append(got, strings.Join(rules, ","))
			}
			if g := strings.TrimRight(strings.Join(got, "|"), "|"); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

// TestLargeCut compares a 20,000-event log with the same log cut in
// half: every missing event is reported once. Finding where each lost
// event was is one backward pass; a search per lost event made this
// quadratic.
func TestLargeCut(t *testing.T) {
	var b strings.Builder
	b.WriteString(head)
	for i := 1; i <= 20000; i++ {
		b.WriteString(strings.Replace(ev(1, "event "+strconv.Itoa(i)), "evt-001", parse.FormatID(i, 5), 1))
	}
	full := b.String()
	cut := full[:strings.Index(full, "### evt-10001 ")]
	ds := compare(sideOf(full, ""), sideOf(cut, ""), "base")
	if len(ds) != 10000 {
		t.Fatalf("%d findings, want 10000", len(ds))
	}
}

func TestLongestIncreasing(t *testing.T) {
	cases := []struct {
		in   []int
		want string // kept positions
	}{
		{nil, ""},
		{[]int{0, 1, 2}, "xxx"},
		{[]int{4, 0, 1, 2, 3}, ".xxxx"},
		{[]int{0, 2, 1}, "x.x"},
		{[]int{3, 2, 1, 0}, "...x"},
	}
	for _, c := range cases {
		got := ""
		for _, in := range longestIncreasing(c.in) {
			if in {
				got += "x"
			} else {
				got += "."
			}
		}
		if got != c.want {
			t.Errorf("longestIncreasing(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestCompareCommitted: the audit's comparison leaves out the
// numbering of new events (a gap) but still reports a committed event
// given a new ID, whose new ID the base does not hold either.
func TestCompareCommitted(t *testing.T) {
	base := sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), "")
	for _, c := range []struct {
		name string
		head side
		want string
	}{
		{"renumbered", sideOf(head+ev(1, "one")+ev(2, "two")+ev(7, "three"), ""), "MS305 evt-007"},
		{"gap", sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three")+ev(5, "five"), ""), ""},
		{"renumbered, then a gap", sideOf(head+ev(1, "one")+ev(2, "two")+ev(4, "three")+ev(9, "nine"), ""), "MS305 evt-004"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, d := range compareCommitted(base, c.head, "abc1234") {
				got = append(got, d.Rule+" "+d.Event)
			}
			if g := strings.Join(got, ","); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

// TestEditedLines checks that MS301 points at the lines an edit
// changed, with offsets that select those lines in the file as written
// (CRLF included), so a pull request shows the annotation on its diff.
func TestEditedLines(t *testing.T) {
	body := "### evt-002 | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: two\n\n**Details**:\n- a\n- b\n"
	cases := []struct {
		name      string
		was, now  string
		crlf      bool
		line, end int    // want, 1-based in the file (the event starts at line 5)
		text      string // what [Offset, EndOffset) selects in the file
	}{
		{"one line", body, strings.Replace(body, "two", "TWO", 1), false, 8, 8, "**Summary**: TWO\n"},
		{"two apart", body, strings.NewReplacer("two", "TWO", "- a", "- A").Replace(body), false, 8, 11, "**Summary**: TWO\n\n**Details**:\n- A\n"},
		{"heading", body, strings.Replace(body, "10:00", "11:00", 1), false, 5, 5, "### evt-002 | 2026-01-01 11:00 | a | create\n"},
		{"last line", body, strings.Replace(body, "- b", "- B", 1), false, 12, 12, "- B\n"},
		{"line added at the end", body, body + "- c\n", false, 13, 13, "- c\n"},
		{"line removed at the end", body, strings.TrimSuffix(body, "- b\n"), false, 11, 11, "- a\n"},
		{"line removed inside", body, strings.Replace(body, "- a\n", "", 1), false, 11, 11, "- b\n"},
		{"crlf", body, strings.Replace(body, "two", "TWO", 1), true, 8, 8, "**Summary**: TWO\r\n"},
		{"crlf two apart", body, strings.NewReplacer("two", "TWO", "- a", "- A").Replace(body), true, 8, 11, "**Summary**: TWO\r\n\r\n**Details**:\r\n- A\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.now
			if c.crlf {
				src = strings.ReplaceAll(src, "\n", "\r\n")
			}
			log := parse.Parse("CHANGELOG.md", []byte(src))
			if len(log.Events) != 1 {
				t.Fatalf("parsed %d events", len(log.Events))
			}
			r := editedLines(log.Events[0], c.was)
			if r.Line != c.line || r.EndLine != c.end {
				t.Errorf("lines %d-%d, want %d-%d", r.Line, r.EndLine, c.line, c.end)
			}
			if got := src[r.Offset:r.EndOffset]; got != c.text {
				t.Errorf("offsets select %q, want %q", got, c.text)
			}
			if r.Col != 1 {
				t.Errorf("column %d, want 1", r.Col)
			}
		})
	}
	t.Run("mixed line endings keep the whole event", func(t *testing.T) {
		now := strings.Replace(strings.Replace(body, "two", "TWO", 1), "- a\n", "- a\r\n", 1)
		log := parse.Parse("CHANGELOG.md", []byte(head+now))
		e := log.Events[0]
		if r := editedLines(e, body); r != e.Range {
			t.Errorf("got %+v, want the event's range %+v", r, e.Range)
		}
	})
}

// TestUnchangedReusedID: the findings lint --base and --staged mark as
// on events the base already has are keyed by ID, so a new event that
// reuses a committed ID (git's line merge of a replayed commit) must
// not be taken for the committed one: its MS107 would turn into a note
// and the duplicate pass.
func TestUnchangedReusedID(t *testing.T) {
	base := sideOf(head+ev(1, "one")+ev(2, "two"), "")
	has := unchanged(base, sideOf(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), ""), nil)
	if !has("evt-001") || !has("evt-002") || has("evt-003") {
		t.Errorf("appended: evt-001 %v, evt-002 %v, evt-003 %v", has("evt-001"), has("evt-002"), has("evt-003"))
	}
	has = unchanged(base, sideOf(head+ev(1, "one")+ev(2, "two")+ev(2, "three"), ""), nil)
	if !has("evt-001") || has("evt-002") {
		t.Errorf("evt-002 reused by a new event: evt-001 %v, evt-002 %v; want true, false", has("evt-001"), has("evt-002"))
	}
}

// TestCompareUnterminatedLastLine: a committed log whose last line has
// no line ending (an editor dropped the final newline) is not edited by
// the append or archive move that ends that line: lint --staged, lint
// --base and audit reported MS301 on the last committed event
// ("-**Tags**: t / \ No newline at end of file / +**Tags**: t"), so the
// pre-commit hook refused the commit of a plain memsys append. A real
// edit of that event is still MS301.
func TestCompareUnterminatedLastLine(t *testing.T) {
	open := strings.TrimSuffix(head+ev(1, "one")+ev(2, "two"), "\n\n---\n\n")
	for _, nl := range []string{"\n", "\r\n"} {
		crlf := func(s string) string { return strings.ReplaceAll(s, "\n", nl) }
		base := sideOf(crlf(open), "")
		appended := sideOf(crlf(open+"\n\n---\n\n"+ev(3, "three")), "")
		archived := sideOf(crlf(head+"<!-- memsys: evt-001 archived to changelog-archive.md -->\n\n"+ev(2, "two")+ev(3, "three")),
			crlf("# Archive\n\n## Archive: evt-001 | Archived 2026-01-01\n\n"+ev(1, "one")))
		edited := sideOf(crlf(strings.Replace(open, "two", "TWO", 1)+"\n\n---\n\n"+ev(3, "three")), "")
		for _, c := range []struct {
			name string
			head side
			want string
		}{
			{"appended", appended, ""},
			{"archived", archived, ""},
			{"edited", edited, "MS301 evt-002"},
		} {
			var got []string
			for _, d := range compare(base, c.head, "HEAD (abc1234)") {
				got = append(got, d.Rule+" "+d.Event)
			}
			if g := strings.Join(got, ","); g != c.want {
				t.Errorf("%q %s: got %q, want %q", nl, c.name, g, c.want)
			}
			var merged []string
			for _, d := range compareMerge(base, c.head, "p", true, nil) {
				merged = append(merged, d.Rule+" "+d.Event)
			}
			if g := strings.Join(merged, ","); g != c.want {
				t.Errorf("%q %s as a merge: got %q, want %q", nl, c.name, g, c.want)
			}
		}
	}
}
