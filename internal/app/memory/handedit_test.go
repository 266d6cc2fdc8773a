package memory

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TestHandEdits holds sealedAt.handEdits to what regen, lint --fix and
// status decide about a derived file that differs from what regen
// writes: a file memsys wrote at its horizon (its seal verifies against
// the events through it) is replaced although a later event superseded
// its rows; one edited by hand since keeps only what neither the replay
// at its horizon nor the current one draws; one without a seal is read
// against the current replay alone.
func TestHandEdits(t *testing.T) {
	t.Setenv(workspace.EnvNoCache, "1")
	opt := lint.RenderOptions(config.Default())
	// Three creates; evt-004 supersedes evt-002, so the current replay
	// has no comp2.
	superseding := event(4, "create") + "**Supersedes**: evt-002\n"
	three := head + event(1, "create") + "\n---\n\n" + event(2, "create") + "\n---\n\n" + event(3, "create")
	four := three + "\n---\n\n" + superseding
	hand := "| billing | component | active | evt-001 | evt-001 | owner=bob |\n"
	addRow := func(g string) string {
		i := strings.Index(g, "| comp1 |")
		return g[:i] + hand + g[i:]
	}
	unseal := func(g string) string { return string(materialize.Unseal([]byte(g))) }

	for _, tc := range []struct {
		name string
		file func(atThree string) string // graph.md, given what regen wrote at evt-003
		opt  materialize.Options         // the options the file was written with (zero: opt)
		// digest: the caller knows the digest through evt-003 (the
		// history cache's head, status's stream)
		digest bool
		want   []string
	}{
		{"what memsys wrote, superseded row dropped", func(g string) string { return g }, materialize.Options{}, false, nil},
		{"what memsys wrote, digest known", func(g string) string { return g }, materialize.Options{}, true, nil},
		{"hand row added since", addRow, materialize.Options{}, false, []string{"node billing"}},
		{"hand row added since, digest known", addRow, materialize.Options{}, true, []string{"node billing"}},
		{"hand attribute on a superseded row", func(g string) string {
			return strings.Replace(g, "| comp2 | component | active | evt-002 | evt-002 |  |", "| comp2 | component | active | evt-002 | evt-002 | owner=bob |", 1)
		}, materialize.Options{}, false, []string{"node comp2 attribute owner=bob"}},
		{"other options", func(g string) string { return g }, materialize.Options{WindowEvents: 1}, false, nil},
		{"no seal: the current replay alone", func(g string) string { return unseal(g) }, materialize.Options{}, false, []string{"node comp2"}},
		// The log was cut back past the file's horizon: nothing to check
		// the seal against, and the file is memsys's.
		{"horizon no event has", func(g string) string {
			return strings.Replace(g, "evt-003", "evt-099", -1)
		}, materialize.Options{}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, parse.LogFile, three)
			wrote := tc.opt
			if wrote == (materialize.Options{}) {
				wrote = opt
			}
			_, x, err := Replay(root, wrote, "")
			if err != nil {
				t.Fatal(err)
			}
			atThree := string(x.GraphFile())
			if !strings.Contains(atThree, "| comp2 |") {
				t.Fatalf("the graph at evt-003 has no comp2:\n%s", atThree)
			}
			digestThree := x.SourceSum()
			write(t, root, parse.LogFile, four)
			_, now, err := Replay(root, opt, "")
			if err != nil {
				t.Fatal(err)
			}
			want := now.GraphFile()
			if strings.Contains(string(want), "| comp2 |") {
				t.Fatal("the current graph still has comp2")
			}
			s := sealedAt{root: root, opt: opt}
			if tc.digest {
				s.digest = func(id string) ([]byte, bool) { return digestThree, parse.SameEvent(id, "evt-003") }
			}
			got := s.handEdits(parse.GraphFile, []byte(tc.file(atThree)), want)
			if !slices.Equal(got, tc.want) {
				t.Errorf("handEdits = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHandEditsContext holds the context.md side: a hand-written Active
// Constraint in a sealed file behind the log is kept; the file as memsys
// wrote it, whose constraint a later event superseded, is not.
func TestHandEditsContext(t *testing.T) {
	t.Setenv(workspace.EnvNoCache, "1")
	opt := lint.RenderOptions(config.Default())
	decision := "### evt-002 | 2026-01-01 11:00 | alice | decision\n\n**Scope**: core\n**Summary**: Use Postgres\n\n**Details**:\n- entity: database\n- from: none\n- to: postgres\n- rationale: joins\n\n**Refs**: none\n**Tags**: none\n"
	two := head + event(1, "create") + "\n---\n\n" + decision
	three := two + "\n---\n\n" + strings.Replace(event(3, "create"), "**Tags**: t\n", "**Tags**: t\n**Supersedes**: evt-002\n", 1)
	root := t.TempDir()
	write(t, root, parse.LogFile, two)
	_, x, err := Replay(root, opt, "")
	if err != nil {
		t.Fatal(err)
	}
	atTwo := string(x.ContextFile())
	if len(materialize.ReadConstraints([]byte(atTwo))) == 0 {
		t.Fatalf("no constraint at evt-002:\n%s", atTwo)
	}
	write(t, root, parse.LogFile, three)
	_, now, err := Replay(root, opt, "")
	if err != nil {
		t.Fatal(err)
	}
	want := now.ContextFile()
	s := sealedAt{root: root, opt: opt}
	if got := s.handEdits(parse.ContextFile, []byte(atTwo), want); got != nil {
		t.Errorf("as memsys wrote it: handEdits = %q, want none", got)
	}
	edited := strings.Replace(atTwo, "## Active Constraints\n\n", "## Active Constraints\n\n- Never ship on Fridays\n", 1)
	if edited == atTwo {
		t.Fatal("no Active Constraints heading")
	}
	if got, w := s.handEdits(parse.ContextFile, []byte(edited), want), []string{`constraint "Never ship on Fridays"`}; !slices.Equal(got, w) {
		t.Errorf("edited: handEdits = %q, want %q", got, w)
	}
}

// TestRegenKeepsSealedHandEdit runs the decision through Regenerate and
// lint --fix: a sealed graph.md edited by hand is kept (ErrHandKept, the
// file unchanged), and replaced with Force.
func TestRegenKeepsSealedHandEdit(t *testing.T) {
	root := t.TempDir()
	write(t, root, parse.LogFile, head+event(1, "create"))
	write(t, root, "TODO.md", "# TODO\n") // the full tier
	if _, err := Regenerate(root, RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(root, filepath.FromSlash(parse.GraphFile))
	g, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(g), "| comp1 |")
	edited := string(g[:i]) + "| billing | component | active | evt-001 | evt-001 | owner=bob |\n" + string(g[i:])
	write(t, root, parse.GraphFile, edited)
	if _, err := Regenerate(root, RegenOptions{}); err == nil || !strings.Contains(err.Error(), "was changed since memsys wrote it (edited by hand, or the log rewritten)") {
		t.Fatalf("regen: err = %v, want the hand-kept refusal", err)
	}
	if got, _ := os.ReadFile(p); string(got) != edited {
		t.Fatal("regen changed the file it refused to replace")
	}
	if _, err := Regenerate(root, RegenOptions{Force: true}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); strings.Contains(string(got), "billing") {
		t.Fatal("regen --force kept the hand row")
	}
}

// TestSealCheckedThroughCache: after regen, an append and a status
// (whose replay for the open loops moves the history cache's head past
// the files' horizon), regen and status check the stale files' seals
// with the digest the cache kept (replayCheckpoint.Earlier) instead of
// reading the files against the replay; the files are then replaced.
// Without the cache, status takes the digest as it streams.
func TestSealCheckedThroughCache(t *testing.T) {
	for _, cached := range []bool{true, false} {
		t.Run(map[bool]string{true: "cache", false: "no cache"}[cached], func(t *testing.T) {
			if !cached {
				t.Setenv(workspace.EnvNoCache, "1")
			}
			root := t.TempDir()
			write(t, root, "TODO.md", "# TODO\n") // the full tier
			three := head + event(1, "create") + "\n---\n\n" + event(2, "create") + "\n---\n\n" + event(3, "create")
			write(t, root, parse.LogFile, three)
			if _, err := Regenerate(root, RegenOptions{}); err != nil {
				t.Fatal(err)
			}
			write(t, root, parse.LogFile, three+"\n---\n\n"+event(4, "test"))
			before := sealMisses
			st, err := Status(root)
			if err != nil {
				t.Fatal(err)
			}
			if st.Graph.State != "stale" || st.Graph.Curated != nil {
				t.Fatalf("status: graph %s, curated %q", st.Graph.State, st.Graph.Curated)
			}
			r, err := Regenerate(root, RegenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Wrote) != 2 {
				t.Fatalf("regen wrote %q", r.Wrote)
			}
			if cached && sealMisses != before {
				t.Errorf("%d seals checked against the replay, want none", sealMisses-before)
			}
		})
	}
}

// TestLogRewritten: a sealed graph.md behind the log that holds a row no
// replay produces because a committed event before its horizon was
// edited (comp2 renamed) is what memsys wrote from HEAD's log
// (sealedAt.logRewritten): status says so instead of listing the row as
// curated, and regen refuses with the restore advice. The same row added
// by hand to graph.md, the log as committed, is not: it stays curated.
// Outside a repository the committed log is unknown, and the answer is
// no.
func TestLogRewritten(t *testing.T) {
	sep := "\n---\n\n"
	two := head + event(1, "create") + sep + event(2, "create")
	root, git := gitRoot(t, map[string][]byte{parse.LogFile: []byte(two), "TODO.md": []byte("# TODO\n")})
	if _, err := Regenerate(root, RegenOptions{}); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "regen")
	graph, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(parse.GraphFile)))
	if err != nil {
		t.Fatal(err)
	}
	edited := head + event(1, "create") + sep + strings.Replace(event(2, "create"), "entity: comp2", "entity: other", 1) + sep + event(3, "test")
	write(t, root, parse.LogFile, edited)
	sa := sealedAt{root: root, opt: lint.RenderOptions(config.Default())}
	if !sa.logRewritten(graph) {
		t.Error("logRewritten = false for the file regen wrote from HEAD's log")
	}
	st, err := Status(root)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Graph.LogRewritten || st.Graph.Curated != nil {
		t.Errorf("status: log_rewritten %v, curated %q", st.Graph.LogRewritten, st.Graph.Curated)
	}
	if _, err := Regenerate(root, RegenOptions{}); err == nil || !strings.Contains(err.Error(), "is what memsys wrote from the log as committed at HEAD") {
		t.Errorf("regen: err = %v, want the restore advice", err)
	}

	// The log as committed, the row renamed in graph.md by hand.
	write(t, root, parse.LogFile, two+sep+event(3, "test"))
	hand := strings.Replace(string(graph), "| comp2 |", "| other |", 1)
	write(t, root, parse.GraphFile, hand)
	if sa.logRewritten([]byte(hand)) {
		t.Error("logRewritten = true for a hand edit")
	}
	if st, err := Status(root); err != nil || st.Graph.LogRewritten || len(st.Graph.Curated) == 0 {
		t.Errorf("hand edit: status %+v, %v", st.Graph, err)
	}

	// No repository: nothing to compare with.
	plain := t.TempDir()
	write(t, plain, parse.LogFile, edited)
	if (sealedAt{root: plain, opt: sa.opt}).logRewritten(graph) {
		t.Error("logRewritten = true outside a repository")
	}
}
