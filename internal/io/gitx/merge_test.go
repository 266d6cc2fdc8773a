package gitx

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

func TestMergeFile(t *testing.T) {
	ctx := context.Background()
	g := &Git{Dir: t.TempDir()}
	base := []byte("a\nb\nc\n")
	for _, c := range []struct {
		name         string
		ours, theirs string
		want         string
		conflict     bool
	}{
		{"both sides, apart", "A\nb\nc\n", "a\nb\nC\n", "A\nb\nC\n", false},
		{"one side", "a\nb\nc\n", "a\nb\nc\nd\n", "a\nb\nc\nd\n", false},
		{"same line", "a\nX\nc\n", "a\nY\nc\n", "a\n<<<<<<< ours\nX\n=======\nY\n>>>>>>> theirs\nc\n", true},
	} {
		got, conflict, err := g.MergeFile(ctx, base, []byte(c.ours), []byte(c.theirs), 0, "ours", "base", "theirs")
		if err != nil || conflict != c.conflict || string(got) != c.want {
			t.Errorf("%s: MergeFile = %q, %v, %v; want %q, %v", c.name, got, conflict, err, c.want, c.conflict)
		}
	}
	got, _, err := g.MergeFile(ctx, base, []byte("a\nX\nc\n"), []byte("a\nY\nc\n"), 3, "o", "b", "t")
	if err != nil || string(got) != "a\n<<< o\nX\n===\nY\n>>> t\nc\n" {
		t.Errorf("marker size 3: %q, %v", got, err)
	}
}

func TestMergeBaseRefsConfig(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	g := &Git{Dir: dir, Env: gitEnv(dir)}
	os.WriteFile(filepath.Join(dir, "f"), []byte("1\n"), 0o644)
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "base")
	base := run(t, dir, "rev-parse", "HEAD")
	run(t, dir, "checkout", "-q", "-b", "agent/a")
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "a")
	run(t, dir, "checkout", "-q", "-b", "agent/b", "main")
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "b")
	if mb, err := g.MergeBase(ctx, "agent/a", "agent/b"); err != nil || mb != base {
		t.Errorf("MergeBase = %q, %v; want %s", mb, err, base)
	}
	run(t, dir, "checkout", "-q", "--orphan", "lone")
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "lone")
	var me *MissingError
	if _, err := g.MergeBase(ctx, "lone", "main"); !errors.As(err, &me) {
		t.Errorf("MergeBase of unrelated histories: %v, want a *MissingError", err)
	}
	if refs, err := g.Refs(ctx, "agent/*"); err != nil || !slices.Equal(refs, []string{"agent/a", "agent/b"}) {
		t.Errorf("Refs(agent/*) = %v, %v", refs, err)
	}
	if refs, err := g.Refs(ctx, "none/*"); err != nil || len(refs) != 0 {
		t.Errorf("Refs(none/*) = %v, %v", refs, err)
	}
	if _, ok, err := g.Config(ctx, "merge.x.driver"); ok || err != nil {
		t.Errorf("Config of an unset key = %v, %v", ok, err)
	}
	if err := g.SetConfig(ctx, "merge.x.driver", "tool %O %A %B"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := g.Config(ctx, "merge.x.driver"); v != "tool %O %A %B" || !ok || err != nil {
		t.Errorf("Config = %q, %v, %v", v, ok, err)
	}
	if err := g.UnsetSection(ctx, "merge.x"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := g.Config(ctx, "merge.x.driver"); ok {
		t.Error("merge.x.driver still set after UnsetSection")
	}
	gd, err := g.GitDir(ctx)
	if err != nil || gd != filepath.Join(dir, ".git") {
		if real, _ := filepath.EvalSymlinks(filepath.Join(dir, ".git")); gd != real {
			t.Errorf("GitDir = %q, %v", gd, err)
		}
	}
}

// TestOperations: each operation's file is in the git folder
// PrefixGitDir names from the stop until the commit (or abort), and
// only then; Heads reads every line of an octopus's MERGE_HEAD,
// SquashedCommits the commits SQUASH_MSG lists, Independent their tips,
// and RebaseEditing tells an edit stop from a conflict.
func TestOperations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(s string) { os.WriteFile(filepath.Join(dir, "sub", "f"), []byte(s), 0o644) }
	fails := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(gitEnv(dir), "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/")
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Fatalf("git %v did not stop on its conflict:\n%s", args, out)
		}
	}
	run(t, dir, "init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	write("1\n")
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "base")
	run(t, dir, "checkout", "-q", "-b", "other")
	os.WriteFile(filepath.Join(dir, "g"), []byte("g\n"), 0o644)
	run(t, dir, "add", "g")
	run(t, dir, "commit", "-q", "-m", "other 1")
	write("other\n")
	run(t, dir, "commit", "-q", "-a", "-m", "other 2")
	other := run(t, dir, "rev-parse", "other")
	other1 := run(t, dir, "rev-parse", "other~1")
	run(t, dir, "checkout", "-q", "-b", "third", "main")
	os.WriteFile(filepath.Join(dir, "h"), []byte("h\n"), 0o644)
	run(t, dir, "add", "h")
	run(t, dir, "commit", "-q", "-m", "third")
	third := run(t, dir, "rev-parse", "third")
	run(t, dir, "checkout", "-q", "main")
	write("main\n")
	run(t, dir, "commit", "-q", "-a", "-m", "main")
	g := &Git{Dir: filepath.Join(dir, "sub"), Env: gitEnv(dir)}
	prefix, gitDir, err := g.PrefixGitDir(ctx)
	if err != nil || prefix != "sub/" || !filepath.IsAbs(gitDir) {
		t.Fatalf("PrefixGitDir = %q, %q, %v", prefix, gitDir, err)
	}
	check := func(when string, want InProgress) {
		t.Helper()
		if p, err := Operations(gitDir); p != want || err != nil || p.Any() != (want != InProgress{}) {
			t.Errorf("Operations %s = %+v, %v; want %+v", when, p, err, want)
		}
	}
	heads := func(name string, want ...string) {
		t.Helper()
		if ids, err := Heads(gitDir, name); !slices.Equal(ids, want) || err != nil {
			t.Errorf("Heads(%s) = %q, %v; want %q", name, ids, err, want)
		}
	}
	resolve := func() {
		write("both\n")
		run(t, dir, "add", ".")
	}
	check("before any", InProgress{})

	fails("merge", "-q", "other")
	check("during the merge", InProgress{Merge: true})
	heads("MERGE_HEAD", other)
	resolve()
	run(t, dir, "commit", "-q", "--no-edit")
	check("after the merge", InProgress{})
	run(t, dir, "reset", "-q", "--hard", "HEAD~1")

	// the octopus stops on its last branch (sub/f), every branch listed
	fails("merge", "-q", "third", "other")
	check("during the octopus", InProgress{Merge: true})
	heads("MERGE_HEAD", third, other)
	run(t, dir, "merge", "--abort")
	check("after the octopus", InProgress{})

	fails("cherry-pick", "other")
	check("during the cherry-pick", InProgress{CherryPick: true})
	heads("CHERRY_PICK_HEAD", other)
	resolve()
	run(t, dir, "-c", "core.editor=true", "cherry-pick", "--continue")
	check("after the cherry-pick", InProgress{})
	run(t, dir, "reset", "-q", "--hard", "HEAD~1")

	fails("merge", "--squash", "other")
	check("during the squash", InProgress{Squash: true})
	if ids, err := SquashedCommits(gitDir); len(ids) != 2 || !slices.Contains(ids, other) || !slices.Contains(ids, other1) || err != nil {
		t.Errorf("SquashedCommits = %q, %v; want %s and %s", ids, err, other, other1)
	} else if tips, err := g.Independent(ctx, ids); !slices.Equal(tips, []string{other}) || err != nil {
		t.Errorf("Independent(%q) = %q, %v; want the tip %s", ids, tips, err, other)
	}
	resolve()
	run(t, dir, "commit", "-q", "--no-edit")
	check("after the squash", InProgress{})
	run(t, dir, "reset", "-q", "--hard", "HEAD~1")

	run(t, dir, "checkout", "-q", "other")
	fails("rebase", "-q", "main")
	check("during the rebase", InProgress{Rebase: true})
	heads("REBASE_HEAD", other)
	if RebaseEditing(gitDir) {
		t.Error("RebaseEditing at a conflict = true")
	}
	run(t, dir, "rebase", "--abort")
	check("after the rebase", InProgress{})
	// an edit stop (GIT_SEQUENCE_EDITOR above): REBASE_HEAD names the
	// commit just replayed
	run(t, dir, "checkout", "-q", "third")
	cmd := exec.Command("git", "rebase", "-q", "-i", "main")
	cmd.Dir, cmd.Env = dir, append(gitEnv(dir), "GIT_SEQUENCE_EDITOR=sed -i 1s/^pick/edit/")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git rebase -i: %v\n%s", err, out)
	}
	check("at an edit stop", InProgress{Rebase: true})
	if !RebaseEditing(gitDir) {
		t.Error("RebaseEditing at an edit stop = false")
	}
	run(t, dir, "rebase", "--abort")

	os.WriteFile(filepath.Join(gitDir, "MERGE_HEAD"), []byte(other+"\nnot an id\n"), 0o644)
	if _, err := Heads(gitDir, "MERGE_HEAD"); err == nil || err.Error() != `MERGE_HEAD: "not an id" is not a commit ID` {
		t.Errorf("Heads of a bad MERGE_HEAD: %v", err)
	}
}
