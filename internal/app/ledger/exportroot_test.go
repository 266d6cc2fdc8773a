package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/fixtures"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// exportKept is ExportRoot as it was before it streamed: every event
// loaded and kept, checked, then written, the refusals of import
// planned whole (Plan over the lines, as an import into an empty
// memory). TestExportRootSame holds the streamed one to it: both
// report the first event, in log order, that holds a control
// character or that import would refuse.
func exportKept(root string, w *bytes.Buffer) error {
	mem, err := workspace.Load(root)
	if err != nil {
		return err
	}
	if err := mem.Incomplete(); err != nil {
		return err
	}
	var inLog []*parse.Event
	for i := range mem.Events {
		if mem.Events[i].InLog {
			inLog = append(inLog, &mem.Events[i])
		}
	}
	var bad error
	first := len(inLog)
	for i, e := range inLog {
		if line, r, ok := lint.ControlAt(e); ok {
			bad, first = fmt.Errorf("%s:%d: %s holds %s, then export again, %s", e.Range.File, line, e.ID, lint.ControlMessage(r), skipAdvice), i
			break
		}
	}
	var lines bytes.Buffer
	if err := writeIf(&lines, mem.Events, func(e *parse.Event) bool { return e.InLog }); err != nil {
		return err
	}
	none := func(int) (string, string, bool) { return "", "", false }
	if _, err := Plan("l", lines.Bytes(), "evt-001", none, nil, "agent"); err != nil {
		var n int
		if _, serr := fmt.Sscanf(err.Error(), "l:%d:", &n); serr != nil {
			return serr
		}
		if n-1 < first {
			e := inLog[n-1]
			why := strings.TrimPrefix(err.Error(), fmt.Sprintf("l:%d: ", n))
			bad = fmt.Errorf("%s:%d: memsys import would refuse %s: %s; correct the event if it is not committed yet (memsys lint reports it) and export again, %s", e.Range.File, e.Range.Line, e.ID, why, skipAdvice)
		}
	}
	if bad != nil {
		return bad
	}
	w.Write(lines.Bytes())
	return nil
}

// exportMemory is a memory's files by name.
type exportMemory struct {
	name  string
	files map[string][]byte
}

// exportMemories are the memories the export tests run on: every
// testscript and lint rule fixture holding a log (its archive beside
// it), and generated ones: a long history (plain and with issue 12's
// priorities, commitments, closes and Supersedes), with an archive,
// CRLF, events outside the Event Log section, a control character
// (alone, and with an over-long line after it), an over-long line, no
// log at all.
func exportMemories(t *testing.T) []exportMemory {
	var ms []exportMemory
	for _, m := range fixtures.Memories(t, "../../..") {
		ms = append(ms, exportMemory{m.Name, m.Files})
	}
	gen := loggen.Generate(300, 2)
	cut := bytes.Index(gen, []byte("\n### evt-151 "))
	head := "# Changelog\n\n## Event Log\n\n"
	event := func(n int, summary string) string {
		return fmt.Sprintf("### evt-%03d | 2026-01-02 03:04 | a | test\n**Scope**: s\n**Summary**: %s\n\n", n, summary)
	}
	long := strings.Repeat("x", parse.MaxLineLength+10)
	ms = append(ms,
		exportMemory{"generated", map[string][]byte{workspace.LogName: gen}},
		exportMemory{"generated with semantics", map[string][]byte{workspace.LogName: loggen.GenerateSemantic(600, 3)}},
		exportMemory{"generated with an archive", map[string][]byte{
			workspace.LogName:         append([]byte(head), gen[cut+1:]...),
			workspace.ArchiveNames[0]: gen[:cut+1],
		}},
		exportMemory{"CRLF", map[string][]byte{workspace.LogName: bytes.ReplaceAll(gen[:cut+1], []byte("\n"), []byte("\r\n"))}},
		exportMemory{"before the Event Log", map[string][]byte{workspace.LogName: []byte("# Changelog\n\n" + event(1, "outside") + "## Event Log\n\n" + event(2, "inside"))}},
		exportMemory{"control", map[string][]byte{workspace.LogName: []byte(head + event(1, "fine") + event(2, "bell \a here") + event(3, "tab \x01"))}},
		exportMemory{"control, then an over-long line", map[string][]byte{workspace.LogName: []byte(head + event(1, "bell \a") + event(2, long))}},
		exportMemory{"over-long line", map[string][]byte{workspace.LogName: []byte(head + event(1, long) + event(2, "after"))}},
		exportMemory{"no log", map[string][]byte{}},
		// IDs out of order: evt-002 and evt-001 import as evt-001 and
		// evt-002, so the ref and the closes after them, on events whose
		// IDs are the next ones, name renamed lines.
		exportMemory{"renamed", map[string][]byte{workspace.LogName: []byte(head +
			canonical("evt-002", "commitment", "open A", "", "none") +
			canonical("evt-001", "commitment", "open B", "", "none") +
			canonical("evt-003", "test", "refers", "", "evt-002") +
			canonical("evt-004", "milestone", "closes", "- closes: evt-001\n", "none"))}},
	)
	return ms
}

// canonical is an event as memsys renders it (memory.Render), with
// details (bullet lines) and refs, and the blank line after it.
func canonical(id, typ, summary, details, refs string) string {
	if details != "" {
		details = "**Details**:\n" + details + "\n"
	}
	return fmt.Sprintf("### %s | 2026-01-02 03:04 | a | %s\n\n**Scope**: s\n**Summary**: %s\n\n%s**Refs**: %s\n**Tags**: none\n\n", id, typ, summary, details, refs)
}

// TestExportRootSame checks that the streamed export writes the bytes,
// or fails with the error, of the export that kept every event, on
// every memory of exportMemories.
func TestExportRootSame(t *testing.T) {
	ms := exportMemories(t)
	nonEmpty, failed := 0, 0
	for _, m := range ms {
		root := t.TempDir()
		for name, data := range m.files {
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var got, want bytes.Buffer
		err, wantErr := ExportRoot(root, &got), exportKept(root, &want)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%s: error %v, want %v", m.name, err, wantErr)
			continue
		}
		if err != nil {
			failed++
			if got.Len() != 0 {
				t.Errorf("%s: %v, and wrote %d bytes", m.name, err, got.Len())
			}
			continue
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: streamed export differs from the kept one\n got: %.400q\nwant: %.400q", m.name, got.Bytes(), want.Bytes())
		}
		if want.Len() > 0 {
			nonEmpty++
			// What export writes, import takes: into an empty memory,
			// every line (docs/agents.md, "memsys export").
			empty := t.TempDir()
			if err := os.WriteFile(filepath.Join(empty, workspace.LogName), []byte("# Changelog\n\n## Event Log\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Import(empty, "export.jsonl", got.Bytes(), "agent", false); err != nil {
				t.Errorf("%s: export wrote a ledger import refuses: %v", m.name, err)
			}
		}
	}
	// The corpus must exercise both sides: a test that compared only
	// empty outputs or only errors would prove nothing.
	if nonEmpty < 100 || failed < 4 {
		t.Errorf("%d memories exported lines and %d failed, want at least 100 and 4", nonEmpty, failed)
	}
	t.Logf("%d memories: %d exported lines, %d failed alike", len(ms), nonEmpty, failed)
}

// TestProblemInside: export checks an event against the log's parse
// only when no parse problem falls inside it; the guard must see a
// problem on any line of a checked event, in its own file only.
func TestProblemInside(t *testing.T) {
	checked := map[string][]span{"CHANGELOG.md": {{5, 18}, {20, 31}}, "changelog-archive.md": {{3, 9}}}
	at := func(file string, line int) *parse.Log {
		return &parse.Log{Problems: []parse.Problem{{Range: diag.Range{File: file, Line: line}}}}
	}
	for _, tc := range []struct {
		file string
		line int
		want bool
	}{
		{"CHANGELOG.md", 4, false}, {"CHANGELOG.md", 5, true}, {"CHANGELOG.md", 18, true},
		{"CHANGELOG.md", 19, false}, {"CHANGELOG.md", 20, true}, {"CHANGELOG.md", 31, true},
		{"CHANGELOG.md", 32, false}, {"changelog-archive.md", 9, true}, {"changelog-archive.md", 10, false},
		{"other.md", 6, false},
	} {
		if got := problemInside(checked, nil, at(tc.file, tc.line)); got != tc.want {
			t.Errorf("%s:%d: got %v, want %v", tc.file, tc.line, got, tc.want)
		}
	}
}
