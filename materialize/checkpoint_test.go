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
	// s and seen are not carried by design: MarshalBinary refuses a
	// history with Supersedes fields (TestCheckpointRefusesSupersession),
	// so a resumed Replayer expects none; legacy is the benchmark's.
	if got := strings.Join(names, ","); got != "r,d,src,s,seen,legacy" {
		t.Errorf("Replayer has fields %s: carry the new ones in replayState and MarshalBinary, then update this list", got)
	}
}

// TestCheckpointRefusesSupersession: a replay that saw a Supersedes
// field is never saved, since a later event could undo an earlier one.
func TestCheckpointRefusesSupersession(t *testing.T) {
	src := []byte("# Changelog\n\n## Event Log\n\n" +
		"### evt-001 | 2026-01-01 10:00 | a | create\n\n**Scope**: auth\n**Summary**: Create auth\n\n**Details**:\n- entity: auth\n\n**Refs**: none\n**Tags**: x\n\n" +
		"### evt-002 | 2026-01-01 11:00 | a | create\n\n**Scope**: db\n**Summary**: Create db\n\n**Details**:\n- entity: db\n\n**Refs**: none\n**Tags**: x\n**Supersedes**: evt-001\n")
	log := parse.Parse("CHANGELOG.md", src)
	if len(log.Events) != 2 {
		t.Fatalf("parsed %d events, want 2: %v", len(log.Events), log.Problems)
	}
	x := NewReplayer(Options{})
	x.Expect(Supersessions(log.Events))
	for i := range log.Events {
		x.Apply(&log.Events[i])
	}
	if _, err := x.MarshalBinary(); err == nil {
		t.Fatal("a replay with a Supersedes field was saved")
	}
	y := NewReplayer(Options{})
	y.Apply(&log.Events[0])
	data, err := y.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	z, err := UnmarshalReplayer(data)
	if err != nil {
		t.Fatal(err)
	}
	if !z.Exact() {
		t.Fatal("a resumed replay expects Supersedes fields")
	}
}

// BenchmarkCheckpointDecode is the history cache's cost after an
// append: restoring the replay state of a long history, against
// rendering its files (both once per regen --check).
func BenchmarkCheckpointDecode(b *testing.B) {
	evs := parse.Parse("CHANGELOG.md", loggen.Generate(20000, 1)).Events
	x := NewReplayer(DefaultOptions())
	for i := range evs {
		x.Apply(&evs[i])
	}
	data, err := x.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := UnmarshalReplayer(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("render", func(b *testing.B) {
		for b.Loop() {
			x.Files()
		}
	})
}
