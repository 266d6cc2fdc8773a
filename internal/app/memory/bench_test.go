package memory

import (
	"testing"

	"github.com/memsys/memsys/parse"
)

// BenchmarkAppendVsParse compares what append does to a 100k-event log
// (a headers-only parse, render, splice) with a full parse, the floor
// of what lint costs. The issue asks for append ≤ 0.1× a full lint;
// compare the two ns/op figures of one run. The atomic write (one
// sequential copy plus fsync) is not included: it is I/O, not CPU.
func BenchmarkAppendVsParse(b *testing.B) {
	src := genLog(100000, "\n---\n\n")
	d := Draft{Type: "fix", Scope: "s", Summary: "x", Agent: "a", Time: "2026-05-01 10:00"}
	b.Run("append", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			l := parse.Parse("CHANGELOG.md", src, parse.HeadersOnly())
			dd := d
			if err := Normalize(&dd, KnownIn(l)); err != nil {
				b.Fatal(err)
			}
			id, err := NextID(l)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := AppendEvent("CHANGELOG.md", src, l, Render(id, dd, "\n")); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fullparse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for i := 0; i < b.N; i++ {
			parse.Parse("CHANGELOG.md", src)
		}
	})
}
