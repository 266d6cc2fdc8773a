package parse

import "testing"

func TestPlaces(t *testing.T) {
	ev := func(id, summary string) string {
		return "### " + id + " | 2026-01-01 10:00 | a | create\n\n**Summary**: " + summary + "\n\n---\n\n"
	}
	// evt-002 twice: a finding's line must find the copy it is on.
	log := Parse(LogFile, []byte("# Changelog\n\n## Event Log\n\n"+ev("evt-002", "first")+ev("evt-002", "second")+ev("evt-003", "third")))
	archive := Parse("changelog-archive.md", []byte("# Archive\n\n"+ev("evt-001", "old")), Archive())
	p := PlacesOf(append(append([]Event(nil), archive.Events...), log.Events...))
	cases := []struct {
		file string
		line int
		want string // the summary, "" for none
	}{
		{LogFile, 5, "first"},   // heading
		{LogFile, 7, "first"},   // body
		{LogFile, 8, ""},        // the blank line after it
		{LogFile, 11, "second"}, // second copy's heading
		{LogFile, 13, "second"},
		{LogFile, 19, "third"},
		{LogFile, 1, ""},
		{LogFile, 99, ""},
		{"changelog-archive.md", 5, "old"},
		{"changelog-archive.md", 11, ""},
		{"other.md", 5, ""},
	}
	for _, c := range cases {
		got := ""
		if e := p.At(c.file, c.line); e != nil {
			got = e.Summary
		}
		if got != c.want {
			t.Errorf("At(%s, %d) = %q, want %q", c.file, c.line, got, c.want)
		}
	}
}

func TestConflictLine(t *testing.T) {
	cases := []struct {
		src  string
		want int
	}{
		{"", 0},
		{"| a | b |\n", 0},
		{"<<<<<<< HEAD\n| a |\n=======\n| b |\n>>>>>>> feat\n", 1},
		{"# Graph\n\n<<<<<<< HEAD\r\n| a |\r\n", 3},
		{"# Graph\n<<<<<<<\n", 2},
		{"# Graph\n<<<<<<<<< not git's\nx <<<<<<< HEAD\n", 0}, // not at a line's start, or longer
		{"a\n<<<<<<< ours", 2},
	}
	for _, c := range cases {
		if got := ConflictLine([]byte(c.src)); got != c.want {
			t.Errorf("ConflictLine(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
