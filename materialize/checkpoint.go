package materialize

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"fmt"
	"io"
	"sync"

	"github.com/memsys/memsys/internal/base/snapshot"
)

// replayState is everything a Replayer carries from one event to the
// next: the graph and its indexes, and the context digest. The history
// cache stores it after a replay and resumes from it when the log has
// only grown, so replaying the rest gives exactly the files a replay
// from the first event would.
type replayState struct {
	R   *replayer
	D   *digest
	Src []byte // the SourceHasher's state (MarshalBinary of its SHA-256)
}

// MarshalBinary encodes the Replayer's state for the history cache. It
// is the one place the replay state is serialized: internal/base/snapshot
// walks every field of the replayer and the digest, unexported ones
// included, so state added to them later is carried without being
// listed here; a field added to Replayer itself must be added to
// replayState (TestCheckpointCoversReplayer fails until it is).
// It fails, and the cache stays off, for a type the codec cannot encode.
//
// A Replayer that still expects a Supersedes field, or met one it did
// not expect, is not saved: a later event can undo an earlier one's
// effects, so its state depends on events after the checkpoint. Once
// every expected Supersedes field has been met (Exact), it is saved:
// from then on its supersession skips no event (each edge's index is
// below next) and observes no edge, exactly as the empty one a resumed
// Replayer gets, as long as no further Supersedes field comes; one
// that does makes the resumed Replayer inexact, and the history cache
// replays cold (TestCheckpointAfterSupersession).
func (x *Replayer) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	if err := x.EncodeTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// EncodeTo writes MarshalBinary's bytes to w as they are encoded
// (snapshot.EncodeTo), for the history cache, which streams them into
// its entry: the state of a long history is megabytes, and held whole
// every 4 KB of it is a page fault of a short-lived process. It writes
// nothing when the state cannot be saved (Saveable).
func (x *Replayer) EncodeTo(w io.Writer) error {
	if err := x.Saveable(); err != nil {
		return err
	}
	src, err := x.src.MarshalBinary()
	if err != nil {
		return err
	}
	return snapshot.EncodeTo(w, &replayState{x.r, x.d.saved(), src})
}

// Saveable reports why the state cannot be saved (MarshalBinary), nil
// when it can: a caller that writes other bytes before it asks first.
func (x *Replayer) Saveable() error {
	if x.legacy || !x.s.done() {
		return fmt.Errorf("replay checkpoint: a Supersedes field is still to come")
	}
	return nil
}

// MarshalBinary encodes the digest so far, for the history cache: what
// status needs to check the seals without replaying.
func (s *SourceHasher) MarshalBinary() ([]byte, error) {
	m, ok := s.h.(encoding.BinaryMarshaler)
	if !ok {
		return nil, fmt.Errorf("source digest: %T cannot be saved", s.h)
	}
	return m.MarshalBinary()
}

// UnmarshalSourceHasher restores a SourceHasher from MarshalBinary's
// bytes.
func UnmarshalSourceHasher(data []byte) (*SourceHasher, error) {
	h := sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("source digest: %w", err)
	}
	return &SourceHasher{h: h}, nil
}

// UnmarshalReplayer restores a Replayer from MarshalBinary's bytes. The
// caller keys the bytes by the options and the memsys build, so they
// always come from the same code and the same options.
func UnmarshalReplayer(data []byte) (*Replayer, error) {
	var s replayState
	if err := snapshot.Decode(data, &s); err != nil {
		return nil, err
	}
	if s.R == nil || s.D == nil || s.R.g == nil {
		return nil, fmt.Errorf("replay checkpoint: incomplete state")
	}
	src, err := UnmarshalSourceHasher(s.Src)
	if err != nil {
		return nil, err
	}
	// Only a Replayer past every Supersedes field it expected is saved
	// (MarshalBinary), so the resumed one expects none.
	return &Replayer{r: s.R, d: s.D, src: src, s: newSupersession(nil)}, nil
}

// SourceState is the state of the digest of the events replayed so far
// (SourceHasher.MarshalBinary), for the history cache.
func (x *Replayer) SourceState() ([]byte, error) { return x.src.MarshalBinary() }

// SourceSum is the digest of the events replayed so far (the seal's
// source): a derived file sealed with it is what regen wrote from them
// (Sealed), whatever has been appended since.
func (x *Replayer) SourceSum() []byte { return x.src.Sum() }

// GraphFile is graph.md as Files renders and seals it, alone: a caller
// that needs one file (the core tier writes only context.md; the
// history cache sums only what the tier writes) need not render the
// other, which at 100k events is the larger cost.
func (x *Replayer) GraphFile() []byte { return sealOwned(RenderGraph(x.r.graph()), x.src.Sum()) }

// GraphMatches reports whether file is byte for byte what GraphFile
// returns, comparing as it renders instead of building the file (4 MB
// at 100k events): lint's drift rule needs the file only when it
// differs. With context it also returns ContextFile's bytes, rendered
// beside the comparison, as SealedFiles renders both files.
func (x *Replayer) GraphMatches(file []byte, context bool) (same bool, c []byte) {
	g := x.r.graph()
	src := x.src.Sum()
	var wg sync.WaitGroup
	if context {
		wg.Go(func() { c = sealOwned(RenderContext(x.d.build(g)), src) })
	}
	same = graphMatches(g, file, src)
	wg.Wait()
	return same, c
}

// SealedFiles renders and seals the files asked for, side by side when
// both are (each only reads the graph), as Files does; a file not
// asked for is nil. lint's drift rules use it: the two renders of a
// 100k-event history overlap instead of running one after the other.
func (x *Replayer) SealedFiles(graph, context bool) (g, c []byte) {
	if !graph || !context {
		if graph {
			g = x.GraphFile()
		}
		if context {
			c = x.ContextFile()
		}
		return g, c
	}
	return x.Files()
}

// ContextFile is context.md as Files renders and seals it, alone.
func (x *Replayer) ContextFile() []byte {
	return sealOwned(RenderContext(x.d.build(x.r.graph())), x.src.Sum())
}
