package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/parse"
)

const log1 = "# Changelog\n\n## Event Log\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Scope**: s\n**Summary**: x\n"

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFindRoot(t *testing.T) {
	top := t.TempDir()
	write(t, filepath.Join(top, ".git", "HEAD"), "")
	write(t, filepath.Join(top, LogName), log1)
	write(t, filepath.Join(top, "sub", LogName), "# Changelog of a package, no event log\n")
	deep := filepath.Join(top, "sub", "a", "b")
	os.MkdirAll(deep, 0o755)
	got, err := FindRoot(deep, false)
	if err != nil || got != top {
		t.Errorf("FindRoot(deep) = %q, %v; want %q", got, err, top)
	}
	if got, err := FindRoot(deep, true); err != nil || got != deep {
		t.Errorf("explicit: %q, %v", got, err)
	}
	if _, err := FindRoot(filepath.Join(top, "nope"), true); err == nil {
		t.Error("explicit missing dir accepted")
	}
	if _, err := FindRoot(filepath.Join(top, LogName), true); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("explicit file: %v", err)
	}
	// Without any event log, the nearest CHANGELOG.md; without any
	// CHANGELOG.md, the start folder.
	lone := t.TempDir()
	write(t, filepath.Join(lone, ".git", "HEAD"), "")
	write(t, filepath.Join(lone, "pkg", LogName), "# Release notes\n")
	os.MkdirAll(filepath.Join(lone, "pkg", "x"), 0o755)
	if got, _ := FindRoot(filepath.Join(lone, "pkg", "x"), false); got != filepath.Join(lone, "pkg") {
		t.Errorf("no event log anywhere: %q", got)
	}
	os.MkdirAll(filepath.Join(lone, "other"), 0o755)
	if got, _ := FindRoot(filepath.Join(lone, "other"), false); got != filepath.Join(lone, "other") {
		t.Errorf("no log anywhere: %q", got)
	}
	// The walk stops at the repository root.
	inner := filepath.Join(top, "repo2")
	write(t, filepath.Join(inner, ".git", "HEAD"), "")
	if got, err := FindRoot(inner, false); err != nil || got != inner {
		t.Errorf("walk crossed the repository root: %q, %v", got, err)
	}
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "CHANGELOG.md: no such file") {
		t.Errorf("missing log: %v", err)
	}
	os.Mkdir(filepath.Join(root, LogName), 0o755)
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("log is a directory: %v", err)
	}
	os.Remove(filepath.Join(root, LogName))
	write(t, filepath.Join(root, LogName), strings.Replace(log1, "evt-001", "evt-002", 1))
	write(t, filepath.Join(root, "changelog-archive.md"), "# Archive\n\n## Archive: evt-001 through evt-001 | Archived 2026-01-01\n\n"+log1[len("# Changelog\n\n## Event Log\n\n"):])
	m, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Events) != 2 || m.Events[0].ID != "evt-001" || m.Events[1].ID != "evt-002" || m.ArchivePath != "changelog-archive.md" {
		t.Errorf("events %d, archive %q", len(m.Events), m.ArchivePath)
	}
	if m.Tier != MVP {
		t.Errorf("tier %s", m.Tier)
	}
	// Stream hands over the same history, archive first, keeping none.
	var ids []string
	sm, err := Stream(root, func(e *parse.Event) { ids = append(ids, e.ID) })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ids, ",") != "evt-001,evt-002" || sm.Events != nil || len(sm.Log.Events) != 0 || sm.Archive == nil {
		t.Errorf("Stream: events %q, kept %d", ids, len(sm.Events))
	}
	os.Mkdir(filepath.Join(root, MemoryDir), 0o755)
	if DetectTier(root) != Core {
		t.Errorf("with .memory: %s", DetectTier(root))
	}
	write(t, filepath.Join(root, TodoName), "")
	if DetectTier(root) != Full {
		t.Errorf("with TODO.md: %s", DetectTier(root))
	}
}

func TestSymlinksOutside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(outside, "x.md"), log1)
	os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(root, LogName))
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "outside the memory root") {
		t.Errorf("log symlinked outside: %v", err)
	}
	os.Symlink(outside, filepath.Join(root, MemoryDir))
	if err := WriteFile(root, GraphPath, []byte("x")); err == nil {
		t.Error("wrote through .memory symlinked outside")
	}
	if _, err := os.Stat(filepath.Join(outside, GraphName)); err == nil {
		t.Error("a file was created outside the root")
	}
	if err := WriteFile(root, "../escape.md", []byte("x")); err == nil {
		t.Error("wrote to ../")
	}
	// The archive, and a derived file, symlinked outside.
	arch := t.TempDir()
	write(t, filepath.Join(arch, LogName), log1)
	os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(arch, ArchiveNames[1]))
	if _, err := Load(arch); err == nil || !strings.Contains(err.Error(), ArchiveNames[1]+": symlink to") {
		t.Errorf("archive symlinked outside: %v", err)
	}
	write(t, filepath.Join(arch, MemoryDir, "keep"), "")
	os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(arch, ContextPath))
	if _, err := ReadFile(arch, ContextPath); err == nil {
		t.Error("read context.md through a symlink outside")
	}
	if err := WriteFile(arch, ContextPath, []byte("x")); err == nil {
		t.Error("wrote context.md through a symlink outside")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "x.md")); string(b) != log1 {
		t.Errorf("the file outside changed: %q", b)
	}
	// A link that stays inside the root is fine.
	in := t.TempDir()
	write(t, filepath.Join(in, "real.md"), log1)
	os.Symlink(filepath.Join(in, "real.md"), filepath.Join(in, LogName))
	if _, err := Load(in); err != nil {
		t.Errorf("symlink inside root: %v", err)
	}
	// Writing replaces the link itself; its target keeps its bytes.
	if err := WriteFile(in, LogName, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(in, LogName)); !fi.Mode().IsRegular() {
		t.Error("the link was written through, not replaced")
	}
	if b, _ := os.ReadFile(filepath.Join(in, "real.md")); string(b) != log1 {
		t.Errorf("the link's target changed: %q", b)
	}
}

func TestWriteFileAtomic(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, MemoryDir, GraphName)
	write(t, filepath.Join(root, MemoryDir, ".memsys-tmp-graph.md-123"), "stale")
	if err := WriteFile(root, GraphPath, []byte("one")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(p, 0o600)
	if err := WriteFile(root, GraphPath, []byte("two")); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
	ents, _ := os.ReadDir(filepath.Join(root, MemoryDir))
	if len(ents) != 1 {
		t.Errorf("temporary files left: %v", ents)
	}
	if !Equal(root, GraphPath, []byte("two")) || Equal(root, GraphPath, []byte("one")) {
		t.Error("Equal")
	}
}

func TestLockExcludes(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, LogName), []byte("# Changelog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	inside, maxInside := 0, 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := Lock(root)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			maxInside = max(maxInside, inside)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	if maxInside != 1 {
		t.Errorf("%d holders at once", maxInside)
	}
}

func TestIncomplete(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, LogName), log1)
	m, err := Load(root)
	if err != nil || m.Incomplete() != nil {
		t.Fatalf("clean log: %v, %v", err, m.Incomplete())
	}
	long := log1 + "\n### evt-002 | 2026-01-01 11:00 | a | fix\n\n**Summary**: " + strings.Repeat("x", MaxLineLength) + "\n"
	write(t, filepath.Join(root, LogName), long)
	if m, err = Load(root); err != nil {
		t.Fatal(err)
	}
	err = m.Incomplete()
	if err == nil || !strings.HasPrefix(err.Error(), "CHANGELOG.md:12:") || !strings.Contains(err.Error(), "limit") {
		t.Errorf("long line: %v", err)
	}
}

func TestLimitsRefused(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, LogName)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: the size check must refuse it before reading.
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), "MiB limit") {
		t.Errorf("oversized log: %v", err)
	}
}

// TestHasEventLogReadsTheHead checks that the root search stops at the
// heading: a log far over MaxFileSize (a sparse file, nothing on disk)
// whose heading is at the top is found without reading the rest, and
// Load's size limit then gives the one clear error.
func TestHasEventLogReadsTheHead(t *testing.T) {
	p := filepath.Join(t.TempDir(), LogName)
	write(t, p, "# Changelog\n\n## Event Log\n\n")
	if err := os.Truncate(p, 4*MaxFileSize); err != nil {
		t.Fatal(err)
	}
	if !hasEventLog(p) {
		t.Error("heading at the top of a huge file not found")
	}
	cases := []struct {
		line string
		want bool
	}{
		{"## Event Log", true}, {"## event log  ", true}, {"# Events", true},
		{"Events", true}, {"## Event Logs", false}, {"##", false}, {"", false},
		{"### evt-001 | x", false},
	}
	for _, c := range cases {
		if got := isEventLogHeading([]byte(c.line)); got != c.want {
			t.Errorf("isEventLogHeading(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}

// TestCPUProfile checks that the profile is a gzip-compressed pprof
// file once stopped, and that an uncreatable path is one clear error.
func TestCPUProfile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "cpu.out")
	stop, err := CPUProfile("--cpuprofile ", p)
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile does not start with gzip's magic: % x", b[:min(len(b), 8)])
	}
	if _, err := CPUProfile("MEMSYS_CPUPROFILE=", filepath.Join(p, "x")); err == nil || !strings.HasPrefix(err.Error(), "MEMSYS_CPUPROFILE="+filepath.Join(p, "x")+": cannot create") {
		t.Errorf("profile under a file: %v", err)
	}
}

// TestAppendJournal checks the append journal: a write cut short
// (as a kill at a page boundary or a power loss may leave it) is
// removed by the next writer to take the lock, a whole one and an untouched log are
// left alone, and a journal that no longer describes the log (the log
// was rewritten since) changes nothing.
func TestAppendJournal(t *testing.T) {
	const old = "# Changelog\n\n## Event Log\n\n### evt-001 | x\n"
	const event = "\n---\n\n### evt-002 | 2026-01-01 10:00 | a | fix\n\n**Scope**: s\n**Summary**: y\n"
	anchor := old[len(old)-20:]
	journal := fmt.Sprintf("%s%d\n%d\n%d\n%s%s", journalMagic, len(old), len(anchor), len(event), anchor, event)
	cases := []struct {
		name, log, journal, want, note string
	}{
		{"cut short", old + event[:20], journal, old, "removed the partial event (20 of"},
		{"one byte written", old + event[:1], journal, old, "removed the partial event (1 of"},
		{"nothing written", old, journal, old, ""},
		{"all written", old + event, journal, old + event, ""},
		{"rewritten since", "# Changelog\n\n## Event Log\n\n### evt-001 | y\n" + event[:5], journal, "# Changelog\n\n## Event Log\n\n### evt-001 | y\n" + event[:5], ""},
		{"journal cut while written", old + event[:20], journal[:len(journal)-3], old + event[:20], ""},
		{"no journal", old + event[:20], "", old + event[:20], ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, filepath.Join(root, LogName), c.log)
			write(t, filepath.Join(root, LockName), c.journal)
			unlock, note, err := LockRecover(root)
			if err != nil {
				t.Fatal(err)
			}
			defer unlock()
			f, err := OpenLog(root, LogName)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got, _ := os.ReadFile(filepath.Join(root, LogName)); string(got) != c.want {
				t.Errorf("log after LockRecover:\n%q\nwant\n%q", got, c.want)
			}
			if c.note == "" && note != "" || !strings.Contains(note, c.note) {
				t.Errorf("note %q, want %q", note, c.note)
			}
			if j, _ := os.ReadFile(filepath.Join(root, LockName)); len(j) != 0 {
				t.Errorf("journal left: %q", j)
			}
			if f.Size() != int64(len(c.want)) {
				t.Errorf("Size() = %d, want %d", f.Size(), len(c.want))
			}
			// An append after recovery lands at the end, and clears
			// its journal.
			if err := f.Append(root, []byte("tail\n")); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(filepath.Join(root, LogName)); string(got) != c.want+"tail\n" {
				t.Errorf("after Append: %q", got)
			}
			if j, _ := os.ReadFile(filepath.Join(root, LockName)); len(j) != 0 {
				t.Errorf("journal left after Append: %q", j)
			}
		})
	}
}

// TestLockNoMemory: a folder without a log is not a memory; Lock fails
// as reading the log would and leaves no lock file behind, while
// LockInit (for init) locks it.
func TestLockNoMemory(t *testing.T) {
	root := t.TempDir()
	if _, err := Lock(root); err == nil || !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Lock without a log: err = %v, want a missing-log error", err)
	}
	if _, err := os.Stat(filepath.Join(root, LockName)); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Lock without a log left %s behind (stat: %v)", LockName, err)
	}
	unlock, err := LockInit(root)
	if err != nil {
		t.Fatal(err)
	}
	unlock()
}

func TestDisplayError(t *testing.T) {
	root := filepath.Join(t.TempDir(), "repo")
	abs := filepath.Join(root, ".memsys.json")
	cfgErr := &config.Error{File: abs, Line: 3, Msg: "unknown key"}
	for _, tc := range []struct {
		base string
		err  error
		want string
	}{
		{root, cfgErr, ".memsys.json:3: unknown key"},
		{filepath.Join(root, "sub"), cfgErr, "../.memsys.json:3: unknown key"},
		{filepath.Join(root, "sub"), fmt.Errorf("evt-001 was appended; regen failed: %w", cfgErr), "evt-001 was appended; regen failed: ../.memsys.json:3: unknown key"},
		{root, &config.Error{File: ".memsys.json", Line: 1, Msg: "staged"}, ".memsys.json:1: staged"},
		{root, errors.New(abs + ": other"), abs + ": other"},
	} {
		if got := DisplayError(tc.base, tc.err); got != tc.want {
			t.Errorf("DisplayError(%s, %v) = %q, want %q", tc.base, tc.err, got, tc.want)
		}
	}
}
