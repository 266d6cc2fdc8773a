package parse

import (
	"strings"
	"testing"
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
