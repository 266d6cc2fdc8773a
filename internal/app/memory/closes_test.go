package memory

import (
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestNormalizeCloses: a closes detail's IDs are written as the log
// writes them, as refs are (knownIDs): short or upper-case IDs padded,
// one named twice written once, the list joined as the Refs line joins
// it; other details are left alone.
func TestNormalizeCloses(t *testing.T) {
	src := head
	for i := 1; i <= 12; i++ {
		src += "\n" + event(i, "blocker")
	}
	l := parse.Parse(parse.LogFile, []byte(src))
	for _, c := range []struct{ in, want string }{
		{"evt-002", "evt-002"},
		{"evt-2", "evt-002"},
		{"EVT-0002", "evt-002"},
		{"evt-2,evt-11", "evt-002, evt-011"},
		{"evt-2; `evt-002`", "evt-002"},
		{"evt-12 evt-3", "evt-012, evt-003"},
	} {
		d := Draft{Agent: "a", Time: "2026-01-02 10:00", Type: "fix", Scope: "s", Summary: "x", Refs: []string{"evt-2"},
			Details: []DraftDetail{{Key: "Closes", Value: c.in}, {Key: "note", Value: c.in}}}
		if err := Normalize(&d, KnownIn(l)); err != nil {
			t.Fatalf("closes %q: %v", c.in, err)
		}
		if got := d.Details[0].Value; got != c.want {
			t.Errorf("closes %q: written %q, want %q", c.in, got, c.want)
		}
		if d.Details[1].Value != c.in {
			t.Errorf("closes %q: the note became %q", c.in, d.Details[1].Value)
		}
		if d.Refs[0] != "evt-002" {
			t.Errorf("refs: %q", d.Refs)
		}
	}
}
