package udiff

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := change[i]; ok {
				if s != "" {
					b.WriteString(s + "\n")
				}
				continue
			}
			b.WriteString("l" + string(rune('a'+i%26)) + "\n")
		}
		return b.String()
	}
	cases := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"crlf only", "x\r\ny\r\n", "x\ny\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"append at end", "a\n", "a\nb\n", "--- a\n+++ b\n@@ -1 +1,2 @@\n a\n+b\n"},
		{"from empty", "", "a\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n"},
		{"two hunks", lines(20, nil), lines(20, map[int]string{2: "X", 18: "Y"}),
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n lb\n-lc\n+X\n ld\n le\n lf\n@@ -15,6 +15,6 @@\n lp\n lq\n lr\n-ls\n+Y\n lt\n lu\n"},
		{"merged hunk", lines(10, nil), lines(10, map[int]string{3: "X", 7: "Y"}),
			"--- a\n+++ b\n@@ -1,10 +1,10 @@\n lb\n lc\n-ld\n+X\n le\n lf\n lg\n-lh\n+Y\n li\n lj\n lk\n"},
		{"deletion", "a\nb\nc\n", "a\nc\n", "--- a\n+++ b\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"},
		{"to empty", "a\nb\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{"newline added at end", "a\nb", "a\nb\n", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{"unchanged last line without newline", "a\nb", "A\nb", "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+A\n b\n\\ No newline at end of file\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Unified("a", "b", []byte(c.a), []byte(c.b)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// TestUnifiedApplies: for many seeded random edits, applying the diff to
// a gives b, every hunk header counts its lines right, and no two hunks
// touch. A second call gives the same bytes.
func TestUnifiedApplies(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 500 {
		var a []string
		for range r.IntN(30) {
			a = append(a, "l"+strconv.Itoa(r.IntN(8)))
		}
		b := append([]string(nil), a...)
		for range r.IntN(5) {
			i := r.IntN(len(b) + 1)
			switch r.IntN(3) {
			case 0:
				b = append(b[:i], append([]string{"new" + strconv.Itoa(r.IntN(4))}, b[i:]...)...)
			case 1:
				if i < len(b) {
					b = append(b[:i], b[i+1:]...)
				}
			default:
				if i < len(b) {
					b[i] = "chg" + strconv.Itoa(r.IntN(4))
				}
			}
		}
		as, bs := join(a), join(b)
		d := Unified("a", "b", []byte(as), []byte(bs))
		if d != Unified("a", "b", []byte(as), []byte(bs)) {
			t.Fatalf("case %d: not deterministic", n)
		}
		if as == bs {
			if d != "" {
				t.Fatalf("case %d: diff of equal texts: %q", n, d)
			}
			continue
		}
		got, err := apply(a, d)
		if err != nil {
			t.Fatalf("case %d: %v\na=%q\nb=%q\n%s", n, err, as, bs, d)
		}
		if join(got) != bs {
			t.Fatalf("case %d: applying the diff gives %q, want %q\n%s", n, join(got), bs, d)
		}
	}
}

func join(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// apply is a strict patch(1) for the diffs Unified writes.
func apply(a []string, d string) ([]string, error) {
	lines := strings.Split(strings.TrimSuffix(d, "\n"), "\n")
	if len(lines) < 3 || lines[0] != "--- a" || lines[1] != "+++ b" {
		return nil, fmt.Errorf("bad header")
	}
	var out []string
	next, lastEnd := 0, -1 // next line of a to copy (0-based); end of the previous hunk
	for i := 2; i < len(lines); {
		var al, an, bl, bn int
		if _, err := fmt.Sscanf(strings.NewReplacer(",", " ", "-", "", "+", "").Replace(fullSpan(lines[i])), "@@ %d %d %d %d @@", &al, &an, &bl, &bn); err != nil {
			return nil, fmt.Errorf("hunk header %q: %v", lines[i], err)
		}
		start := al - 1
		if an == 0 {
			start = al
		}
		// Between two hunks lie their contexts plus at least one line:
		// runs of up to 2*context unchanged lines are merged, as diff -u does.
		if lastEnd >= 0 && start <= lastEnd {
			return nil, fmt.Errorf("hunks at %d and %d touch: they should have been merged", lastEnd, start)
		}
		out = append(out, a[next:start]...)
		next = start
		i++
		gotA, gotB := 0, 0
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			switch l[0] {
			case ' ', '-':
				if next >= len(a) || a[next] != l[1:] {
					return nil, fmt.Errorf("line %d of a is not %q", next+1, l[1:])
				}
				next++
				gotA++
				if l[0] == ' ' {
					out = append(out, l[1:])
					gotB++
				}
			case '+':
				out = append(out, l[1:])
				gotB++
			default:
				return nil, fmt.Errorf("bad line %q", l)
			}
		}
		if gotA != an || gotB != bn {
			return nil, fmt.Errorf("hunk counts -%d +%d, lines -%d +%d", an, bn, gotA, gotB)
		}
		lastEnd = next
	}
	return append(out, a[next:]...), nil
}

// fullSpan writes "l" spans as "l,1" so one Sscanf reads every header.
func fullSpan(h string) string {
	f := strings.Fields(h)
	for i := 1; i <= 2 && i < len(f); i++ {
		if !strings.Contains(f[i], ",") {
			f[i] += ",1"
		}
	}
	return strings.Join(f, " ")
}
