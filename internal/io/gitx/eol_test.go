package gitx

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestWritesCRLF asks git itself: for each .gitattributes rule and each
// core.autocrlf and core.eol setting, a file committed with LF line
// endings is deleted and checked out again, and WritesCRLF must say
// whether git wrote it with CRLF, for a file of the same pattern that
// git does not track.
func TestWritesCRLF(t *testing.T) {
	attrs := []string{"", "*.md text", "*.md text=auto", "*.md -text", "*.md binary", "*.md eol=crlf", "*.md eol=lf",
		"*.md text eol=crlf", "*.md text=auto eol=lf", "*.md -text eol=crlf", "*.txt eol=crlf"}
	autocrlfs := []string{"", "yes", "input"}
	eols := []string{"", "lf", "crlf"}
	crlf := 0
	for _, attr := range attrs {
		dir := t.TempDir()
		run(t, dir, "init", "-q", "-b", "main")
		if attr != "" {
			os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte(attr+"\n"), 0o644)
		}
		os.WriteFile(filepath.Join(dir, "a.md"), []byte("one\ntwo\n"), 0o644)
		run(t, dir, "add", ".")
		run(t, dir, "commit", "-q", "-m", "c")
		g := &Git{Dir: dir, Env: gitEnv(dir)}
		for _, ac := range autocrlfs {
			for _, eol := range eols {
				set := func(key, v string) {
					if v == "" {
						runAny(t, dir, "config", "--unset-all", key) // exits 5 when unset
						return
					}
					run(t, dir, "config", key, v)
				}
				set("core.autocrlf", ac)
				set("core.eol", eol)
				os.Remove(filepath.Join(dir, "a.md"))
				run(t, dir, "checkout", "--", "a.md")
				b, err := os.ReadFile(filepath.Join(dir, "a.md"))
				if err != nil {
					t.Fatal(err)
				}
				want := bytes.Contains(b, []byte("\r\n"))
				if want {
					crlf++
				}
				if got := g.WritesCRLF(context.Background(), "sub/new.md"); got != want {
					t.Errorf(".gitattributes %q, core.autocrlf %q, core.eol %q: WritesCRLF = %v, git checkout wrote %q", attr, ac, eol, got, b)
				}
			}
		}
	}
	// Both answers must have come up, or the table tests nothing.
	if all := len(attrs) * len(autocrlfs) * len(eols); crlf == 0 || crlf == all {
		t.Errorf("git wrote CRLF in %d of %d cases", crlf, all)
	}
	if (&Git{Dir: t.TempDir()}).WritesCRLF(context.Background(), "a.md") {
		t.Error("outside a repository: WritesCRLF = true, want LF")
	}
}

// runAny runs git and ignores its exit status.
func runAny(t *testing.T, dir string, args ...string) {
	t.Helper()
	c := (&Git{Dir: dir, Env: gitEnv(dir)}).cmd(context.Background(), args...)
	c.Run()
}
