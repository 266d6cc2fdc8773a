package udiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// context is the number of unchanged lines shown around each change, as
// in diff -u.
const context = 3

type op struct {
	kind  byte // ' ', '-', '+'
	text  string
	noEOL bool // the file's last line, without a final newline
}

// Unified returns a unified diff from a (named aName) to b (named bName),
// or "" when they are equal. Lines are compared with their line endings
// normalised to LF, so a CRLF copy of a file shows no difference. A last
// line without a newline is marked "\ No newline at end of file", as
// diff -u and patch(1) expect.
func Unified(aName, bName string, a, b []byte) string {
	as := strings.ReplaceAll(string(a), "\r\n", "\n")
	bs := strings.ReplaceAll(string(b), "\r\n", "\n")
	if as == bs {
		return ""
	}
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(as, bs)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var ops []op
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		ls := splitLines(d.Text)
		for i, l := range ls {
			ops = append(ops, op{kind: kind, text: l, noEOL: i == len(ls)-1 && !strings.HasSuffix(d.Text, "\n")})
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	// Walk the ops, emitting a hunk for each run of changes with its
	// context, merging runs whose contexts touch.
	aLine, bLine := 1, 1 // line numbers at ops[i]
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			aLine, bLine = aLine+1, bLine+1
			i++
			continue
		}
		start := max(i-context, 0)
		hunkA, hunkB := aLine-(i-start), bLine-(i-start)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*context {
				end = min(end+context, run)
				break
			}
			end = run
		}
		var na, nb int
		for _, o := range ops[start:end] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", span(hunkA, na), span(hunkB, nb))
		for _, o := range ops[start:end] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
			if o.noEOL {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		for _, o := range ops[i:end] {
			if o.kind != '+' {
				aLine++
			}
			if o.kind != '-' {
				bLine++
			}
		}
		i = end
	}
	return out.String()
}

// span formats a hunk range as diff -u does: "l,n", "l" when n is 1,
// and "l-1,0" for an empty range.
func span(l, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", l-1)
	case 1:
		return fmt.Sprint(l)
	}
	return fmt.Sprintf("%d,%d", l, n)
}

// splitLines splits text into lines without their newlines; a final
// line without a newline is kept.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}
