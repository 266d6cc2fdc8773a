package udiff

import (
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Unified("a", "b", []byte(c.a), []byte(c.b)); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
