package parse

import (
	"reflect"
	"strings"
	"testing"

	"github.com/yuin/goldmark/text"
)

// seeds returns every input of the table tests, so the fuzz targets
// start from the shapes the tests already know.
func seeds() []string {
	s := []string{canonical, strings.ReplaceAll(canonical, "\n", "\r\n"), "\ufeff" + canonical, "", "\x00\x00", "\xff\xfe###"}
	s = append(s, head+"### evt-001 | 2025-02-03 10:00 | a | fix\n\n```\n### evt-002 | x\n",
		head+"- ```\n### evt-001 | 2025-02-03 10:00 | a | fix\n```\n### evt-002 | 2025-02-03 10:00 | a | fix\n",
		head+"<div>\n### evt-001 | 2025-02-03 10:00 | a | fix\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n",
		head+"### evt-001 | 2025-02-03 10:00 | a | fix\n- a: b\n  - c: d\n    - e: f\n- g\n**Refs**:\n- evt-001\n",
		head+"### evt-001 | 2025-02-03 10:00 | a | fix\n\n```\n<<<<<<< HEAD\n```\n\n<!--\n<<<<<<< x\n-->\n\n<<<<<<< HEAD\n### evt-002 | 2025-02-03 10:00 | a | fix\n",
		// Tabs send a chunk to goldmark (fastBlocks): at a line's end, in
		// a bullet's indentation, between a key and its value.
		head+"### evt-001 | 2025-02-03 10:00 | a | fix\n\n**Summary**: s\t\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n\n**Details**:\n- a: b\n\t- c: d\n\n"+
			"### evt-003 | 2025-02-03 10:00 | a | fix\n\n**Tags**:\tx\n")
	return s
}

// FuzzParse checks that any input parses without panicking and that
// what comes out is consistent with the input.
func FuzzParse(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		l := Parse("f", []byte(src))
		norm, _, _ := normalize([]byte(src))
		last := -1
		for _, e := range l.Events {
			r := e.Range
			if r.Offset < 0 || r.EndOffset > len(src) || r.Offset > r.EndOffset {
				t.Fatalf("%s: range %d-%d outside %d bytes", e.ID, r.Offset, r.EndOffset, len(src))
			}
			if r.Offset <= last {
				t.Fatalf("%s: events out of order", e.ID)
			}
			last = r.Offset
			if !strings.Contains(string(norm), e.Text) || !strings.HasPrefix(strings.TrimLeft(e.Text, " \t#"), e.ID) {
				t.Fatalf("%s: text %q is not the event's source", e.ID, e.Text)
			}
			if r.Line < 1 || r.EndLine < r.Line {
				t.Fatalf("%s: lines %d-%d", e.ID, r.Line, r.EndLine)
			}
		}
		for _, p := range l.Problems {
			if p.Range.Line < 1 || p.Message == "" {
				t.Fatalf("problem without position or message: %+v", p)
			}
		}
	})
}

// FuzzChunking checks the central claim of chunkStarts and endsOpen:
// cutting the file at headings and parsing each piece gives exactly
// what one goldmark parse of the whole file gives.
func FuzzChunking(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		chunked := Parse("f", []byte(src))
		whole := Parse("f", []byte(src), func(c *config) { c.whole = true })
		if !reflect.DeepEqual(chunked, whole) {
			t.Fatalf("chunked parse differs from whole-file parse\nchunked: %+v\nwhole:   %+v", chunked, whole)
		}
	})
}

// FuzzFastPath checks that the fast recogniser and goldmark build the
// same block model for every chunk the fast path accepts.
func FuzzFastPath(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		norm, _, _ := normalize([]byte(src))
		starts, _ := chunkStarts(norm)
		var a blockArena // shared by the chunks, as in a batch
		for i := 1; i < len(starts); i++ {
			end := len(norm)
			if i+1 < len(starts) {
				end = starts[i+1]
			}
			fast, ok := fastBlocks(nil, &a, norm, starts[i], end)
			if !ok {
				continue
			}
			doc := blockParser().Parse(text.NewReader(norm[starts[i]:end]))
			slow := goldmarkBlocks(doc, norm, starts[i])
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("chunk %q:\nfast     %+v\ngoldmark %+v", norm[starts[i]:end], fast, slow)
			}
		}
	})
}

// FuzzStream checks that Stream hands over exactly the events Parse
// returns, in order, with the same problems, including events written
// before the Event Log section, which Stream must hold back; also when
// it reuses the memory of every event as soon as it is handed over.
func FuzzStream(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Add("### evt-001 | 2025-02-03 10:00 | a | fix\n\n## Event Log\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n\n## Other\n\n#### evt-003 | 2025-02-03 10:00 | a | fix\n")
	f.Add("# Changelog\n\n## evt-001 | 2025-02-03 10:00 | a | fix\n\n### evt-002 | 2025-02-03 10:00 | a | fix\n")
	f.Fuzz(func(t *testing.T, src string) {
		r := &returnAll{}
		for _, opts := range [][]Option{nil, {Archive()}, {HeadersOnly()}, {Reuse(r)}, {Archive(), Reuse(r)}} {
			want := Parse("f", []byte(src), opts...)
			var got []Event
			l := Stream("f", []byte(src), func(e *Event) {
				got = append(got, deepCopy(e))
				r.n++
			}, opts...)
			if len(l.Events) != 0 {
				t.Fatalf("Stream kept %d events in Log.Events", len(l.Events))
			}
			l.Events = got
			if len(want.Events) == 0 {
				want.Events = nil
			}
			if !reflect.DeepEqual(l, want) {
				t.Fatalf("Stream differs from Parse (options %d)\nstream: %+v\nparse:  %+v", len(opts), l, want)
			}
		}
	})
}
