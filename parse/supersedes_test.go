package parse

import (
	"fmt"
	"strings"
	"testing"
)

// TestSupersedesField: the field is read like Refs, in one line or as
// a list, in any case of its key, and it is kept in Fields.
func TestSupersedesField(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"**Supersedes**: evt-003", "[evt-003]"},
		{"**supersedes**: evt-3, evt-004 (the typo)", "[evt-3 evt-004]"},
		{"**Supersedes**: none", "[]"},
		{"**Supersedes**: the old one", "[the old one]"},
		{"**Supersedes**:\n- evt-001\n- evt-002", "[evt-001 evt-002]"},
	} {
		src := "## Event Log\n\n### evt-005 | 2026-01-01 10:00 | a | fix\n\n**Summary**: s\n**Refs**: none\n" + c.body + "\n"
		l := Parse("CHANGELOG.md", []byte(src))
		if len(l.Problems) > 0 || len(l.Events) != 1 {
			t.Fatalf("%q: %v", c.body, l.Problems)
		}
		if got := fmt.Sprint(nonNilStrings(l.Events[0].Supersedes)); got != c.want {
			t.Errorf("%q: Supersedes = %s, want %s", c.body, got, c.want)
		}
		if _, ok := l.Events[0].Field("supersedes"); !ok {
			t.Errorf("%q: field not kept", c.body)
		}
	}
}

func nonNilStrings(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// TestScanSupersedes: the prediction from the bytes equals the parsed
// fields on well-formed logs (CRLF and a BOM included) and differs,
// for the replay to notice, where only the block structure can tell.
func TestScanSupersedes(t *testing.T) {
	good := "\xef\xbb\xbf## Event Log\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Summary**: s\n\n" +
		"### evt-002 | 2026-01-01 11:00 | a | fix\n\n**Summary**: s\n**SUPERSEDES**: evt-001\n\n" +
		"#### a note inside the event\n\n### evt-3 | 2026-01-01 12:00 | a | fix\n\n**Summary**: s\n\n**Supersedes**: evt-002, evt-001\n"
	for _, src := range []string{good, strings.ReplaceAll(good, "\n", "\r\n")} {
		var want []Supersession
		for _, e := range Parse("CHANGELOG.md", []byte(src)).Events {
			if s, ok := SupersessionOf(&e); ok {
				want = append(want, s)
			}
		}
		got := ScanSupersedes("CHANGELOG.md", []byte(src))
		if len(got) != 2 || len(want) != 2 || !got[0].Equal(want[0]) || !got[1].Equal(want[1]) {
			t.Errorf("scanned %+v\nparsed  %+v", got, want)
		}
	}
	fenced := "## Event Log\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n```\n**Supersedes**: evt-000\n```\n"
	if got, parsed := ScanSupersedes("f", []byte(fenced)), Parse("f", []byte(fenced)).Events[0].Supersedes; len(got) != 1 || len(parsed) != 0 {
		t.Errorf("a fenced field: scanned %v, parsed %v (the scan cannot see fences; the replay checks it)", got, parsed)
	}
	if got := ScanSupersedes("f", []byte("## Notes\n\n**Supersedes**: evt-1\n")); len(got) != 0 {
		t.Errorf("a field outside any event: %v", got)
	}
}

// TestScanSupersedesList: a Supersedes field written as a bullet list
// (read like Refs) is predicted as the parser reads it: top-level
// bullets, after a blank line or none, lazy continuation lines
// included, nested bullets not; the scan predicted no edge, so every
// regen and lint of such a log replayed twice and lint's history could
// not be checkpointed.
func TestScanSupersedesList(t *testing.T) {
	head := "## Event Log\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Summary**: s\n\n" +
		"### evt-002 | 2026-01-01 11:00 | a | create\n\n**Summary**: s\n\n" +
		"### evt-003 | 2026-01-01 12:00 | a | fix\n\n**Summary**: s\n**Supersedes**:"
	for _, tail := range []string{
		"\n- evt-001\n",
		"\n- evt-001\n- evt-2\n\n**Tags**: x\n",
		"\n\n* evt-001\n\n* evt-002\n\nText after.\n",
		"\n- evt-001\n  - evt-002\n",
		"\n- evt-001\nevt-002 lazily\n",
		"\n\n### evt-004 | 2026-01-01 13:00 | a | fix\n\n- evt-001\n",
	} {
		src := head + tail
		for _, src := range []string{src, strings.ReplaceAll(src, "\n", "\r\n")} {
			var want []Supersession
			for _, e := range Parse("CHANGELOG.md", []byte(src)).Events {
				if s, ok := SupersessionOf(&e); ok {
					want = append(want, s)
				}
			}
			got := ScanSupersedes("CHANGELOG.md", []byte(src))
			if len(got) != len(want) || len(got) > 0 && !got[0].Equal(want[0]) {
				t.Errorf("%q:\nscanned %+v\nparsed  %+v", tail, got, want)
			}
		}
	}
}

// FuzzScanSupersedes: any input scans without panicking, and every
// prediction points at a heading line of the input.
func FuzzScanSupersedes(f *testing.F) {
	f.Add([]byte("### evt-1 | x\n**Supersedes**: evt-0\n"))
	f.Add([]byte("persedesPERSEDESpersedes\n#evt-\n**supersedes**: evt-1"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, s := range ScanSupersedes("f", src) {
			if s.Offset < 0 || s.Offset >= len(src) || src[s.Offset] != '#' || len(s.Targets) == 0 {
				t.Fatalf("bad prediction %+v", s)
			}
		}
	})
}
