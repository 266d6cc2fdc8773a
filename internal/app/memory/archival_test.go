package memory

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
	"github.com/memsys/memsys/templates"
)

// TestArchiveMovesResumesAndRefuses runs the whole protocol on a folder:
// a dry run writes nothing, a run moves and verifies, a run killed
// between its two writes is finished by the next, and an overlap left
// by a hand edit is refused.
func TestArchiveMovesResumesAndRefuses(t *testing.T) {
	root := t.TempDir()
	logPath, archPath := filepath.Join(root, parse.LogFile), filepath.Join(root, parse.ArchiveFile)
	src := retiringLog()
	write(t, root, parse.LogFile, string(src))
	opt := ArchiveOptions{Threshold: 50, Keep: 20, Agent: "a"}

	dry := opt
	dry.DryRun = true
	res, err := Archive(root, dry)
	// The dry run names the archive event the real run appends.
	if err != nil || len(res.Moved) != 40 || res.ArchiveEvent != "evt-061" {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if got, _ := os.ReadFile(logPath); !bytes.Equal(got, src) {
		t.Fatal("a dry run changed the log")
	}

	res, err = Archive(root, opt)
	if err != nil || len(res.Moved) != 40 || res.ArchiveEvent != "evt-061" || res.Boundary != "evt-041" {
		t.Fatalf("archive: %+v, %v", res, err)
	}
	var text strings.Builder
	res.WriteText(&text, front.CLI)
	if !strings.HasPrefix(text.String(), "moved 40 events (evt-001 through evt-040) to changelog-archive.md\n") {
		t.Errorf("text: %q", text.String())
	}
	newLog, _ := os.ReadFile(logPath)
	newArch, _ := os.ReadFile(archPath)

	// Killed between the writes: the archive is new, the log still old.
	// With the same flags the finished run is the run that was killed,
	// archive event and all (its reason was "finishing an interrupted
	// archive: ...", where the uninterrupted run's says why).
	write(t, root, parse.LogFile, string(src))
	reason := res.Reason
	if st, err := Status(root); err != nil || st.ArchivePlan == nil || st.ArchivePlan.Interrupted != "evt-001 through evt-040" {
		t.Errorf("status on the interrupted archive: %+v, %v", st.ArchivePlan, err)
	}
	res, err = Archive(root, opt)
	if err != nil || res.Reason != reason || len(res.Moved) != 40 {
		t.Fatalf("resume: %+v, %v", res, err)
	}
	resumed, _ := os.ReadFile(logPath)
	evs := parse.Parse(parse.LogFile, resumed).Events
	if len(evs) != 21 || evs[0].ID != "evt-041" || evs[19].ID != "evt-060" || evs[20].Type != "archive" {
		t.Errorf("resumed log holds %d events, from %s", len(evs), evs[0].ID)
	}
	if !bytes.Equal(resumed, newLog) {
		t.Error("the resumed archive wrote other bytes than the uninterrupted one")
	}
	if got, _ := os.ReadFile(archPath); !bytes.Equal(got, newArch) {
		t.Error("the resumed archive changed the archive")
	}

	// Finished with another keep, the plan is not the killed run's, and
	// its reason cannot be known: the event says what it finished.
	write(t, root, parse.LogFile, string(src))
	res, err = Archive(root, ArchiveOptions{Threshold: 50, Keep: 10, Agent: "a"})
	if err != nil || res.Reason != "finishing an interrupted archive: evt-001 through evt-040 already in changelog-archive.md" || len(res.Moved) != 40 {
		t.Fatalf("resume with another keep: %+v, %v", res, err)
	}

	// A hand edit leaves one event in both files: refused, nothing written.
	lines := strings.SplitAfter(string(newLog), "\n")
	dup := "### evt-040 | 2026-01-01 10:40 | a | delete\n\n**Scope**: core\n**Summary**: retire comp20\n\n**Details**:\n- entity: comp20\n\n**Refs**: none\n**Tags**: t\n"
	edited := strings.Join(lines[:4], "") + dup + "\n---\n\n" + strings.Join(lines[4:], "")
	write(t, root, parse.LogFile, edited)
	if _, err := Archive(root, ArchiveOptions{Threshold: 1, Keep: 0, Agent: "a"}); err == nil || !strings.Contains(err.Error(), "evt-040 is also in changelog-archive.md") {
		t.Errorf("overlap: %v", err)
	}
	if got, _ := os.ReadFile(logPath); string(got) != edited {
		t.Error("a refused archive changed the log")
	}
}

// retiringLog is 60 events: comp1..comp20 created and retired (evt-001
// to evt-040, pinning nothing), then comp21..comp40 created and active.
func retiringLog() []byte {
	var b strings.Builder
	b.WriteString(head)
	ev := func(n int, typ, ent string) {
		if n > 1 {
			b.WriteString("\n---\n\n")
		}
		fmt.Fprintf(&b, "### evt-%03d | 2026-01-01 %02d:%02d | a | %s\n\n**Scope**: core\n**Summary**: %s %s\n\n**Details**:\n- entity: %s\n\n**Refs**: none\n**Tags**: t\n", n, n/60+10, n%60, typ, typ, ent, ent)
	}
	for i := 1; i <= 20; i++ {
		ev(2*i-1, "create", fmt.Sprintf("comp%d", i))
		ev(2*i, "delete", fmt.Sprintf("comp%d", i))
	}
	for i := 21; i <= 40; i++ {
		ev(20+i, "create", fmt.Sprintf("comp%d", i))
	}
	return []byte(b.String())
}

// TestProtocolArchiveStep: the AGENTS.md protocol's archival step names,
// after memsys archive, each command archive's "next:" line then
// advises (memsys regen), so an agent that follows the protocol to the
// letter does not leave graph.md and context.md stale behind the
// archive event (the step once said just "memsys archive").
func TestProtocolArchiveStep(t *testing.T) {
	var b strings.Builder
	(&ArchiveResult{Moved: []string{"evt-001"}, ArchiveEvent: "evt-003", stale: true}).WriteText(&b, front.CLI)
	_, next, ok := strings.Cut(b.String(), "\nnext: run ")
	if !ok {
		t.Fatalf("archive's output has no next step:\n%s", b.String())
	}
	cmd, _, _ := strings.Cut(next, " (")
	var step string
	for _, l := range strings.Split(string(templates.AgentsProtocol), "\n") {
		if strings.Contains(l, "archival is due") {
			step = l
		}
	}
	_, after, ok := strings.Cut(step, "`memsys archive`")
	if !ok || !strings.Contains(after, "`"+cmd+"`") {
		t.Errorf("the protocol's archival step %q does not say to run %q after memsys archive, as archive's output does", step, cmd)
	}
}

// TestArchiveUnterminatedLastLine archives a log, then an archive, whose
// last line has no line ending, as an editor that drops the final
// newline leaves them: the move ends that line and verifies every other
// byte. The check refused it ("event 60 (evt-060) differs after the
// move"), so archival waited for an edit of a committed event's file.
func TestArchiveUnterminatedLastLine(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		root := t.TempDir()
		src := strings.ReplaceAll(string(retiringLog()), "\n", nl)
		write(t, root, parse.LogFile, strings.TrimSuffix(src, nl))
		opt := ArchiveOptions{Threshold: 50, Keep: 20, Agent: "a"}
		res, err := Archive(root, opt)
		if err != nil || len(res.Moved) != 40 {
			t.Fatalf("%q: log without a final line ending: %+v, %v", nl, res, err)
		}
		newLog, _ := os.ReadFile(filepath.Join(root, parse.LogFile))
		if !strings.Contains(string(newLog), "**Tags**: t"+nl+nl+"---"+nl+nl+"### evt-061 ") {
			t.Errorf("%q: the last event's line was not ended before the archive event:\n%s", nl, newLog)
		}

		// The archive's last line unterminated, and 40 more events: the
		// second move appends its section after ending that line.
		arch, _ := os.ReadFile(filepath.Join(root, parse.ArchiveFile))
		write(t, root, parse.ArchiveFile, strings.TrimSuffix(string(arch), nl))
		var more strings.Builder
		for n := 62; n <= 101; n++ {
			fmt.Fprintf(&more, "%s---%s%s### evt-%03d | 2026-01-02 10:00 | a | modify%s%s**Scope**: core%s**Summary**: step %d%s%s**Details**:%s- entity: comp40%s- changes: step%s%s**Refs**: none%s**Tags**: t%s",
				nl, nl, nl, n, nl, nl, nl, n, nl, nl, nl, nl, nl, nl, nl, nl)
		}
		write(t, root, parse.LogFile, string(newLog)+more.String())
		if res, err = Archive(root, opt); err != nil || len(res.Moved) == 0 {
			t.Fatalf("%q: archive without a final line ending: %+v, %v", nl, res, err)
		}
		if got, _ := os.ReadFile(filepath.Join(root, parse.ArchiveFile)); !strings.HasPrefix(string(got), string(arch)) {
			t.Errorf("%q: the second move changed the archive's bytes other than ending its last line", nl)
		}
	}
}

// TestVerifyMoveLineEnding: the only change VerifyMove lets an event
// through with is the line ending its unterminated last line gains.
func TestVerifyMoveLineEnding(t *testing.T) {
	for _, c := range []struct {
		before, after string
		same          bool
	}{
		{"**Tags**: t\n", "**Tags**: t\n", true},
		{"**Tags**: t", "**Tags**: t\n", true},
		{"**Tags**: t", "**Tags**: t\r\n", true},
		{"**Tags**: t\n", "**Tags**: t\n\n", false}, // already ended
		{"**Tags**: t", "**Tags**: t\n\n", false},
		{"**Tags**: t", "**Tags**: tx", false},
		{"**Tags**: t\n", "**Tags**: t", false},
	} {
		if got := sameRaw([]byte(c.before), []byte(c.after)); got != c.same {
			t.Errorf("sameRaw(%q, %q) = %v, want %v", c.before, c.after, got, c.same)
		}
	}
}

// TestLintInterruptedArchive lints what an archive killed between its
// two writes leaves: MS107 advised renumbering each copied event (and
// MS109, MS110 that it came after the archive's), which would
// duplicate history; one finding says to finish the archive instead.
// A duplicate that is no such copy keeps MS107's own advice.
func TestLintInterruptedArchive(t *testing.T) {
	root := t.TempDir()
	src := retiringLog()
	write(t, root, parse.LogFile, string(src))
	if _, err := Archive(root, ArchiveOptions{Threshold: 50, Keep: 20, Agent: "a"}); err != nil {
		t.Fatal(err)
	}
	write(t, root, parse.LogFile, string(src))
	r, err := Lint(context.Background(), root, LintOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range r.Diagnostics {
		if d.Rule == "MS107" || d.Rule == "MS109" || d.Rule == "MS110" {
			got = append(got, fmt.Sprintf("%s:%d %s %s: %s", d.Range.File, d.Range.Line, d.Rule, d.Event, d.Message))
		}
	}
	want := "CHANGELOG.md:5 MS107 evt-001: evt-001 through evt-040 are also in changelog-archive.md, byte for byte, as an archive interrupted between its two writes leaves them: run memsys archive to finish it (renumbering them would duplicate history)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings on the interrupted archive:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	for _, d := range r.Diagnostics {
		if d.Rule == "MS107" && !strings.Contains(d.MCP, "run memsys_archive") {
			t.Errorf("MCP wording: %q", d.MCP)
		}
	}

	// A copy that differs is no interrupted archive: MS107 as before.
	write(t, root, parse.LogFile, strings.Replace(string(src), "**Summary**: create comp1\n", "**Summary**: create comp1 (edited)\n", 1))
	if r, err = Lint(context.Background(), root, LintOptions{}); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range r.Diagnostics {
		if d.Rule == "MS107" {
			n++
			if !strings.HasSuffix(d.Message, "renumber this event to the next free ID") {
				t.Errorf("MS107 on a hand edit: %s", d.Message)
			}
		}
	}
	if n != 40 {
		t.Errorf("%d MS107 findings on a hand-edited overlap, want 40", n)
	}
}
