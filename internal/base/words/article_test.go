package words

import "testing"

func TestArticle(t *testing.T) {
	for noun, want := range map[string]string{
		"escalation": "an",
		"archive":    "an",
		"Idea":       "an",
		"decision":   "a",
		"fix":        "a",
		"":           "a",
	} {
		if got := Article(noun); got != want {
			t.Errorf("Article(%q) = %q, want %q", noun, got, want)
		}
	}
}
