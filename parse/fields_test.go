package parse

import (
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
)

// FuzzFieldKeys checks keyOf and seenKey, which read every field key,
// against their definitions: a key is known when it normalises
// (NormKey) to one of knownKeys, and a field repeats an earlier one
// when SameKey says their keys are the same. Each line of the input is
// a key, in the order of an event's fields.
func FuzzFieldKeys(f *testing.F) {
	for _, s := range []string{
		"Scope\nSummary\nDetails\nRefs\nTags",
		"scope\nSCOPE\n Scope \nsco-pe\nref\nRefs\nREFERENCES\nreference\ntag\nTAGS\nSupersedes\nsupersede\ndetails\nDetails",
		"Root Cause\nroot-cause\nROOT_CAUSE\nroot cause\nGRÖSSE\ngrösse\nGrösse",
		"Ta\u212As\nTag\u212A\n\u212Aey\nkey\nKEY\nSumm\u0430ry\nsummary",
		"s\nr\nt\nd\nsc\nscopes\nsummarys\nreferencess\n\tscope\nscope\t",
		"Note\nnote\nNOTE\nscope\nNote",
		"Scopx\nsummarz\nrefx\nrex\ntagz\ntax\ndetailz\nsupersedex\nreferencez\nxcope",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := &state{cur: &Event{}}
		for _, key := range strings.Split(s, "\n") {
			want := fkOther
			for i, name := range knownKeys {
				if NormKey(key) == name {
					want = fieldKey(i + 1)
				}
			}
			k := keyOf(key)
			if k != want {
				t.Fatalf("keyOf(%q) = %d, want %d (NormKey %q)", key, k, want, NormKey(key))
			}
			dup := false
			for _, f := range p.cur.Fields {
				dup = dup || SameKey(f.Key, key)
			}
			if got := p.seenKey(key, k); got != dup {
				t.Fatalf("seenKey(%q) = %v after %+v, want %v", key, got, p.cur.Fields, dup)
			}
			p.cur.Fields = append(p.cur.Fields, Field{Key: key})
		}
	})
}

// FuzzSplitDetail checks that splitDetail's one-pass reading of a plain
// key gives what the general reading (splitDetailAny) gives.
func FuzzSplitDetail(f *testing.F) {
	for _, s := range []string{
		"entity: component_1", "changes: updated the handler", "path: src/c1.go", "a: b",
		"url: https://x", "see: //host/path", "x:\\dir", "c:\\dir", "ab:\\dir", "key:", "key:   ", "key:value",
		"Key: v", "root-cause: x", "root cause: x", "**bold**: x", "**bold:** x", "`code`: x",
		"v1.2: x", "a_b.c: x", "0123456789012345678901234567890123456789012345678: x",
		"01234567890123456789012345678901234567890123456: x", "012345678901234567890123456789012345678901234567: x",
		"no colon here", ":", "::", "a::b", "ab: :b", "ab:/x", "ab: /x", "ab://x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, v := splitDetail(s)
		wk, wv := splitDetailAny(s)
		if k != wk || v != wv {
			t.Fatalf("splitDetail(%q) = %q, %q; want %q, %q", s, k, v, wk, wv)
		}
	})
}

// TestEventEndAfterProblem: an event whose last line has a problem (the
// problem's range moves the line cursor past the event's end) still
// ends on that line, in Parse, Stream and a chunked or whole-file read.
func TestEventEndAfterProblem(t *testing.T) {
	src := head + "### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: s\n\nstray text\n\n---\n\n" +
		"### evt-002 | 2025-02-03 10:00 | a | fix\n\n**Summary**: s\n**Summary**: again\n\n" +
		"### evt-003 | 2025-02-03 10:00 | a | fix\n\n**Summary**: s\n"
	want := [][4]int{{5, 1, 9, 11}, {13, 1, 16, 19}, {18, 1, 20, 15}} // line, col, end line, end col
	for _, opts := range [][]Option{nil, {func(c *config) { c.whole = true }}} {
		l := Parse("f", []byte(src), opts...)
		var streamed []diag.Range
		Stream("f", []byte(src), func(e *Event) { streamed = append(streamed, e.Range) }, opts...)
		if len(l.Events) != len(want) || len(streamed) != len(want) {
			t.Fatalf("got %d events (%d streamed), want %d", len(l.Events), len(streamed), len(want))
		}
		if len(l.Problems) != 2 {
			t.Errorf("problems %v, want the stray text and the repeated Summary", l.Problems)
		}
		for i, e := range l.Events {
			r := e.Range
			if got := [4]int{r.Line, r.Col, r.EndLine, r.EndCol}; got != want[i] || streamed[i] != r {
				t.Errorf("%s: range %v (streamed %v), want lines and columns %v", e.ID, r, streamed[i], want[i])
			}
		}
	}
}
