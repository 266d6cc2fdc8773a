package diag

import (
	"testing"
)

func TestLineIndex(t *testing.T) {
	x := NewLineIndex([]byte("ab\ncd\n\nef"))
	cases := []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 3, 1}, {7, 4, 1}, {8, 4, 2}, {9, 4, 3}, {99, 4, 3}, {-1, 1, 1},
	}
	for _, c := range cases {
		if l, col := x.Position(c.off); l != c.line || col != c.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
	}
	if x.Lines() != 4 || x.LineStart(2) != 3 || x.LineStart(9) != 9 || x.LineStart(0) != 0 {
		t.Errorf("Lines %d, LineStart(2) %d, LineStart(9) %d", x.Lines(), x.LineStart(2), x.LineStart(9))
	}
	r := x.Range("f.md", 3, 7)
	if r.String() != "f.md:2:1" || r.EndLine != 4 || r.EndCol != 1 {
		t.Errorf("Range = %+v", r)
	}
}

func TestDiagnosticText(t *testing.T) {
	d := Diagnostic{Rule: "MS104", Severity: Error, Range: Range{File: "CHANGELOG.md", Line: 42, Col: 1}, Message: "evt-017 refers to evt-099, which does not exist"}
	if got, want := d.Error(), "CHANGELOG.md:42:1: error: evt-017 refers to evt-099, which does not exist [MS104]"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got := (Diagnostic{Severity: Warning, Message: "m"}).Error(); got != "?:?:?: warning: m" {
		t.Errorf("unknown position: %q", got)
	}
}

func TestSortAndCount(t *testing.T) {
	ds := Diagnostics{
		{Rule: "MS2", Severity: Warning, Range: Range{File: "b", Line: 1}},
		{Rule: "MS1", Severity: Error, Range: Range{File: "a", Line: 9}},
		{Rule: "MS3", Severity: Error, Range: Range{File: "a", Line: 2}},
		{Rule: "MS1", Severity: Warning, Range: Range{File: "a", Line: 2}},
	}
	ds.Sort()
	var got string
	for _, d := range ds {
		got += d.Range.File + d.Rule + " "
	}
	if got != "aMS1 aMS3 aMS1 bMS2 " {
		t.Errorf("order: %s", got)
	}
	if e, w := ds.Count(); e != 2 || w != 2 || !ds.HasErrors() {
		t.Errorf("count %d/%d", e, w)
	}
	for _, s := range []string{"error", "warning", "off"} {
		if sev, err := ParseSeverity(s); err != nil || sev.String() != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s, sev, err)
		}
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepted fatal")
	}
}
