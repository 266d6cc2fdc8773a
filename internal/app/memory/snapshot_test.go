package memory

import (
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// keptSnapshot is Snapshot as it was before it streamed the history:
// the whole history loaded, cut at --at, replayed by EntitySnapshot.
// It is the reference the streaming Snapshot must match.
func keptSnapshot(root, entity, atID string) (*materialize.Snapshot, error) {
	if err := materialize.CheckEntityName(entity); err != nil {
		return nil, err
	}
	atID, err := ResolveAt(root, atID) // as Snapshot reads a date, or refuses what is neither
	if err != nil {
		return nil, err
	}
	mem, err := LoadHistory(root)
	if err != nil {
		return nil, err
	}
	evs, err := upTo(mem.Events, atID)
	if err != nil {
		return nil, err
	}
	s, ok := materialize.EntitySnapshot(evs, entity)
	if !ok {
		g, _ := materialize.Replay(evs)
		return nil, materialize.UnknownEntity(g, entity, cutAt(evs, atID))
	}
	return s, nil
}

// upTo cuts events after the event numbered as atID, and refuses an
// ID two events share.
func upTo(evs []parse.Event, atID string) ([]parse.Event, error) {
	if atID == "" {
		return evs, nil
	}
	n, ok := parse.ArgNum(atID)
	if !ok {
		return nil, ErrNotEventID(inAt.Name(), atID)
	}
	cut := -1
	var places atPlaces // an ID two events share cannot name the cut
	for i := range evs {
		if evs[i].Num == n {
			if cut < 0 {
				cut = i + 1
			}
			places.see(evs[i].Range)
		}
	}
	if cut < 0 {
		return nil, ErrNoSuchEvent(inAt.Name(), atID)
	}
	if err := places.twice(atID); err != nil {
		return nil, err
	}
	return evs[:cut], nil
}

func snapshotResult(s *materialize.Snapshot, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(s)
	return SnapshotMarkdown(s) + string(b)
}

// checkSnapshotSame compares Snapshot with keptSnapshot in root for
// every entity of the history (and an unknown one, and a near miss),
// with no --at, a malformed one and a missing one, and for every
// sample-th entity at several events (first, every step-th, last). It
// returns the number of answers compared.
func checkSnapshotSame(t *testing.T, name, root string, step, sample int) int {
	t.Helper()
	names := []string{"no_such_entity", "Upload Handler"}
	ats := []string{"", "evt-x", "evt-99999", "1"}
	if mem, err := LoadHistory(root); err == nil {
		for _, n := range materialize.ReplayGraph(mem.Events).Nodes {
			names = append(names, n.Name)
		}
		for i := 0; i < len(mem.Events); i += step {
			ats = append(ats, mem.Events[i].ID)
		}
		if len(mem.Events) > 0 {
			ats = append(ats, mem.Events[len(mem.Events)-1].ID)
		}
	}
	n := 0
	for i, at := range ats {
		for j, e := range names {
			if i >= 3 && j%sample != 0 {
				continue
			}
			got, want := snapshotResult(Snapshot(root, e, at)), snapshotResult(keptSnapshot(root, e, at))
			if got != want {
				t.Fatalf("%s: snapshot %q --at %q:\ngot  %s\nwant %s", name, e, at, got, want)
			}
			n++
		}
	}
	return n
}

// TestSnapshotSame is the differential test of memsys snapshot's
// streaming path: on the memory of every testscript and lint rule
// fixture, and on generated logs with supersessions, an archive and
// CRLF, for every entity at several --at points, Snapshot answers
// (markdown, JSON, errors) exactly as the kept load-everything path.
func TestSnapshotSame(t *testing.T) {
	answers := 0
	fixtures := fixtureMemories(t, func(name, dir string) { answers += checkSnapshotSame(t, name, dir, 3, 1) })
	gen := string(loggen.GenerateSemantic(200, 5))
	arch := strings.Replace(string(loggen.GenerateSemantic(60, 6)), "## Event Log", "## Archive: evt-001 through evt-060", 1)
	// The log continues the archive's numbering.
	logAfter := string(loggen.GenerateSemantic(360, 6))
	cut := strings.Index(logAfter, "\n### evt-061 ")
	logAfter = logAfter[:strings.Index(logAfter, "## Event Log")+len("## Event Log\n")] + logAfter[cut:]
	cases := []struct{ name, log, arch string }{
		{"generated", gen, ""},
		{"generated, plain", string(loggen.Generate(120, 1)), ""},
		{"archive and log", logAfter, arch},
		{"CRLF", strings.ReplaceAll(gen, "\n", "\r\n"), ""},
		{"long line", gen + "\n" + strings.Repeat("z", workspace.MaxLineLength+1), ""},
	}
	for _, c := range cases {
		answers += checkSnapshotSame(t, c.name, memoryOf(t, c.log, c.arch), 29, 4)
	}
	answers += checkSnapshotSame(t, "missing log", t.TempDir(), 1, 1)
	t.Logf("%d fixture logs, %d answers", fixtures, answers)
	if fixtures < 200 || answers < 4000 {
		t.Errorf("%d fixture logs, %d answers: too few to test the streaming path", fixtures, answers)
	}
}

// BenchmarkSnapshot times memsys snapshot's work at 1k events (loggen
// seed 1, the entity BenchmarkCost looks up) in process, paired: each
// iteration runs keptSnapshot (load everything, then EntitySnapshot)
// and Snapshot (the stream) back to back, so a burst of load on the
// host hits both, and reports the median time of each, their ratio and
// the bytes and allocations of each per call.
func BenchmarkSnapshot(b *testing.B) {
	dir := b.TempDir()
	writeMemory(b, dir, loggen.Generate(1000, 1), nil)
	benchKeptStream(b, false, 1e3, "kB",
		func() error { _, err := keptSnapshot(dir, "upload_handler", ""); return err },
		func() error { _, err := Snapshot(dir, "upload_handler", ""); return err })
}

// benchKeptStream pairs a command's old path, which kept every event,
// with its streamed one in every iteration, and reports the medians'
// ratio and what each allocated a call (in units of scale bytes, named
// unit). With gc, each call starts from a collected heap.
func benchKeptStream(b *testing.B, gc bool, scale float64, unit string, kept, stream func() error) {
	var keptT, streamT []float64
	var keptB, streamB, keptN, streamN uint64
	var m runtime.MemStats
	run := func(f func() error, ts *[]float64, bytes, allocs *uint64) {
		if gc {
			runtime.GC()
		}
		runtime.ReadMemStats(&m)
		a, n, t := m.TotalAlloc, m.Mallocs, time.Now()
		if err := f(); err != nil {
			b.Fatal(err)
		}
		*ts = append(*ts, float64(time.Since(t)))
		runtime.ReadMemStats(&m)
		*bytes, *allocs = *bytes+m.TotalAlloc-a, *allocs+m.Mallocs-n
	}
	for b.Loop() {
		run(kept, &keptT, &keptB, &keptN)
		run(stream, &streamT, &streamB, &streamN)
	}
	n := float64(len(keptT))
	k, s := medianOf(keptT), medianOf(streamT)
	b.ReportMetric(k/1e6, "kept-ms")
	b.ReportMetric(s/1e6, "stream-ms")
	b.ReportMetric(s/k, "stream/kept")
	b.ReportMetric(float64(keptB)/n/scale, "kept-"+unit)
	b.ReportMetric(float64(streamB)/n/scale, "stream-"+unit)
	b.ReportMetric(float64(keptN)/n, "kept-allocs")
	b.ReportMetric(float64(streamN)/n, "stream-allocs")
}

func medianOf(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
}
