package converge

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
)

// TestDriverNamesSides: the driver's conflict lines and markers name
// the sides by what they hold, HEAD and the incoming commit, never
// git's "ours" and "theirs", and never say an event was deleted or
// edited. The case is a cherry-pick of a branch's second commit alone:
// git's ancestor is its parent, which holds the branch's first event,
// an evt-002 HEAD never had (HEAD has its own evt-002), so "evt-002
// was edited on ours" was false.
func TestDriverNamesSides(t *testing.T) {
	dir := t.TempDir()
	g := &gitx.Git{Dir: dir}
	if _, err := g.Run(t.Context(), "init", "-q"); err != nil {
		t.Fatal(err)
	}
	base := appended(nil, "base", 1)
	f1 := appended(base, "f", 1)
	files := map[string][]byte{
		"anc":    render(genHead, f1),                     // the picked commit's parent
		"ours":   render(genHead, appended(base, "m", 1)), // HEAD: its own evt-002
		"theirs": render(genHead, appended(f1, "g", 1)),   // the picked commit
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	res, err := runDriver(t.Context(), g, DriverArgs{Ancestor: "anc", Ours: "ours", Theirs: "theirs", Path: "CHANGELOG.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"CHANGELOG.md:18: evt-002 on HEAD differs from the base's: committed events are immutable; " +
		"keep the committed text and record the correction as a new event, or, if HEAD never had the base's evt-002 " +
		"(a commit picked or replayed without the ones before it), abort and replay the branch from its first new commit"}
	if strings.Join(res.Conflicts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("conflicts\n got %q\nwant %q", res.Conflicts, want)
	}
	out, err := os.ReadFile(filepath.Join(dir, "ours"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	if lines[17] != "<<<<<<< HEAD" || !strings.Contains(string(out), "\n>>>>>>> incoming\n") {
		t.Fatalf("markers are not labelled HEAD and incoming:\n%s", out)
	}
}

// TestConflictWording: every way the base's event can differ, worded
// with the sides' names; the advice to replay from the first commit
// only where HEAD may never have had the base's event.
func TestConflictWording(t *testing.T) {
	m := &merger{on: "HEAD", tn: "the incoming commit", offOurs: true}
	const keep = ": committed events are immutable; keep the committed text and record the correction as a new event"
	const replay = ", or, if HEAD never had the base's evt-002 (a commit picked or replayed without the ones before it), abort and replay the branch from its first new commit"
	for _, c := range []struct {
		oHas, oSame, tHas, tSame bool
		want                     string
	}{
		{true, false, true, false, "evt-002 differs from the base's on both HEAD and the incoming commit" + keep + replay},
		{false, false, false, false, "evt-002 of the base is on neither HEAD nor the incoming commit" + keep + replay},
		{false, false, true, true, "evt-002 of the base is not on HEAD" + keep + replay},
		{false, false, true, false, "evt-002 of the base is not on HEAD and differs on the incoming commit" + keep + replay},
		{true, true, false, false, "evt-002 of the base is not on the incoming commit" + keep},
		{true, false, false, false, "evt-002 of the base is not on the incoming commit and differs on HEAD" + keep + replay},
		{true, false, true, true, "evt-002 on HEAD differs from the base's" + keep + replay},
		{true, true, true, false, "evt-002 on the incoming commit differs from the base's" + keep},
	} {
		if got := m.changed("evt-002", c.oHas, c.oSame, c.tHas, c.tSame); got != c.want {
			t.Errorf("changed(%v, %v, %v, %v)\n got %q\nwant %q", c.oHas, c.oSame, c.tHas, c.tSame, got, c.want)
		}
	}
	// renumber's merge: ours is the branch it follows, whose history
	// holds the merge base, so the advice to replay is no advice.
	m = &merger{on: "main", tn: "this branch"}
	if got, want := m.changed("evt-002", true, true, true, false), "evt-002 on this branch differs from the base's"+keep; got != want {
		t.Errorf("renumber\n got %q\nwant %q", got, want)
	}
}

// TestIncomingFromEnv: git merge names the commit it merges in one
// GITHEAD_<commit> variable; none (a rebase, a cherry-pick) or several
// name no incoming trunk.
func TestIncomingFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"PATH=/bin", "GITHEAD_0123abcd=main", "GIT_REFLOG_ACTION=merge main"}, "0123abcd"},
		{[]string{"PATH=/bin", "GIT_REFLOG_ACTION=rebase"}, ""},
		{[]string{"GITHEAD_aa=a", "GITHEAD_bb=b"}, ""},
		{[]string{"GITHEAD_cc"}, ""},
	} {
		if got := incomingFromEnv(tc.env); got != tc.want {
			t.Errorf("incomingFromEnv(%q) = %q, want %q", tc.env, got, tc.want)
		}
	}
}

// TestDriverWriteErrorNamesPath: when the merged result cannot be
// written over git's temporary file (here a symbolic link leading out
// of its folder, which memsys never writes through), the error names
// the memory file being merged and the path git gave, not only the
// temporary file's base name.
func TestDriverWriteErrorNamesPath(t *testing.T) {
	dir := t.TempDir()
	g := &gitx.Git{Dir: dir}
	if _, err := g.Run(t.Context(), "init", "-q"); err != nil {
		t.Fatal(err)
	}
	base := appended(nil, "base", 1)
	files := map[string][]byte{"anc": render(genHead, base), "theirs": render(genHead, appended(base, "t", 1))}
	os.MkdirAll(filepath.Join(dir, "tmp"), 0o755)
	files["elsewhere"] = render(genHead, appended(base, "o", 1))
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../elsewhere", filepath.Join(dir, "tmp", ".merge_file_x")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	t.Chdir(dir)
	_, err := runDriver(t.Context(), g, DriverArgs{Ancestor: "anc", Ours: "tmp/.merge_file_x", Theirs: "theirs", Path: "CHANGELOG.md"})
	if err == nil || !strings.HasPrefix(err.Error(), "CHANGELOG.md: cannot write the merged result to tmp/.merge_file_x, git's file for it: ") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "elsewhere")); string(b) != string(files["elsewhere"]) {
		t.Error("the file the link leads to changed")
	}
}
