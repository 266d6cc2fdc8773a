package materialize

import (
	"bytes"
	"fmt"
	"io"
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
			// Each file alone, as the history cache renders the one its
			// tier writes, is the same.
			if !bytes.Equal(y.GraphFile(), wantG) || !bytes.Equal(y.ContextFile(), wantC) {
				t.Fatalf("seed %d, cut after %d events: GraphFile or ContextFile differs from Files", seed, k)
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
	// s and seen are not carried by design: MarshalBinary saves only a
	// Replayer past every Supersedes field it expected
	// (TestCheckpointAfterSupersession), so a resumed Replayer expects
	// none; legacy is the benchmark's.
	if got := strings.Join(names, ","); got != "r,d,src,s,seen,legacy" {
		t.Errorf("Replayer has fields %s: carry the new ones in replayState and MarshalBinary, then update this list", got)
	}
}

// TestCheckpointAfterSupersession: a replay that still expects a
// Supersedes field is never saved, since a later event would undo an
// earlier one; once every one is met it is, and a resumed replay of
// events without one equals the whole replay, while one over a
// Supersedes field is inexact (the cache then replays cold).
func TestCheckpointAfterSupersession(t *testing.T) {
	ev := func(n int, entity, extra string) string {
		return fmt.Sprintf("### evt-%03d | 2026-01-01 1%d:00 | a | create\n\n**Scope**: %s\n**Summary**: Create %s\n\n**Details**:\n- entity: %s\n\n**Refs**: none\n**Tags**: x\n%s\n", n, n%10, entity, entity, entity, extra)
	}
	src := []byte("# Changelog\n\n## Event Log\n\n" + ev(1, "auth", "") + ev(2, "db", "**Supersedes**: evt-001\n") +
		ev(3, "cache", "") + ev(4, "queue", "") + ev(5, "api", "**Supersedes**: evt-003\n"))
	log := parse.Parse("CHANGELOG.md", src)
	if len(log.Events) != 5 {
		t.Fatalf("parsed %d events, want 5: %v", len(log.Events), log.Problems)
	}
	whole := NewReplayer(Options{})
	whole.Expect(Supersessions(log.Events))
	for i := range log.Events {
		whole.Apply(&log.Events[i])
	}
	wantG, wantC := whole.Files()
	// A replay told of a Supersedes field still to come is not saved.
	early := NewReplayer(Options{})
	early.Expect(Supersessions(log.Events))
	early.Apply(&log.Events[0])
	if _, err := early.MarshalBinary(); err == nil {
		t.Error("a replay expecting a Supersedes field was saved")
	}
	// The checkpoint of a history that ended after cut events, resumed
	// over the rest: exact only when no Supersedes field follows.
	tests := []struct {
		cut    int  // events before the checkpoint
		resume bool // the rest replays exactly from it
	}{
		{0, false},
		{1, false},
		{2, false}, // evt-002's met; evt-005's in the rest
		{4, false},
		{5, true},
	}
	for _, tt := range tests {
		x := NewReplayer(Options{})
		x.Expect(Supersessions(log.Events[:tt.cut]))
		for i := range log.Events[:tt.cut] {
			x.Apply(&log.Events[i])
		}
		data, err := x.MarshalBinary()
		if err != nil {
			t.Fatalf("cut %d: %v", tt.cut, err)
		}
		y, err := UnmarshalReplayer(data)
		if err != nil {
			t.Fatal(err)
		}
		for i := range log.Events[tt.cut:] {
			y.Apply(&log.Events[tt.cut+i])
		}
		if y.Exact() != tt.resume {
			t.Errorf("cut %d: resumed replay exact %v, want %v", tt.cut, y.Exact(), tt.resume)
		}
		if g, c := y.Files(); y.Exact() && (!bytes.Equal(g, wantG) || !bytes.Equal(c, wantC)) {
			t.Errorf("cut %d: resumed replay differs from the whole one", tt.cut)
		}
	}
	// Events without Supersedes after the last one: resumed = whole.
	more := append(append([]byte{}, src...), "\n"+ev(6, "auth", "")+"\n"+ev(7, "db", "")...)
	all := parse.Parse("CHANGELOG.md", more).Events
	w := NewReplayer(Options{})
	w.Expect(Supersessions(all))
	for i := range all {
		w.Apply(&all[i])
	}
	data, err := whole.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	y, err := UnmarshalReplayer(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range all[5:] {
		y.Apply(&all[5+i])
	}
	g1, c1 := y.Files()
	g2, c2 := w.Files()
	if !y.Exact() || !bytes.Equal(g1, g2) || !bytes.Equal(c1, c2) {
		t.Errorf("resumed after every Supersedes: exact %v, graph equal %v, context equal %v", y.Exact(), bytes.Equal(g1, g2), bytes.Equal(c1, c2))
	}
}

// BenchmarkCheckpointDecode is the history cache's cost after an
// append: restoring the replay state of a long history, against
// rendering its files (both once per regen --check), and writing the
// state back (once per run that moved the checkpoint).
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
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if err := x.EncodeTo(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
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

// TestCheckpointRecentSlots cuts a history whose clock jumps back and
// forth after every event: the resumed replay writes the same
// context.md as the whole one, and the checkpoint holds only the
// Recent Changes candidates still live (plus the last event's), as it
// did before the digest began leaving dead slots in place, so a
// checkpoint's bytes do not depend on when top was last compacted.
func TestCheckpointRecentSlots(t *testing.T) {
	steps := make([]byte, 300)
	for i := range steps {
		steps[i] = byte([]int{0x81, 0x90, 0x45, 0x02, 0xf3, 0xa0, 0x80}[i%7])
	}
	evs := historyOf(steps)
	opt := Options{WindowHours: 3, WindowEvents: 2}
	whole := NewReplayer(opt)
	for i := range evs {
		whole.Apply(&evs[i])
	}
	want := whole.ContextFile()
	lazy := false
	for k := range len(evs) + 1 {
		x := NewReplayer(opt)
		for i := range evs[:k] {
			x.Apply(&evs[i])
		}
		s := x.d.saved()
		lazy = lazy || len(s.top) < len(x.d.top)
		for i := range len(s.top) - 1 {
			if s.dead(i, len(s.top)-1, s.from()) {
				t.Fatalf("cut after %d events: checkpoint slot %d is dead", k, i)
			}
		}
		data, err := x.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		y, err := UnmarshalReplayer(data)
		if err != nil {
			t.Fatal(err)
		}
		for i := range evs[k:] {
			y.Apply(&evs[k+i])
		}
		if got := y.ContextFile(); !bytes.Equal(got, want) {
			t.Fatalf("cut after %d events: resumed context.md differs", k)
		}
	}
	if !lazy {
		t.Fatal("no cut left a dead slot in top: the test does not reach the lazy compaction")
	}
}
