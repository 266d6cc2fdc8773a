package ledger

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/fixtures"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// exportKept is ExportRoot as it was before it streamed: every event
// loaded and kept, checked, then written. TestExportRootSame holds the
// streamed one to it.
func exportKept(root string, w *bytes.Buffer) error {
	mem, err := workspace.Load(root)
	if err != nil {
		return err
	}
	if err := mem.Incomplete(); err != nil {
		return err
	}
	for i := range mem.Events {
		e := &mem.Events[i]
		if !e.InLog {
			continue
		}
		if line, r, ok := lint.ControlAt(e); ok {
			return fmt.Errorf("%s:%d: %s holds %s, then export again", e.Range.File, line, e.ID, lint.ControlMessage(r))
		}
	}
	return writeIf(w, mem.Events, func(e *parse.Event) bool { return e.InLog })
}

// TestExportRootSame checks that the streamed export writes the bytes,
// or fails with the error, of the export that kept every event, on the
// memory of every testscript and lint rule fixture holding a log (its
// archive beside it) and on generated ones: a long history, with an
// archive, CRLF, events outside the Event Log section, a control
// character (alone, and with an over-long line after it), an over-long
// line.
func TestExportRootSame(t *testing.T) {
	type memory struct {
		name  string
		files map[string][]byte
	}
	var ms []memory
	for _, m := range fixtures.Memories(t, "../../..") {
		ms = append(ms, memory{m.Name, m.Files})
	}
	gen := loggen.Generate(300, 2)
	cut := bytes.Index(gen, []byte("\n### evt-151 "))
	head := "# Changelog\n\n## Event Log\n\n"
	event := func(n int, summary string) string {
		return fmt.Sprintf("### evt-%03d | 2026-01-02 03:04 | a | note\n**Scope**: s\n**Summary**: %s\n\n", n, summary)
	}
	long := strings.Repeat("x", parse.MaxLineLength+10)
	ms = append(ms,
		memory{"generated", map[string][]byte{workspace.LogName: gen}},
		memory{"generated with an archive", map[string][]byte{
			workspace.LogName:         append([]byte(head), gen[cut+1:]...),
			workspace.ArchiveNames[0]: gen[:cut+1],
		}},
		memory{"CRLF", map[string][]byte{workspace.LogName: bytes.ReplaceAll(gen[:cut+1], []byte("\n"), []byte("\r\n"))}},
		memory{"before the Event Log", map[string][]byte{workspace.LogName: []byte("# Changelog\n\n" + event(1, "outside") + "## Event Log\n\n" + event(2, "inside"))}},
		memory{"control", map[string][]byte{workspace.LogName: []byte(head + event(1, "fine") + event(2, "bell \a here") + event(3, "tab \x01"))}},
		memory{"control, then an over-long line", map[string][]byte{workspace.LogName: []byte(head + event(1, "bell \a") + event(2, long))}},
		memory{"over-long line", map[string][]byte{workspace.LogName: []byte(head + event(1, long) + event(2, "after"))}},
		memory{"no log", map[string][]byte{}},
	)
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
		}
	}
	// The corpus must exercise both sides: a test that compared only
	// empty outputs or only errors would prove nothing.
	if nonEmpty < 100 || failed < 4 {
		t.Errorf("%d memories exported lines and %d failed, want at least 100 and 4", nonEmpty, failed)
	}
	t.Logf("%d memories: %d exported lines, %d failed alike", len(ms), nonEmpty, failed)
}
