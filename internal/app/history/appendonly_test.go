package history

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

const head = "# Changelog\n\n## Event Log\n\n"

func ev(n int, summary string) string {
	return "### evt-" + pad(n) + " | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: " + summary + "\n\n---\n\n"
}

func pad(n int) string {
	s := "00" + string(rune('0'+n%10))
	if n >= 10 {
		s = "0" + string(rune('0'+n/10)) + string(rune('0'+n%10))
	}
	return s
}

func side(log string, archive string) Side {
	s := Side{Log: parse.Parse("CHANGELOG.md", []byte(log))}
	if archive != "" {
		s.Archive = parse.Parse("changelog-archive.md", []byte(archive), parse.Archive())
	}
	return s
}

func TestCompare(t *testing.T) {
	base := side(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), "")
	cases := []struct {
		name   string
		head   Side
		want   []string // "RULE line event"
		inDiff string
	}{
		{"appended", side(head+ev(1, "one")+ev(2, "two")+ev(3, "three")+ev(4, "four"), ""), nil, ""},
		{"crlf only", side(strings.ReplaceAll(head+ev(1, "one")+ev(2, "two")+ev(3, "three"), "\n", "\r\n"), ""), nil, ""},
		{"separator dropped", side(head+strings.ReplaceAll(ev(1, "one")+ev(2, "two")+ev(3, "three"), "---\n\n", ""), ""), nil, ""},
		{"edited", side(head+ev(1, "one")+ev(2, "TWO")+ev(3, "three"), ""), []string{"MS301 12 evt-002"}, "-**Summary**: two"},
		{"deleted", side(head+ev(1, "one")+ev(3, "three"), ""), []string{"MS302 12 evt-002"}, "-**Summary**: two"},
		{"reordered", side(head+ev(1, "one")+ev(3, "three")+ev(2, "two"), ""), []string{"MS303 19 evt-002"}, ""},
		{"first moved to the end", side(head+ev(2, "two")+ev(3, "three")+ev(1, "one"), ""), []string{"MS303 19 evt-001"}, ""},
		{"inserted", side(head+ev(1, "one")+ev(4, "four")+ev(2, "two")+ev(3, "three"), ""), []string{"MS304 12 evt-004"}, ""},
		{"renumbered", side(head+ev(1, "one")+ev(2, "two")+ev(7, "three"), ""), []string{"MS305 19 evt-007"}, ""},
		{"gap", side(head+ev(1, "one")+ev(2, "two")+ev(3, "three")+ev(5, "five"), ""), []string{"MS305 26 evt-005"}, ""},
		{"moved to archive", side(head+ev(3, "three")+ev(4, "four"),
			"# Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-01-01\n\n"+ev(1, "one")+ev(2, "two")), nil, ""},
		{"moved and edited", side(head+ev(3, "three"),
			"# Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-01-01\n\n"+ev(1, "one")+ev(2, "2")), []string{"MS301 12 evt-002"}, "+**Summary**: 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds := Compare(base, c.head, "main (abc1234)")
			var got []string
			for _, d := range ds {
				got = append(got, d.Rule+" "+itoa(d.Range.Line)+" "+d.Event)
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
	if ds := Compare(Side{}, base, "x"); len(ds) != 0 {
		t.Errorf("a new log is fine: %v", ds)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
