package gitx

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv makes commits deterministic and independent of the user's
// configuration.
func gitEnv(home string) []string {
	return append(os.Environ(), "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x",
		"GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z", "GIT_CONFIG_NOSYSTEM=1", "HOME="+home)
}

func run(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestRepo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	g, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	g.Env = gitEnv(dir)
	if ok, err := g.HasHead(); err != nil || ok {
		t.Errorf("HasHead in an empty repository = %v, %v", ok, err)
	}
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "sub", "f.md"), []byte("one\n"), 0o644)
	run(t, dir, "add", ".")
	run(t, dir, "commit", "-q", "-m", "c1")
	os.WriteFile(filepath.Join(dir, "sub", "f.md"), []byte("two\n"), 0o644)
	run(t, dir, "add", ".")
	if ok, err := g.HasHead(); err != nil || !ok {
		t.Errorf("HasHead after a commit = %v, %v", ok, err)
	}
	head, err := g.Resolve("HEAD")
	if err != nil || len(head) != 40 {
		t.Fatalf("Resolve(HEAD) = %q, %v", head, err)
	}
	if b, ok, err := g.ReadFile(head, "sub/f.md"); err != nil || !ok || string(b) != "one\n" {
		t.Errorf("ReadFile at HEAD = %q %v %v", b, ok, err)
	}
	if b, ok, err := g.ReadStaged("sub/f.md"); err != nil || !ok || string(b) != "two\n" {
		t.Errorf("ReadStaged = %q %v %v", b, ok, err)
	}
	if _, ok, err := g.ReadFile(head, "nope.md"); err != nil || ok {
		t.Errorf("missing file: %v %v", ok, err)
	}
	sub := &Git{Dir: filepath.Join(dir, "sub")}
	if p, err := sub.Prefix(ctx); err != nil || p != "sub/" {
		t.Errorf("Prefix = %q, %v", p, err)
	}
	// Blobs reads files relative to the memory root, at a commit or
	// staged, as lint's history rules ask for them.
	blobs, err := sub.NewBlobs(ctx, "sub/")
	if err != nil {
		t.Fatal(err)
	}
	defer blobs.Close()
	for _, c := range []struct{ rev, want string }{{head, "one\n"}, {":0", "two\n"}} {
		if b, ok, err := blobs.Blob(c.rev, "f.md"); err != nil || !ok || string(b) != c.want {
			t.Errorf("Blob(%s, f.md) = %q %v %v", c.rev, b, ok, err)
		}
	}
	if _, ok, err := blobs.Blob(head, "nope.md"); err != nil || ok {
		t.Errorf("Blob of a missing file: %v %v", ok, err)
	}
	if blobs.Shallow() {
		t.Error("a complete clone is shallow")
	}
	if top, err := sub.Line(ctx, "rev-parse", "--show-toplevel"); err != nil || filepath.Base(top) != filepath.Base(dir) {
		t.Errorf("Line(rev-parse --show-toplevel) = %q, %v", top, err)
	}
	var ge *Error
	if _, err := (&Git{Dir: t.TempDir()}).Line(ctx, "rev-parse", "--show-toplevel"); !errors.As(err, &ge) || !ge.Ran() {
		t.Errorf("rev-parse outside a repository: %v", err)
	}
	for _, bad := range []string{"--output=x", "-h", "", "a\nb"} {
		if _, err := g.Resolve(bad); err == nil {
			t.Errorf("Resolve(%q) accepted", bad)
		}
	}
	var me *MissingError
	if _, err := g.Resolve("no-such-branch"); !errors.As(err, &me) || me.Shallow || me.Empty {
		t.Errorf("unknown revision: %v", err)
	}
	// A repository without a commit: the fix is to commit, not to fetch.
	empty := &Git{Dir: t.TempDir()}
	if _, err := empty.Run(ctx, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	if _, err := empty.Resolve("HEAD"); !errors.As(err, &me) || !me.Empty || !strings.Contains(err.Error(), "this repository has no commits yet, so there is no \"HEAD\": commit the memory first") || strings.Contains(err.Error(), "fetch") {
		t.Errorf("HEAD of an empty repository: %v", err)
	}
	if _, err := Open(ctx, t.TempDir()); err == nil {
		t.Error("Open outside a repository")
	}

	b, err := g.NewBatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	oid, typ, size, ok, err := b.Info(head + ":sub/f.md")
	if err != nil || !ok || typ != "blob" || size != 4 || len(oid) != 40 {
		t.Errorf("Info = %q %q %d %v %v", oid, typ, size, ok, err)
	}
	if data, ok, err := b.Contents(oid); err != nil || !ok || string(data) != "one\n" {
		t.Errorf("Contents = %q %v %v", data, ok, err)
	}
	if _, _, _, ok, err := b.Info(head + ":nope"); err != nil || ok {
		t.Errorf("Info of a missing path = %v %v", ok, err)
	}
	if _, ok, err := b.Contents(head + ":sub"); err != nil || ok {
		t.Errorf("Contents of a folder = %v, %v", ok, err)
	}
	if _, _, err := b.Contents("x\ny"); err == nil {
		t.Error("Contents accepted a newline")
	}
}

// TestShallow checks the message a shallow clone gets for a commit it
// does not have: it must name the fetch that fixes it.
func TestShallow(t *testing.T) {

	dir := t.TempDir()
	up := filepath.Join(dir, "up")
	os.Mkdir(up, 0o755)
	run(t, up, "init", "-q", "-b", "main")
	for _, s := range []string{"1", "2"} {
		os.WriteFile(filepath.Join(up, "f"), []byte(s), 0o644)
		run(t, up, "add", "f")
		run(t, up, "commit", "-q", "-m", s)
	}
	first := run(t, up, "rev-parse", "HEAD~1")
	run(t, dir, "clone", "-q", "--depth=1", "file://"+up, "clone")
	g := &Git{Dir: filepath.Join(dir, "clone"), Env: gitEnv(dir)}
	_, err := g.Resolve(first)
	var me *MissingError
	if !errors.As(err, &me) || !me.Shallow || !strings.Contains(err.Error(), "git fetch --depth=1 origin "+first) || !strings.Contains(err.Error(), "fetch-depth: 0") {
		t.Errorf("Resolve of an unfetched commit: %v", err)
	}
}

// TestCloseEarly stops reading a pipeline half way: Close must not wait
// forever for a git that is still writing.
func TestCloseEarly(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(dir, "big"), make([]byte, 1<<20), 0o644)
	run(t, dir, "add", "big")
	run(t, dir, "commit", "-q", "-m", "big")
	g := &Git{Dir: dir, Env: gitEnv(dir)}
	b, err := g.NewBatch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	specs := make([]string, 50)
	for i := range specs {
		specs[i] = "HEAD:big"
	}
	p := b.Pipeline(specs)
	if data, ok, err := p.Next(); err != nil || !ok || len(data) != 1<<20 {
		t.Fatalf("Next = %d bytes, %v, %v", len(data), ok, err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestMissingErrorFix: the fix a missing revision's message names is one
// that works. A revision expression (HEAD~1, main^2, main@{1}, v1:f) is
// no ref a remote has: git fetch origin HEAD~1 fails with "invalid
// refspec", so for those the message says to fetch history instead.
func TestMissingErrorFix(t *testing.T) {
	for _, tc := range []struct {
		rev     string
		shallow bool
		want    string
	}{
		{"origin/main", false, "check the name, or fetch it: git fetch origin main"},
		{"0123abc", true, "this is a shallow clone: run git fetch --depth=1 origin 0123abc (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)"},
		{"HEAD~1", true, "this is a shallow clone without the history HEAD~1 needs: run git fetch --unshallow (or, in GitHub Actions, set fetch-depth: 0 on actions/checkout)"},
		{"main^2", true, "this is a shallow clone without the history main^2 needs: run git fetch --unshallow"},
		{"HEAD~9", false, "check the name: git log --oneline lists the commits there are"},
		{"main@{1}", false, "check the name: git log --oneline lists the commits there are"},
	} {
		got := (&MissingError{Rev: tc.rev, Shallow: tc.shallow}).Error()
		if !strings.Contains(got, tc.want) {
			t.Errorf("MissingError{%q, shallow %v} = %q, want it to say %q", tc.rev, tc.shallow, got, tc.want)
		}
	}
}

// TestNoCommits: the one line every command gives in a repository with
// no commit, and only for that error (a revision merely unknown keeps
// its own advice).
func TestNoCommits(t *testing.T) {
	empty := &MissingError{Rev: "HEAD", Empty: true}
	got := NoCommits(fmt.Errorf("wrapped: %w", empty), `there is no "HEAD" to renumber after`, "memsys renumber --onto HEAD")
	want := `this repository has no commits yet, so there is no "HEAD" to renumber after: commit the memory first (git add -A && git commit), then run memsys renumber --onto HEAD`
	if got == nil || got.Error() != want {
		t.Errorf("NoCommits = %v\nwant %s", got, want)
	}
	if _, ok := got.(*NoCommitsError); !ok {
		t.Errorf("NoCommits gave %T, want *NoCommitsError", got)
	}
	other := &MissingError{Rev: "nope"}
	if got := NoCommits(other, "x", "y"); got != error(other) {
		t.Errorf("NoCommits changed an unknown revision's error: %v", got)
	}
	if NoCommits(nil, "x", "y") != nil {
		t.Error("NoCommits(nil) is not nil")
	}
	// Without a caller's words, the same style with a generic next step.
	if got, want := empty.Error(), `this repository has no commits yet, so there is no "HEAD": commit the memory first (git add -A && git commit), then run the command again`; got != want {
		t.Errorf("MissingError.Error() = %s\nwant %s", got, want)
	}
}

// TestUnborn: on a branch with no commits yet (git checkout --orphan)
// in a repository that has commits, the repository is not empty: an
// unknown revision keeps its own advice (check the name, fetch it), and
// HEAD, which names nothing yet, says the branch has no commits and
// what to do, not that the repository has none and not to fetch HEAD.
// Two commits without a common one give a *MissingError for the merge
// base of the two, which says so.
func TestUnborn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	run(t, dir, "init", "-q", "-b", "main")
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "c1")
	main := run(t, dir, "rev-parse", "HEAD")
	run(t, dir, "checkout", "-q", "--orphan", "fresh")
	g := &Git{Dir: dir, Env: gitEnv(dir)}
	var me *MissingError
	_, err := g.Resolve("nosuch")
	if !errors.As(err, &me) || me.Empty || me.Unborn != "fresh" || !strings.Contains(err.Error(), `git revision "nosuch" is not in this repository: check the name, or fetch it`) {
		t.Errorf("unknown revision on an unborn branch: %v (%+v)", err, me)
	}
	for _, rev := range []string{"HEAD", "@", "fresh"} {
		_, err = g.Resolve(rev)
		want := `HEAD is branch "fresh", which has no commits yet, so there is no "` + rev + `": commit on it first (git add -A && git commit), or name a revision that has commits`
		if !errors.As(err, &me) || me.Empty || err.Error() != want {
			t.Errorf("%s on an unborn branch: %v\nwant %s", rev, err, want)
		}
		if NoCommits(err, "x", "y") != err {
			t.Errorf("%s on an unborn branch taken for an empty repository", rev)
		}
	}
	run(t, dir, "commit", "-q", "--allow-empty", "-m", "orphan")
	orphan := run(t, dir, "rev-parse", "HEAD")
	_, err = g.MergeBase(ctx, main, orphan)
	want := main[:12] + " and " + orphan[:12] + " share no history (git merge-base finds no common commit): name revisions that grew from a common commit"
	if !errors.As(err, &me) || me.Shallow || me.Between != [2]string{main, orphan} || err.Error() != want {
		t.Errorf("unrelated histories: %v\nwant %s", err, want)
	}
}

func TestNullID(t *testing.T) {
	for rev, want := range map[string]bool{
		strings.Repeat("0", 40):                    true,
		strings.Repeat("0", 64):                    true,
		strings.Repeat("0", 39):                    false,
		strings.Repeat("0", 12):                    false,
		"0000000000000000000000000000000000000001": false,
		"main": false,
		"":     false,
	} {
		if got := NullID(rev); got != want {
			t.Errorf("NullID(%q) = %v, want %v", rev, got, want)
		}
	}
}
