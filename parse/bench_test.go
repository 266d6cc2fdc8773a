package parse

import (
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/text"
)

// genLog builds a log of n well-formed events, ~320 bytes each.
func genLog(n int) []byte {
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Event Log\n\n")
	types := []string{"create", "modify", "decision", "test", "dependency", "fix"}
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "### evt-%03d | 2026-%02d-%02d %02d:%02d | agent-%d | %s\n\n", i, 1+i%12, 1+i%28, i%24, i%60, i%7, types[i%len(types)])
		fmt.Fprintf(&b, "**Scope**: component_%d\n**Summary**: change number %d to the component, with some words\n\n", i%300, i)
		fmt.Fprintf(&b, "**Details**:\n- entity: component_%d\n- changes: updated the handler and the tests\n- path: src/c%d.go\n\n", i%300, i%300)
		fmt.Fprintf(&b, "**Refs**: evt-%03d\n**Tags**: tag%d, area\n\n---\n\n", max(1, i-1), i%10)
	}
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		src := genLog(n)
		b.Run(fmt.Sprintf("goldmark/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				goldmark.New().Parser().Parse(text.NewReader(src))
			}
		})
		b.Run(fmt.Sprintf("memsys/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				l := Parse("CHANGELOG.md", src)
				if len(l.Events) != n {
					b.Fatalf("got %d events", len(l.Events))
				}
			}
		})
		// A stream that reuses the memory of returned events, as regen
		// and lint read the log.
		b.Run(fmt.Sprintf("stream/%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				r := &returnAll{}
				Stream("CHANGELOG.md", src, func(*Event) { r.n++ }, Reuse(r))
				if r.n != n {
					b.Fatalf("got %d events", r.n)
				}
			}
		})
	}
}

// BenchmarkIndexControl runs IndexControl over the text of every event
// of a 1k log, as export and lint (MS136) do; "bytes" runs the plain
// loop it replaced (the fuzz oracle), for the ratio in one run.
func BenchmarkIndexControl(b *testing.B) {
	log := Parse(LogFile, genLog(1000))
	var n int64
	for i := range log.Events {
		n += int64(len(log.Events[i].Text))
	}
	for _, c := range []struct {
		name string
		f    func(string) int
	}{{"words", IndexControl}, {"bytes", indexControlBytes}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(n)
			b.ReportAllocs()
			for b.Loop() {
				for i := range log.Events {
					if c.f(log.Events[i].Text) >= 0 {
						b.Fatal("control character in a generated event")
					}
				}
			}
		})
	}
}
