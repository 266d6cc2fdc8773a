package words

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClipTo(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want string
	}{
		{"", 5, ""},
		{"short", 5, "short"},
		{"longer", 5, "longe…"},
		{"héllo", 2, "h…"}, // é is 2 bytes: not cut in half
		{"日本語", 4, "日…"},
	}
	for _, c := range cases {
		if got := ClipTo(c.s, c.n); got != c.want {
			t.Errorf("ClipTo(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
	big := strings.Repeat("é", 1<<19) // 1 MB
	if got := Clip(big); len(got) > ClipLen+len("…") || !utf8.ValidString(got) {
		t.Errorf("Clip of 1 MB: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}

func TestClipFields(t *testing.T) {
	long := strings.Repeat("x", 100)
	got := ClipFields(`invalid value "` + long + `" for flag -keep`)
	want := `invalid value "` + strings.Repeat("x", ClipLen-1) + `…` + ` for flag -keep`
	if got != want {
		t.Errorf("ClipFields = %q, want %q", got, want)
	}
	if got := ClipFields("short words stay"); got != "short words stay" {
		t.Errorf("ClipFields changed short words: %q", got)
	}
}
