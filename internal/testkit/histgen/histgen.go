// Package histgen builds git repositories whose history is a memory's
// CHANGELOG.md growing commit by commit, for the tests and benchmarks
// of memsys audit. A whole history is written by one git fast-import
// process, so thousands of commits cost well under a second of git.
package histgen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
)

// History describes a generated repository: Commits commits on main,
// each appending one event to CHANGELOG.md. Every ArchiveEvery-th
// commit moves all but the last Keep events into changelog-archive.md,
// as `memsys archive` does. The commits numbered Edit, Delete and
// Reorder (if > 0) change committed events: Edit rewrites a line of
// the log's first event, Delete removes its second event, Reorder swaps
// its first two. EditLast rewrites the last line of the previous
// commit's last event while appending, so the new version still starts
// with all but that line. Every MergeEvery-th commit (if > 0) is a
// merge of a side branch that appended the event. CRLF ends every line
// of both files in CR LF.
type History struct {
	Commits, ArchiveEvery, Keep     int
	Edit, Delete, Reorder, EditLast int
	MergeEvery                      int
	CRLF                            bool
}

// Event is the text of generated event n, ending in a newline.
func Event(n int) string {
	return fmt.Sprintf("### evt-%03d | 2025-01-%02d %02d:%02d | agent-%d | modify\n\n**Scope**: module-%d\n**Summary**: change %d to module %d\n\n**Details**:\n- entity: module-%d\n- changes: step %d\n\n**Refs**: none\n**Tags**: gen\n",
		n, 1+n/1440%28, n/60%24, n%60, n%3, n%17, n, n%17, n%17, n)
}

// Build writes the history into a new temporary repository, removed
// when tb ends, and returns its folder.
func (h History) Build(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "memsys-histgen-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	if err := h.Write(dir); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Write writes the history into a new repository in dir.
func (h History) Write(dir string) error {
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
	run := func(stdin []byte, args ...string) error {
		if out, err := g.RunInput(context.Background(), bytes.NewReader(stdin), args...); err != nil {
			return fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
		return nil
	}
	if err := run(nil, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	return run(h.stream(), "fast-import", "--quiet")
}

// stream is the fast-import input of the history.
func (h History) stream() []byte {
	var s bytes.Buffer
	eol := func(t string) string {
		if h.CRLF {
			return strings.ReplaceAll(t, "\n", "\r\n")
		}
		return t
	}
	data := func(b string) { fmt.Fprintf(&s, "data %d\n%s\n", len(b), b) }
	var logEvents []string // events in CHANGELOG.md
	var archive strings.Builder
	for c := 1; c <= h.Commits; c++ {
		if c == h.EditLast && len(logEvents) > 0 {
			last := &logEvents[len(logEvents)-1]
			*last = strings.Replace(*last, "**Tags**: gen\n", "**Tags**: gen, edited\n", 1)
		}
		logEvents = append(logEvents, Event(c))
		archived := false
		if h.ArchiveEvery > 0 && c%h.ArchiveEvery == 0 && len(logEvents) > h.Keep {
			moved := logEvents[:len(logEvents)-h.Keep]
			if archive.Len() == 0 {
				archive.WriteString("# Changelog archive\n")
			}
			fmt.Fprintf(&archive, "\n## Archive: %s through %s | Archived 2025-02-01\n", id(moved[0]), id(moved[len(moved)-1]))
			for _, e := range moved {
				archive.WriteString("\n" + e)
			}
			logEvents = append([]string(nil), logEvents[len(moved):]...)
			archived = true
		}
		if c == h.Edit {
			logEvents[0] = strings.Replace(logEvents[0], "**Summary**: change", "**Summary**: quietly rewritten change", 1)
		}
		if c == h.Delete && len(logEvents) > 2 {
			logEvents = append(logEvents[:1:1], logEvents[2:]...)
		}
		if c == h.Reorder && len(logEvents) > 2 {
			logEvents[0], logEvents[1] = logEvents[1], logEvents[0]
		}
		log := eol("# Changelog\n\n## Event Log\n\n" + strings.Join(logEvents, "\n---\n\n"))
		files := func() {
			s.WriteString("M 100644 inline CHANGELOG.md\n")
			data(log)
			if archived {
				s.WriteString("M 100644 inline changelog-archive.md\n")
				data(eol(archive.String()))
			}
		}
		merge := h.MergeEvery > 0 && c > 1 && c%h.MergeEvery == 0
		if merge {
			// The side branch forks from the previous commit and makes
			// the change; main merges it with the side's files.
			fmt.Fprintf(&s, "commit refs/heads/side\nmark :%d\ncommitter Bo <bo@example.com> %d +0000\n", 1000000+c, 1735689600+c*60-30)
			data(fmt.Sprintf("side %d", c))
			fmt.Fprintf(&s, "from :%d\n", c-1)
			files()
		}
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter Ada <ada@example.com> %d +0000\n", c, 1735689600+c*60)
		data(fmt.Sprintf("commit %d", c))
		if c > 1 {
			fmt.Fprintf(&s, "from :%d\n", c-1)
		}
		if merge {
			fmt.Fprintf(&s, "merge :%d\n", 1000000+c)
		}
		files()
	}
	return s.Bytes()
}

// id is the event ID of an event's text.
func id(event string) string {
	head, _, _ := strings.Cut(strings.TrimPrefix(event, "### "), " |")
	return head
}

// Versions builds a repository whose main branch commits each of logs
// in turn as CHANGELOG.md, and returns its folder: the histories a
// table test spells out by hand.
func Versions(tb testing.TB, logs ...string) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "memsys-histgen-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	var s bytes.Buffer
	for i, log := range logs {
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter Ada <ada@example.com> %d +0000\ndata 9\nversion %d\n", i+1, 1735689600+i*60, i%10)
		if i > 0 {
			fmt.Fprintf(&s, "from :%d\n", i)
		}
		fmt.Fprintf(&s, "M 100644 inline CHANGELOG.md\ndata %d\n%s\n", len(log), log)
	}
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
	for _, step := range []struct {
		in   []byte
		args []string
	}{{nil, []string{"init", "-q", "-b", "main"}}, {s.Bytes(), []string{"fast-import", "--quiet"}}} {
		if out, err := g.RunInput(context.Background(), bytes.NewReader(step.in), step.args...); err != nil {
			tb.Fatalf("git %v: %v\n%s", step.args, err, out)
		}
	}
	return dir
}
