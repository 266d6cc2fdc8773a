package memory

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// keptSnapshot is Snapshot as it was before it streamed the history:
// the whole history loaded, cut at --at, replayed by EntitySnapshot.
// It is the reference the streaming Snapshot must match.
func keptSnapshot(root, entity, atID string) (*materialize.Snapshot, error) {
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

// upTo cuts events after the first event numbered as atID.
func upTo(evs []parse.Event, atID string) ([]parse.Event, error) {
	if atID == "" {
		return evs, nil
	}
	n, ok := parse.EventNum(atID)
	if !ok {
		return nil, ErrNotEventID(inAt.Name(), atID)
	}
	for i := range evs {
		if evs[i].Num == n {
			return evs[:i+1], nil
		}
	}
	return nil, ErrNoSuchEvent(inAt.Name(), atID)
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
// with no --at, at several events (first, every step-th, last), a
// malformed one and a missing one. It returns the number of answers
// compared.
func checkSnapshotSame(t *testing.T, name, root string, step int) int {
	t.Helper()
	names := []string{"no_such_entity", "Upload Handler"}
	ats := []string{"", "evt-x", "evt-99999"}
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
	for _, at := range ats {
		for _, e := range names {
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
	var ars []string
	for _, glob := range []string{"../../../testscripts/*.txtar", "../../../lint/testdata/rules/*.txtar"} {
		m, err := filepath.Glob(glob)
		if err != nil || len(m) == 0 {
			t.Fatalf("no fixtures at %s", glob)
		}
		ars = append(ars, m...)
	}
	fixtures, answers := 0, 0
	for _, file := range ars {
		a, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if path.Base(f.Name) != workspace.LogName {
				continue
			}
			dir := t.TempDir()
			writeMemory(t, dir, f.Data, nil)
			for _, g := range a.Files {
				if path.Dir(g.Name) == path.Dir(f.Name) && slices.Contains(workspace.ArchiveNames, path.Base(g.Name)) {
					if err := os.WriteFile(filepath.Join(dir, path.Base(g.Name)), g.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			answers += checkSnapshotSame(t, filepath.Base(file)+":"+f.Name, dir, 3)
			fixtures++
		}
	}
	gen := string(loggen.GenerateSemantic(300, 5))
	arch := strings.Replace(string(loggen.GenerateSemantic(60, 6)), "## Event Log", "## Archive: evt-001 through evt-060", 1)
	// The log continues the archive's numbering.
	logAfter := string(loggen.GenerateSemantic(360, 6))
	cut := strings.Index(logAfter, "\n### evt-061 ")
	logAfter = logAfter[:strings.Index(logAfter, "## Event Log")+len("## Event Log\n")] + logAfter[cut:]
	cases := []struct{ name, log, arch string }{
		{"generated", gen, ""},
		{"generated, plain", string(loggen.Generate(200, 1)), ""},
		{"archive and log", logAfter, arch},
		{"CRLF", strings.ReplaceAll(gen, "\n", "\r\n"), ""},
		{"long line", gen + "\n" + strings.Repeat("z", workspace.MaxLineLength+1), ""},
	}
	for _, c := range cases {
		dir := t.TempDir()
		var a []byte
		if c.arch != "" {
			a = []byte(c.arch)
		}
		writeMemory(t, dir, []byte(c.log), a)
		answers += checkSnapshotSame(t, c.name, dir, 23)
	}
	answers += checkSnapshotSame(t, "missing log", t.TempDir(), 1)
	t.Logf("%d fixture logs, %d answers", fixtures, answers)
	if fixtures < 200 || answers < 5000 {
		t.Errorf("%d fixture logs, %d answers: too few to test the streaming path", fixtures, answers)
	}
}

// BenchmarkSnapshot times memsys snapshot's work at 1k events (loggen
// seed 1, the entity BenchmarkCost looks up) in process: "kept" is the
// load-everything path it replaced, "stream" Snapshot; run with
// -benchmem and compare the two in one run.
func BenchmarkSnapshot(b *testing.B) {
	dir := b.TempDir()
	writeMemory(b, dir, loggen.Generate(1000, 1), nil)
	for _, c := range []struct {
		name string
		f    func(root, entity, at string) (*materialize.Snapshot, error)
	}{{"kept", keptSnapshot}, {"stream", Snapshot}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.f(dir, "upload_handler", ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
