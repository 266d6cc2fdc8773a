package materialize

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestCheckpointResume checks the history cache's promise at the
// replay level: replaying the first k events, checkpointing, restoring
// and replaying the rest renders byte for byte what one replay of every
// event renders, wherever the history is cut.
func TestCheckpointResume(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		evs := parse.Parse("CHANGELOG.md", loggen.Generate(400, seed)).Events
		whole := NewReplayer(DefaultOptions())
		for i := range evs {
			whole.Apply(&evs[i])
		}
		wantG, wantC := whole.Files()
		for _, k := range []int{0, 1, 2, 50, 199, 398, 399, 400} {
			x := NewReplayer(DefaultOptions())
			for i := range evs[:k] {
				x.Apply(&evs[i])
			}
			data, err := x.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			// The original goes on changing; the checkpoint must not.
			for i := range evs[k:] {
				x.Apply(&evs[k+i])
			}
			y, err := UnmarshalReplayer(data)
			if err != nil {
				t.Fatal(err)
			}
			for i := range evs[k:] {
				y.Apply(&evs[k+i])
			}
			g, c := y.Files()
			if !bytes.Equal(g, wantG) || !bytes.Equal(c, wantC) {
				t.Fatalf("seed %d, cut after %d events: resumed replay differs (graph equal %v, context equal %v)", seed, k, bytes.Equal(g, wantG), bytes.Equal(c, wantC))
			}
		}
	}
}

func TestCheckpointCorrupt(t *testing.T) {
	x := NewReplayer(DefaultOptions())
	evs := parse.Parse("CHANGELOG.md", loggen.Generate(20, 1)).Events
	for i := range evs {
		x.Apply(&evs[i])
	}
	data, _ := x.MarshalBinary()
	for _, b := range [][]byte{nil, data[:len(data)/2], append(append([]byte{}, data...), 1)} {
		if _, err := UnmarshalReplayer(b); err == nil {
			t.Errorf("%d bytes of a %d-byte checkpoint restored", len(b), len(data))
		}
	}
}

// TestCheckpointCoversReplayer fails when a field is added to Replayer:
// replayState (checkpoint.go) must carry it too, or a resumed replay
// would lose it.
func TestCheckpointCoversReplayer(t *testing.T) {
	var names []string
	rt := reflect.TypeOf(Replayer{})
	for i := range rt.NumField() {
		names = append(names, rt.Field(i).Name)
	}
	if got := strings.Join(names, ","); got != "r,d,src" {
		t.Errorf("Replayer has fields %s: carry the new ones in replayState and MarshalBinary, then update this list", got)
	}
}
