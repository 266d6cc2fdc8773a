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

// TestMerging: MERGE_HEAD is in the git folder PrefixGitDir names from
// the start of a stopped merge until it is committed, and only then.
func TestMerging(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("1\n"), 0o644)
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "base")
	run(t, dir, "checkout", "-q", "-b", "other")
	os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("other\n"), 0o644)
	run(t, dir, "commit", "-q", "-a", "-m", "other")
	run(t, dir, "checkout", "-q", "main")
	os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("main\n"), 0o644)
	run(t, dir, "commit", "-q", "-a", "-m", "main")
	g := &Git{Dir: filepath.Join(dir, "sub"), Env: gitEnv(dir)}
	prefix, gitDir, err := g.PrefixGitDir(ctx)
	if err != nil || prefix != "sub/" || !filepath.IsAbs(gitDir) {
		t.Fatalf("PrefixGitDir = %q, %q, %v", prefix, gitDir, err)
	}
	if m, err := Merging(gitDir); m || err != nil {
		t.Errorf("Merging before the merge = %v, %v", m, err)
	}
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir, cmd.Env = dir, gitEnv(dir)
	if err := cmd.Run(); err == nil {
		t.Fatal("the merge did not stop on its conflict")
	}
	if m, err := Merging(gitDir); !m || err != nil {
		t.Errorf("Merging during the merge = %v, %v", m, err)
	}
	os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("both\n"), 0o644)
	run(t, dir, "commit", "-q", "-a", "--no-edit")
	if m, err := Merging(gitDir); m || err != nil {
		t.Errorf("Merging after the commit = %v, %v", m, err)
	}
}
