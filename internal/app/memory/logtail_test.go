package memory

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/fixtures"
	"github.com/memsys/memsys/internal/testkit/loggen"
)

// logFilters are the filters the differential tests try on every log:
// each limit alone and with the header filters the tail can apply,
// and some it cannot (which must fall back, and still agree).
func logFilters() []LogFilter {
	var fs []LogFilter
	for _, n := range []int{1, 2, 3, 7, 40} {
		fs = append(fs,
			LogFilter{Limit: n},
			LogFilter{Limit: n, Types: []string{"decision"}},
			LogFilter{Limit: n, Types: []string{" Fix", "create", ""}},
			LogFilter{Limit: n, Agent: "ALICE"},
			LogFilter{Limit: n, Agent: "builder-2", Types: []string{"modify"}},
			LogFilter{Limit: n, Since: "2026-01-01 10:30", Until: "2026-01-02"},
			LogFilter{Limit: n, Until: "2024-01-02"},
			LogFilter{Limit: n, Types: []string{"launch"}}, // unknown: the history decides
			LogFilter{Limit: n, Open: true},
		)
	}
	return append(fs, LogFilter{}, LogFilter{Types: []string{"fix"}})
}

// logResult is what memsys log shows for f on root: the JSON it prints,
// or the error.
func logResult(out []EventLine, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// countedResult is logResult with the count of matches memsys_log
// reports.
func countedResult(out []EventLine, matched int, err error) string {
	if err != nil {
		return logResult(nil, err)
	}
	return fmt.Sprintf("%d matched: %s", matched, logResult(out, nil))
}

// checkLogSame runs every filter on root through LogLines, LogCounted
// and Log and fails where they differ (the events, and for LogCounted
// the count of matches); it returns how many answers came from the
// tail, and how many of those with the count, so a caller can check
// that the fast paths were tested at all.
func checkLogSame(t *testing.T, name, root string) (fast, counted int) {
	t.Helper()
	for _, f := range logFilters() {
		out, matched, err := Log(root, f)
		whole := logResult(out, err)
		got := logResult(LogLines(root, f))
		if got != whole {
			t.Fatalf("%s, filter %+v:\nLogLines: %s\nLog:      %s", name, f, got, whole)
		}
		wholeCounted := countedResult(out, matched, err)
		if got := countedResult(LogCounted(root, f)); got != wholeCounted {
			t.Fatalf("%s, filter %+v:\nLogCounted: %s\nLog:        %s", name, f, got, wholeCounted)
		}
		if tail, _, ok := tailLog(root, f, false); ok {
			fast++
			if got := logResult(tail, nil); got != whole {
				t.Fatalf("%s, filter %+v:\ntail: %s\nLog:  %s", name, f, got, whole)
			}
		}
		if tail, n, ok := tailLog(root, f, true); ok {
			counted++
			if got := countedResult(tail, n, nil); got != wholeCounted {
				t.Fatalf("%s, filter %+v:\ncounted tail: %s\nLog:          %s", name, f, got, wholeCounted)
			}
		}
	}
	return fast, counted
}

// writeMemory writes a log and, unless nil, an archive into dir.
func writeMemory(t testing.TB, dir string, log, arch []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, workspace.LogName), log, 0o644); err != nil {
		t.Fatal(err)
	}
	ap := filepath.Join(dir, workspace.ArchiveNames[0])
	os.Remove(ap)
	if arch != nil {
		if err := os.WriteFile(ap, arch, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLogLinesSame is the differential test of memsys log's two paths:
// on the memory of every testscript and lint rule fixture, and on
// generated logs with fences, comments, sections, CRLF, an archive and
// more, for several limits and filters, with windows small enough that
// the tail is cut, LogLines and its tail answer exactly as Log does.
func TestLogLinesSame(t *testing.T) {
	smallTail(t)
	fast, counted := 0, 0
	check := func(name, dir string) {
		f, c := checkLogSame(t, name, dir)
		fast, counted = fast+f, counted+c
	}
	fixtures := fixtureMemories(t, check)
	gen := string(loggen.Generate(120, 1))
	fence := "```\n### evt-999 | 2026-01-01 10:00 | x | fix\n```\n\n"
	mid := len(gen) / 2
	mid += strings.Index(gen[mid:], "\n### evt-") + 1
	at := func(s string) string { return gen[:mid] + s + gen[mid:] } // before an event in the middle
	arch := []byte("# Archive\n\n## Archive: evt-001 through evt-002\n\n" + event(1, "create") + "\n" + event(2, "fix"))
	cases := []struct {
		name      string
		log, arch string
	}{
		{"generated", gen, ""},
		{"generated, archive", gen, string(arch)},
		{"blank separated", string(genLog(60, "\n")), ""},
		{"few events", string(genLog(3, "\n---\n\n")), string(arch)},
		{"CRLF", strings.ReplaceAll(gen, "\n", "\r\n"), strings.ReplaceAll(string(arch), "\n", "\r\n")},
		{"lone CR above", at("text\rmore\n\n"), ""},
		{"fence above, closed", at(fence), ""},
		{"fence above, open", at("```\n\n"), ""},
		{"comment above, closed", at("<!--\n\n### evt-998 | x\n-->\n\n"), ""},
		{"comment above, open", at("<!--\n\n"), ""},
		{"declaration above", at("<!X\n\n"), ""},
		{"fence in the last event", gen + "\n" + fence, ""},
		{"section after the log", gen + "\n## Notes\n\nfree text\n", ""},
		{"section after the log, then events", gen + "\n## Notes\n\n" + event(200, "fix"), ""},
		{"section above, in an event", at("## Notes\n\n"), ""},
		{"section above, not in an event", strings.Replace(at("### Aside\n\n## Notes\n\n"), "## Event Log", "## Event Log\n\n## Other", 1), ""},
		{"section above, then the log again", at("## Notes\n\n## Events\n\n"), ""},
		{"setext section above, in an event", at("Notes\n-----\n\n"), ""},
		{"setext section above, not in an event", at("### Aside\n\nNotes\n-----\n\n"), ""},
		{"setext event heading above", at("evt-500 | 2026-01-01 10:00 | x | fix\n---\n\n"), ""},
		{"no event log", strings.Replace(gen, "## Event Log", "## Journal", 1), ""},
		{"event log as setext", strings.Replace(gen, "## Event Log", "Event Log\n=========", 1), ""},
		{"event log with closing marks", strings.Replace(gen, "## Event Log", "## Event Log ##", 1), ""},
		{"BOM", "\ufeff" + gen, ""},
		{"BOM inside", at("\ufeff## Notes\n\n"), ""},
		{"level-2 event heading above", at("## evt-600 | 2026-01-01 10:00 | x | fix\n\n"), ""},
		{"long line above", at(strings.Repeat("x", workspace.MaxLineLength+1) + "\n\n"), ""},
		{"long line in the archive", gen, string(arch) + strings.Repeat("y", workspace.MaxLineLength+1) + "\n"},
		{"long line at the end", gen + "\n" + strings.Repeat("z", workspace.MaxLineLength+1), ""},
		{"no final newline", strings.TrimSuffix(gen, "\n"), ""},
		// What memsys_log's count reads above the cut: heading lines
		// that are events the parse keeps, drops, or that no line alone
		// can tell (those must fall back).
		{"bad ID above", at("### evt-abc | 2026-01-01 10:00 | x | fix\n\n### evt- | x\n\n"), ""},
		{"level-4 event heading above", at("#### evt-703 | 2026-01-01 10:00 | alice | fix\n\n"), ""},
		{"closing marks on an event heading above", at("### evt-704 | 2026-01-01 10:00 | alice | decision ###\n\n"), ""},
		{"odd event headings above", at("###\tevt-705 | 2026-01-01 10:00 | ALICE | Fix\n\n### EVT-706 |2026-01-01 10:00|alice|fix|extra\n\n### evt-707 | 2026-01-01 | alice\n\n"), ""},
		{"indented event heading above", at(" ### evt-702 | 2026-01-01 10:00 | alice | fix\n\n"), ""},
		{"event heading without its space above", at("###evt-708 | 2026-01-01 10:00 | alice | fix\n\n"), ""},
		{"event-like text above", at("evt-123 was the cause\n\n"), ""},
		{"event before the log", strings.Replace(gen, "## Event Log", "### evt-709 | 2026-01-01 10:00 | alice | fix\n\n## Event Log", 1), ""},
		{"section above, then an event, then the log", at("## Notes\n\n" + event(701, "fix") + "\n## Event Log\n\n"), ""},
		{"section above, the log again, then an event", at("## Notes\n\n## Event Log\n\n" + event(710, "fix") + "\n"), ""},
		{"archive: fence hiding an event", gen, string(arch) + "\n" + fence},
		{"archive: fence after the events", gen, string(arch) + "\n```\ncode\n```\n"},
		{"archive: comment after the events", gen, string(arch) + "\n<!-- note -->\n"},
		{"archive: comment before an event", gen, string(arch) + "\n<!--\n\n" + event(3, "fix") + "-->\n"},
		{"archive: event before any section", gen, event(7, "decision") + "\n" + string(arch)},
		{"archive: events under another section", gen, string(arch) + "\n## Notes\n\n" + event(3, "decision")},
		{"archive: setext event heading", gen, string(arch) + "\nevt-004 | 2026-01-01 10:00 | alice | fix\n---\n"},
		{"archive: BOM", gen, "\ufeff" + event(5, "fix") + "\n" + string(arch)},
		{"archive: BOM, one event", gen, "\ufeff" + event(5, "fix")},
		{"archive: lone CR", gen, string(arch) + "\ntext\r### evt-005 | 2026-01-01 10:00 | alice | fix\n"},
		{"archive: bad ID", gen, string(arch) + "\n### evt-x | 2026-01-01 10:00 | alice | fix\n"},
		{"archive: no final newline", gen, string(arch) + "\n### evt-006 | 2026-01-01 10:00 | alice | fix"},
		{"archive: generated", gen, strings.Replace(string(loggen.Generate(40, 2)), "## Event Log", "## Archive: evt-001 through evt-040", 1)},
	}
	for _, c := range cases {
		check(c.name, memoryOf(t, c.log, c.arch))
	}
	// Errors before and around the read are Log's.
	dir := t.TempDir()
	writeMemory(t, dir, []byte(gen), nil)
	os.Symlink("nowhere", filepath.Join(dir, workspace.ArchiveNames[0]))
	check("broken archive link", dir)
	check("missing log", t.TempDir())
	t.Logf("%d fixture logs, %d answers from the tail, %d with the count", fixtures, fast, counted)
	if fixtures < 200 || fast < 300 || counted < 250 {
		t.Errorf("%d fixture logs, %d answers from the tail, %d with the count: the fast path is not being tested", fixtures, fast, counted)
	}
}

// TestLogLinesTakesTail checks that the tail is what answers on a
// plain log, and the whole history where it must.
func TestLogLinesTakesTail(t *testing.T) {
	smallTail(t)
	dir := t.TempDir()
	writeMemory(t, dir, loggen.Generate(120, 1), nil)
	for _, c := range []struct {
		f    LogFilter
		tail bool
	}{
		{LogFilter{Limit: 3}, true},
		{LogFilter{Limit: 2, Types: []string{"create", "modify"}, Since: "2024-01-01"}, true},
		{LogFilter{}, false},
		{LogFilter{Limit: 500}, false}, // more than the log holds
		{LogFilter{Limit: 3, At: "evt-50"}, false},
		{LogFilter{Limit: 3, Types: []string{"launch"}}, false},
		{LogFilter{Limit: 3, Since: "never"}, false},
	} {
		if _, _, ok := tailLog(dir, c.f, false); ok != c.tail {
			t.Errorf("filter %+v: from the tail %v, want %v", c.f, ok, c.tail)
		}
	}
}

// TestLogCountedTakesTail checks that memsys_log's count comes from
// the end of the log on a plain log and archive, and from the whole
// history where a line above the tail may be an event no heading line
// alone gives.
func TestLogCountedTakesTail(t *testing.T) {
	smallTail(t)
	gen := string(loggen.Generate(120, 1))
	mid := len(gen) / 2
	mid += strings.Index(gen[mid:], "\n### evt-") + 1
	arch := strings.Replace(string(loggen.Generate(40, 2)), "## Event Log", "## Archive: evt-001 through evt-040", 1)
	for _, c := range []struct {
		name, log, arch string
		tail            bool
	}{
		{"plain", gen, "", true},
		{"archive", gen, arch, true},
		{"archive with a comment after its events", gen, arch + "\n<!-- end -->\n", true},
		{"bad ID above", gen[:mid] + "### evt-x | 2026-01-01 10:00 | a | fix\n\n" + gen[mid:], "", true},
		{"event-like text above", gen[:mid] + "evt-1 was wrong\n\n" + gen[mid:], "", false},
		{"setext event heading in the archive", gen, arch + "\nevt-041 | 2026-01-01 10:00 | a | fix\n---\n", false},
	} {
		dir := t.TempDir()
		var a []byte
		if c.arch != "" {
			a = []byte(c.arch)
		}
		writeMemory(t, dir, []byte(c.log), a)
		if _, _, ok := tailLog(dir, LogFilter{Limit: 3}, true); ok != c.tail {
			t.Errorf("%s: counted from the tail %v, want %v", c.name, ok, c.tail)
		}
		if _, _, ok := tailLog(dir, LogFilter{Limit: 3}, false); !ok {
			t.Errorf("%s: LogLines's answer not from the tail", c.name)
		}
	}
}

// mutateLog makes n random edits of b (bytes changed to ones that
// matter to the block structure, spans cut, spans copied elsewhere).
func mutateLog(r *rand.Rand, b []byte, n int) []byte {
	b = append([]byte(nil), b...)
	for range n {
		p := r.IntN(len(b))
		switch r.IntN(3) {
		case 0:
			b[p] = "#`~<>-=!\n\r x"[r.IntN(12)]
		case 1:
			b = append(b[:p], b[min(p+r.IntN(50), len(b)):]...)
		case 2:
			q := r.IntN(len(b))
			b = append(b[:p], append([]byte(string(b[q:min(q+60, len(b))])), b[p:]...)...)
		}
	}
	return b
}

// archiveBase is a generated archive for the mutation tests: what the
// count of matches reads in full.
func archiveBase() []byte {
	return []byte(strings.Replace(string(loggen.Generate(30, 3)), "## Event Log", "## Archive: evt-001 through evt-030", 1))
}

// mutateArchive returns, by i, no archive, the archive as it is, or
// the archive with random edits.
func mutateArchive(r *rand.Rand, arch []byte, i int) []byte {
	switch i % 3 {
	case 0:
		return nil
	case 1:
		return arch
	}
	return mutateLog(r, arch, 1+r.IntN(4))
}

// FuzzLogLines edits random bytes of a generated log and archive (seed
// picks the edits) and checks that LogLines, LogCounted, their tails
// and Log agree, the count of matches included.
func FuzzLogLines(f *testing.F) {
	for i := range uint64(8) {
		f.Add(i, uint8(1+i%4))
	}
	base, arch := loggen.Generate(60, 1), archiveBase()
	f.Fuzz(func(t *testing.T, seed uint64, edits uint8) {
		smallTail(t)
		r := rand.New(rand.NewPCG(seed, 7))
		dir := t.TempDir()
		writeMemory(t, dir, mutateLog(r, base, 1+int(edits%8)), mutateArchive(r, arch, int(seed%3)))
		checkLogSame(t, fmt.Sprintf("seed %d, %d edits", seed, edits), dir)
	})
}

// TestLogLinesMutations is FuzzLogLines's property over deterministic
// random edits, without the fuzzing engine.
func TestLogLinesMutations(t *testing.T) {
	smallTail(t)
	r := rand.New(rand.NewPCG(3, 4))
	bases := [][]byte{loggen.Generate(60, 1), genLog(30, "\n---\n\n")}
	arch := archiveBase()
	n := 150
	if testing.Short() {
		n = 20
	}
	dir := t.TempDir()
	counted := 0
	for i := range n {
		b := mutateLog(r, bases[i%len(bases)], 1+r.IntN(4))
		a := mutateArchive(r, arch, i/2)
		writeMemory(t, dir, b, a)
		_, c := checkLogSame(t, fmt.Sprintf("mutation %d: %q\narchive %q", i, b, a), dir)
		counted += c
	}
	if counted < n {
		t.Errorf("%d answers with the count from the tail over %d logs: the fast path is not being tested", counted, n)
	}
}

// fixtureMemories writes the memory of every testscript and lint rule
// fixture that holds a log (with the archive beside it, if any) into a
// folder of its own, calls check with the fixture's name and the
// folder, and returns how many it wrote: the differential tests' corpus.
func fixtureMemories(t *testing.T, check func(name, dir string)) int {
	t.Helper()
	ms := fixtures.Memories(t, "../../..")
	for _, m := range ms {
		dir := t.TempDir()
		for name, data := range m.Files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		check(m.Name, dir)
	}
	return len(ms)
}

// memoryOf is a new folder holding log and, unless it is "", the
// archive arch.
func memoryOf(t *testing.T, log, arch string) string {
	t.Helper()
	dir := t.TempDir()
	var a []byte
	if arch != "" {
		a = []byte(arch)
	}
	writeMemory(t, dir, []byte(log), a)
	return dir
}
