package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// gen120 writes a 120-event log: components comp-01..comp-40, each
// created, modified and deleted in turn, except comp-30, which stays
// active and so pins its creation event (evt-088).
func gen120() []byte {
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Event Log\n")
	n := 0
	ev := func(typ, ent, summary string, refs string) {
		n++
		fmt.Fprintf(&b, "\n---\n\n### evt-%03d | 2026-01-%02d %02d:%02d | agent-%d | %s\n\n**Scope**: %s\n**Summary**: %s\n\n**Details**:\n- entity: %s\n\n**Refs**: %s\n**Tags**: gen\n",
			n, 1+n/24, n%24, n%60, n%3, typ, ent, summary, ent, refs)
	}
	for i := 1; i <= 40; i++ {
		ent := fmt.Sprintf("comp-%02d", i)
		ev("create", ent, "Create "+ent, "none")
		ev("modify", ent, "Change "+ent, fmt.Sprintf("evt-%03d", n))
		if i == 30 {
			ev("modify", ent, "Change "+ent+" again", fmt.Sprintf("evt-%03d", n))
		} else {
			ev("delete", ent, "Retire "+ent, fmt.Sprintf("evt-%03d", n))
		}
	}
	return []byte(b.String())
}

// memsysIn runs memsys in-process with -C dir and returns stdout and
// the exit code.
func memsysIn(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"memsys", "-C", dir}, args...), &out, &errOut)
	if errOut.Len() > 0 {
		t.Logf("memsys %s: stderr: %s", strings.Join(args, " "), errOut.String())
	}
	return out.String(), code
}

func rawEventsOf(t *testing.T, files ...string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		var opts []parse.Option
		if strings.Contains(f, "archive") {
			opts = append(opts, parse.Archive())
		}
		for _, e := range parse.Parse(f, src, opts...).Events {
			out = append(out, string(memory.Raw(src, e)))
		}
	}
	return out
}

// TestArchive120 archives a 120-event log and proves the issue's
// promises: archive plus log hold the original events byte for byte
// and in order, the graph as of the last original event is unchanged,
// regen and lint are clean afterwards, and a second run does nothing.
func TestArchive120(t *testing.T) {
	dir := t.TempDir()
	logPath, archPath := filepath.Join(dir, "CHANGELOG.md"), filepath.Join(dir, "changelog-archive.md")
	if err := os.WriteFile(logPath, gen120(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{".memory/graph.md", ".memory/context.md", "TODO.md"} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(f)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, code := memsysIn(t, dir, "regen"); code != 0 {
		t.Fatalf("regen before archive: exit %d", code)
	}
	orig := rawEventsOf(t, archPath, logPath)
	if len(orig) != 120 {
		t.Fatalf("generated log has %d events", len(orig))
	}
	graphBefore, _ := memsysIn(t, dir, "graph", "--format", "json", "--at", "evt-120")

	out, code := memsysIn(t, dir, "archive")
	if code != 0 {
		t.Fatalf("archive: exit %d", code)
	}
	if want := "moved 89 events (evt-001 through evt-089) to changelog-archive.md\nboundary: evt-090 (evt-090 set the current state of active node \"comp-30\")\narchive event: evt-121\nnext: run memsys regen (.memory/ does not have evt-121 yet), then commit\n"; out != want {
		t.Errorf("archive printed:\n%s\nwant:\n%s", out, want)
	}
	after := rawEventsOf(t, archPath, logPath)
	if len(after) != 121 {
		t.Fatalf("after archive: %d events, want 121", len(after))
	}
	for i := range orig {
		if orig[i] != after[i] {
			t.Fatalf("event %d changed in the move:\n%q\nnow\n%q", i+1, orig[i], after[i])
		}
	}
	if !strings.Contains(after[120], "| archive\n") {
		t.Errorf("last event is not the archive event:\n%s", after[120])
	}
	if graphAfter, _ := memsysIn(t, dir, "graph", "--format", "json", "--at", "evt-120"); graphAfter != graphBefore {
		t.Errorf("graph as of evt-120 changed:\n%s\nwas\n%s", graphAfter, graphBefore)
	}
	if _, code := memsysIn(t, dir, "regen"); code != 0 {
		t.Fatalf("regen after archive: exit %d", code)
	}
	if out, code := memsysIn(t, dir, "lint"); code != 0 {
		t.Errorf("lint after archive: exit %d\n%s", code, out)
	}

	logBytes, _ := os.ReadFile(logPath)
	archBytes, _ := os.ReadFile(archPath)
	out, code = memsysIn(t, dir, "archive")
	if code != 0 || !strings.HasPrefix(out, "nothing to archive") {
		t.Errorf("second archive: exit %d, %q", code, out)
	}
	logAgain, _ := os.ReadFile(logPath)
	archAgain, _ := os.ReadFile(archPath)
	if !bytes.Equal(logBytes, logAgain) || !bytes.Equal(archBytes, archAgain) {
		t.Error("a second archive changed the files")
	}
}
