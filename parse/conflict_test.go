package parse

import (
	"fmt"
	"testing"
)

// TestConflictMarkers: a "<<<<<<<" line at column 0 is a conflict git
// left (KindConflict) unless a fenced code block or an HTML comment
// quotes it; Parse, Stream and a headers-only parse agree.
func TestConflictMarkers(t *testing.T) {
	ev := "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Scope**: x\n**Summary**: y\n\n"
	for _, tc := range []struct {
		name, body string
		lines      []int
	}{
		{"plain", "<<<<<<< HEAD\n", []int{10}},
		{"no space", "<<<<<<<HEAD\n", nil},
		{"indented", "  <<<<<<< HEAD\n", nil},
		{"eight", "<<<<<<<< HEAD\n", nil},
		{"in a fence", "```\n<<<<<<< HEAD\n=======\n>>>>>>> b\n```\n", nil},
		{"in a tilde fence", "~~~diff\n<<<<<<< HEAD\n~~~\n", nil},
		{"in a comment", "<!--\n<<<<<<< HEAD\n-->\n", nil},
		{"after a fence", "```\nx\n```\n<<<<<<< HEAD\n", []int{13}},
		{"two, one quoted", "```\n<<<<<<< a\n```\n\n<<<<<<< b\n", []int{14}},
		// A kind-6 HTML block ends at a blank line and holds what git
		// writes into it: still a conflict.
		{"in a div", "<div>\n<<<<<<< HEAD\n</div>\n", []int{11}},
		// Lazy continuation of a quote: git's line, not the quote's.
		{"after a quote", "> quoted\n<<<<<<< HEAD\n", []int{11}},
		// A fence never closed hides what follows (KindUnclosed); the
		// marker inside it is quoted.
		{"in an open fence", "```\n<<<<<<< HEAD\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := []byte(head + ev + tc.body)
			for mode, l := range map[string]*Log{
				"parse":   Parse("f", src),
				"stream":  Stream("f", src, func(*Event) {}),
				"headers": Parse("f", src, HeadersOnly()),
			} {
				var got []int
				for _, p := range l.Problems {
					if p.Kind == KindConflict {
						got = append(got, p.Range.Line)
					}
				}
				if len(got) != len(tc.lines) || len(got) > 0 && got[0] != tc.lines[0] || len(got) > 1 && got[1] != tc.lines[1] {
					t.Errorf("%s: conflict lines %v, want %v\n%s", mode, got, tc.lines, src)
				}
			}
		})
	}
}

// TestConflictMarkersPipelined: in a log long enough for the pipelined
// parse (pipelineMin chunks), quoted markers are dropped and a real one
// reported, as in the sequential parse.
func TestConflictMarkersPipelined(t *testing.T) {
	var b []byte
	b = append(b, head...)
	for i := 1; i <= pipelineMin+100; i++ {
		b = fmt.Appendf(b, "### evt-%03d | 2025-02-03 10:00 | a | fix\n\n**Scope**: x\n**Summary**: y\n\n", i)
		if i%500 == 0 {
			b = append(b, "```\n<<<<<<< HEAD\n```\n\n"...)
		}
	}
	b = append(b, "<<<<<<< HEAD\n"...)
	for _, l := range []*Log{Parse("f", b), Parse("f", b, func(c *config) { c.sequential = true })} {
		var n int
		for _, p := range l.Problems {
			if p.Kind == KindConflict {
				n++
				if p.Range.Offset != len(b)-len("<<<<<<< HEAD\n") {
					t.Errorf("conflict at %d, want the last line", p.Range.Offset)
				}
			}
		}
		if n != 1 || len(l.Events) != pipelineMin+100 {
			t.Errorf("%d conflicts, %d events", n, len(l.Events))
		}
	}
}
