package materialize

import (
	"fmt"

	"github.com/memsys/memsys/internal/base/snapshot"
)

// replayState is everything a Replayer carries from one event to the
// next: the graph and its indexes, and the context digest. The history
// cache stores it after a replay and resumes from it when the log has
// only grown, so replaying the rest gives exactly the files a replay
// from the first event would.
type replayState struct {
	R *replayer
	D *digest
}

// MarshalBinary encodes the Replayer's state for the history cache. It
// is the one place the replay state is serialized: internal/base/snapshot
// walks every field, unexported ones included, so state added to the
// replayer or the digest later is carried without being listed here.
// It fails, and the cache stays off, for a type the codec cannot encode.
func (x *Replayer) MarshalBinary() ([]byte, error) {
	return snapshot.Encode(&replayState{x.r, x.d})
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
	return &Replayer{r: s.R, d: s.D}, nil
}
