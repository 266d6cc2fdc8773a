package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestGraphMatches: comparing graph.md as it renders agrees with
// rendering it whole and comparing, for the file regen writes and for
// every kind of difference, at any place, in graphs of one chunk and of
// many; and the context.md rendered beside it is ContextFile's.
func TestGraphMatches(t *testing.T) {
	for _, n := range []int{0, 3, 2000} {
		src := loggen.GenerateSemantic(n, 5)
		x := NewReplayer(DefaultOptions())
		parse.Stream("CHANGELOG.md", src, func(e *parse.Event) { x.Apply(e) })
		want := x.GraphFile()
		if n == 2000 && len(want) < 3*graphChunk {
			t.Fatalf("graph.md of %d events is %d bytes: fewer than three chunks", n, len(want))
		}
		edit := func(at int, b byte) []byte {
			c := bytes.Clone(want)
			c[at] = b
			return c
		}
		seal := bytes.LastIndex(want, []byte(sealPrefix))
		for _, tc := range []struct {
			name string
			file []byte
			same bool
		}{
			{"as regen writes it", bytes.Clone(want), true},
			{"first byte", edit(0, 'x'), false},
			{"a chunk's end", edit(min(graphChunk, seal-1), 'x'), false},
			{"middle", edit(seal/2, 'x'), false},
			{"last body byte", edit(seal-2, 'x'), false},
			{"seal", edit(len(want)-6, 'x'), false},
			{"cut short", want[:len(want)-1], false},
			{"no seal", want[:seal], false},
			{"longer", append(bytes.Clone(want), '\n'), false},
			{"empty", nil, false},
			{"CRLF", bytes.ReplaceAll(want, []byte("\n"), []byte("\r\n")), false},
		} {
			same, c := x.GraphMatches(tc.file, tc.name == "first byte")
			if same != tc.same || same != bytes.Equal(tc.file, want) {
				t.Errorf("%d events, %s: GraphMatches = %v, want %v", n, tc.name, same, tc.same)
			}
			if tc.name == "first byte" && !bytes.Equal(c, x.ContextFile()) {
				t.Errorf("%d events: the context.md rendered beside differs from ContextFile", n)
			}
			if tc.name != "first byte" && c != nil {
				t.Errorf("%d events, %s: context.md rendered though not asked for", n, tc.name)
			}
		}
	}
}
