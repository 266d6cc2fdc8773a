package parse

import (
	"strconv"
	"testing"
)

func TestEventNum(t *testing.T) {
	for _, tc := range []struct {
		id  string
		num int
		ok  bool
	}{
		{"evt-001", 1, true},
		{"evt-7", 7, true},
		{"EVT-0100", 100, true},
		{"evt-999999999", 999999999, true},
		{"evt-+5", 0, false}, // Atoi would read 5: a malformed ref everywhere
		{"evt--5", 0, false},
		{"evt- 5", 0, false},
		{"evt-5 ", 0, false},
		{"evt-", 0, false},
		{"evt-0", 0, false},
		{"evt-000", 0, false},
		{"evt-1000000000", 0, false},
		{"evt-1a", 0, false},
		{"ev-1", 0, false},
		{"5", 0, false},
		{"", 0, false},
		{"none", 0, false},
	} {
		num, ok := EventNum(tc.id)
		if num != tc.num || ok != tc.ok {
			t.Errorf("EventNum(%q) = %d, %v; want %d, %v", tc.id, num, ok, tc.num, tc.ok)
		}
	}
}

func TestSameEvent(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"evt-7", "evt-007", true},
		{"evt-8", "evt-008", true},
		{"EVT-8", "evt-8", true},
		{"evt-7", "evt-8", false},
		{"", "", true},
		{"", "evt-1", false},
		{"evt-+5", "evt-5", false},
		{"evt-0", "evt-00", false},
		{"evt-x", "evt-x", true},
	} {
		if got := SameEvent(tc.a, tc.b); got != tc.want {
			t.Errorf("SameEvent(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestEventKey(t *testing.T) {
	for id, want := range map[string]string{
		"evt-007":  "evt-7",
		" EVT-7 ":  "evt-7",
		"evt-+7":   "evt-+7",
		"Evt-0":    "evt-0",
		"Task-12":  "task-12",
		"evt-1234": "evt-1234",
	} {
		if got := EventKey(id); got != want {
			t.Errorf("EventKey(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestFormatID(t *testing.T) {
	for _, tc := range []struct {
		n, width int
		want     string
	}{
		{1, 3, "evt-001"},
		{42, 3, "evt-042"},
		{1000, 3, "evt-1000"},
		{7, 4, "evt-0007"},
	} {
		if got := FormatID(tc.n, tc.width); got != tc.want {
			t.Errorf("FormatID(%d, %d) = %q, want %q", tc.n, tc.width, got, tc.want)
		}
	}
}

// TestMaxEventNum checks that MaxEventNum is the largest number an ID
// can carry: its ID reads back, the next one does not.
func TestMaxEventNum(t *testing.T) {
	if n, ok := EventNum(FormatID(MaxEventNum, 3)); !ok || n != MaxEventNum {
		t.Errorf("EventNum(FormatID(MaxEventNum)) = %d, %v", n, ok)
	}
	if _, ok := EventNum(FormatID(MaxEventNum+1, 3)); ok {
		t.Errorf("%s reads as an event ID", FormatID(MaxEventNum+1, 3))
	}
}

// FuzzEventNum checks that EventNum and FormatID agree: a number read
// from an ID writes back to an ID with the same number, and only IDs
// made of the prefix and digits are read.
func FuzzEventNum(f *testing.F) {
	for _, s := range []string{"evt-001", "evt-+5", "EVT-0100", "evt-", "evt-0", "evt-1000000000", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		n, ok := EventNum(id)
		if !ok {
			if n != 0 {
				t.Fatalf("EventNum(%q) = %d, false", id, n)
			}
			return
		}
		if n <= 0 || !SameEvent(id, FormatID(n, 3)) {
			t.Fatalf("EventNum(%q) = %d does not round-trip", id, n)
		}
		if _, err := strconv.Atoi(id[4:]); err != nil || id[4] == '+' || id[4] == '-' {
			t.Fatalf("EventNum(%q) accepted a non-digit", id)
		}
	})
}

func TestReplaceIDs(t *testing.T) {
	double := func(n, digits int) (string, bool) { return FormatID(2*n, digits), n != 5 }
	for _, c := range []struct{ in, want string }{
		{"### evt-003 | x", "### evt-006 | x"},
		{"**Refs**: evt-001, EVT-2, evt-005", "**Refs**: evt-002, evt-4, evt-005"},
		{"see evt-004.", "see evt-008."},
		{"my-evt-3 evt-3a _evt-3 evt-3_ evt- evt-0 evt-1234567890", "my-evt-3 evt-3a _evt-3 evt-3_ evt- evt-0 evt-1234567890"},
		{"(evt-3)", "(evt-6)"},
		{"evt-3", "evt-6"},
		{"", ""},
	} {
		if got := string(ReplaceIDs([]byte(c.in), double)); got != c.want {
			t.Errorf("ReplaceIDs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestIDTooLong(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"evt-9999999999", true},
		{"EVT-0000000001", true},
		{"evt-999999999", false},
		{"evt-001", false},
		{"evt-99999999x99", false},
		{"ev-9999999999", false},
		{"", false},
	} {
		if got := IDTooLong(tc.id); got != tc.want {
			t.Errorf("IDTooLong(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

// TestNotIDHint: an argument in the evt-NNN form that is still no
// event ID gets the reason, not "write evt-NNN", which it already does.
func TestNotIDHint(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{"evt-0", "numbering starts at evt-001"},
		{"EVT-000", "numbering starts at evt-001"},
		{"evt-99999999999", "it has 11 digits, at most 9 are allowed"},
		{"evt-0000000001", "it has 10 digits, at most 9 are allowed"},
		{"evt-", "write evt-NNN"},
		{"evt-+5", "write evt-NNN"},
		{"evt-1x", "write evt-NNN"},
		{"seven", "write evt-NNN"},
		{"", "write evt-NNN"},
		{"0", "write evt-NNN"},
	} {
		if got := NotIDHint(tc.id); got != tc.want {
			t.Errorf("NotIDHint(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestIndexControl: the control characters the log does not hold are the
// ASCII controls but tab and the line breaks, and DEL; everything else
// (non-ASCII included) is text.
func TestIndexControl(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", -1},
		{"a\tb\nc\r\n", -1},
		{"café ␛ \u0085", -1}, // U+0085 is no ASCII control: UTF-8 text
		{"x\x1b[2J", 1},
		{"\x00", 0},
		{"ab\x0c", 2},
		{"a\x7f", 1},
		{"\x1f", 0},
		{"0123456789abcdef\x1b", 16},         // after two clean words
		{"0123456\n89ab\x7fdef", 12},         // a word with a line break, then DEL
		{"01234567\t\r\n\x80\xff ~\x01", 15}, // the last byte of a word
	} {
		if got := IndexControl(c.s); got != c.want {
			t.Errorf("IndexControl(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}

// indexControlBytes is IndexControl byte by byte, as it was written
// before it read eight bytes at a time: FuzzIndexControl holds the two
// to the same answer.
func indexControlBytes(s string) int {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f {
			return i
		}
	}
	return -1
}

// FuzzIndexControl: the word-at-a-time IndexControl finds the same
// byte as the plain loop, whatever the bytes and wherever they sit in a
// word.
func FuzzIndexControl(f *testing.F) {
	for _, s := range []string{"", "a\tb\nc\r\n", "x\x1b[2J", "0123456789abcdef\x1b", "01234567\t\r\n\x80\xff ~\x01", "\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IndexControl(s), indexControlBytes(s); got != want {
			t.Fatalf("IndexControl(%q) = %d, want %d", s, got, want)
		}
	})
}
