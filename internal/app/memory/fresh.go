package memory

import (
	"bytes"
	"crypto/sha256"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// GraphFresh reports whether graph, the bytes of .memory/graph.md, are
// exactly what regen would write now from the history mem holds (read
// with workspace.Read, not parsed): the verdict status gives, so that a
// reader that takes the graph from the file instead of replaying
// (recall) never serves rows an event edited in place or a hand edit
// has made stale, which a horizon equal to the last event does not
// show. The history cache's head answers when it covers the whole log
// and renders these bytes; otherwise the file's seal is checked against
// the digest of the events, from a headers-only parse of the bytes mem
// holds, as status checks it. mem is left as it was.
//
// A .memsys.json that does not load is "not known fresh", not an
// error: the seal names the render options, which such a file does not
// give, but the graph does not depend on them, and recall (like loops
// and graph) answers beside a broken file by replaying. Before, recall
// refused only when graph.md was fresh, and answered when it was stale.
func GraphFresh(root string, mem *workspace.Memory, graph []byte) (bool, error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return false, nil
	}
	opt := lint.RenderOptions(cfg)
	// The cache sums the graph as rendered (LF); a CRLF checkout of it
	// is compared as sameText reads it.
	if c, ok := loadCheckpointFrom(root, opt, mem); ok && c.head.HasGraph &&
		len(bytes.TrimSpace(c.suffix())) == 0 && sha256.Sum256(asLF(graph)) == c.head.GraphSum {
		freshHits++
		return true, nil
	}
	src := materialize.NewSourceHasher(opt)
	held := *mem // Stream sets the parsed logs; the caller's mem stays unparsed
	if err := held.Stream(src.Add, parse.HeadersOnly()); err != nil {
		return false, err
	}
	return materialize.Sealed(graph, src.Sum()), nil
}

// freshHits counts GraphFresh verdicts answered by the cache's head,
// for the tests.
var freshHits int
