//go:build unix

package crashtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSymlinkOutside: a memory file or folder that is a symlink leading
// out of the repository is refused with a clear error by every command
// that could write, and the file outside is never touched.
func TestSymlinkOutside(t *testing.T) {
	targets := []string{"CHANGELOG.md", ".memory", ".memory/graph.md", ".memory/context.md", "changelog-archive.md"}
	// Each target with the commands that touch it: archive never opens
	// the derived files, so it has nothing to refuse there.
	commands := [][]string{
		{"regen"},
		{"append", "--type", "test", "--scope", "s", "--summary", "x", "--detail", "target=s", "--detail", "result=pass", "--time", "2099-01-01 00:00", "--regen"},
		{"archive", "--threshold", "10", "--keep", "5", "--time", "2099-01-01 00:00"},
		{"lint", "--fix"},
		{"lint"},
	}
	for _, target := range targets {
		for _, args := range commands {
			if args[0] == "archive" && strings.HasPrefix(target, ".memory") {
				continue
			}
			t.Run(strings.ReplaceAll(target, "/", "_")+"/"+strings.Join(args, "_"), func(t *testing.T) {
				// Escalations pin no events, so archive has work to do.
				dir := newRepoWith(t, escalationLog(40))
				if target == "changelog-archive.md" {
					mustRun(t, dir, "archive", "--threshold", "31", "--keep", "30", "--time", "2099-01-01 00:00")
				}
				outside := t.TempDir()
				src := filepath.Join(dir, target)
				dst := filepath.Join(outside, filepath.Base(target))
				if err := os.Rename(src, dst); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(dst, src); err != nil {
					t.Skip("no symlinks:", err)
				}
				before := snapshot(t, outside)

				r := run(t, dir, args...)
				if r.code == 0 {
					t.Errorf("memsys %s with %s a symlink out of the repository succeeded:\n%s", args[0], target, r)
				}
				if !strings.Contains(r.stderr+r.stdout, filepath.Base(target)) {
					t.Errorf("the error does not name %s:\n%s", target, r)
				}
				if after := snapshot(t, outside); !equalMaps(before, after) {
					t.Errorf("memsys %s wrote through the %s symlink", args[0], target)
				}
				if fi, err := os.Lstat(src); err != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Errorf("%s is no longer the symlink", target)
				}
			})
		}
	}
}

// TestPatternThroughSymlink: lint --fix with a pattern that reaches a
// memory through a symlinked folder outside the start folder must not
// write there.
func TestPatternThroughSymlink(t *testing.T) {
	outside := newRepo(t, 30)
	// Make its derived files stale so --fix would want to write.
	write(t, outside, ".memory/context.md", []byte("stale\n"))
	before := snapshot(t, outside)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "services"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "services", "evil")); err != nil {
		t.Skip("no symlinks:", err)
	}
	r := run(t, dir, "lint", "--fix", "services/**")
	if after := snapshot(t, outside); !equalMaps(before, after) {
		t.Errorf("lint --fix 'services/**' wrote outside the start folder through a symlink:\n%s", r)
	}
}

// TestGitArgsNotOptions: a revision from the command line or from
// GITHUB_BASE_REF that starts with "-" is never passed to git as an
// option (here, --output would make git write a file).
func TestGitArgsNotOptions(t *testing.T) {
	dir := newRepo(t, 30)
	pwned := filepath.Join(t.TempDir(), "pwned")
	for _, args := range [][]string{
		{"lint", "--base", "--output=" + pwned},
		{"lint", "--base=--output=" + pwned},
		{"lint", "--base", "HEAD", "--head", "--output=" + pwned},
	} {
		r := run(t, dir, args...)
		if r.code != 2 {
			t.Errorf("memsys %q: exit %d, want 2 (a bad revision)\n%s", args, r.code, r)
		}
		if _, err := os.Stat(pwned); err == nil {
			t.Fatalf("memsys %q let git write %s", args, pwned)
		}
	}
	cmd := []string{"lint"}
	t.Setenv("GITHUB_BASE_REF", "--output="+pwned)
	t.Setenv("GITHUB_ACTIONS", "true")
	r := run(t, dir, cmd...)
	if _, err := os.Stat(pwned); err == nil {
		t.Fatalf("GITHUB_BASE_REF let git write %s:\n%s", pwned, r)
	}
}
