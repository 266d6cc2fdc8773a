package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		".":        `'.'`,
		"a b":      `'a b'`,
		"it's":     `'it'\''s'`,
		"$HOME/`x": "'$HOME/`x'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestInstallChainsAndUninstallRestores runs the file side of the hook
// on a Place built by hand: git is the testscripts' part.
func TestInstallChainsAndUninstallRestores(t *testing.T) {
	top := t.TempDir()
	hooks := filepath.Join(top, ".git", "hooks")
	p := filepath.Join(hooks, "pre-commit")
	h := Place{start: top, top: top, path: p, chained: p + chainedSuffix}
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	theirs := []byte("#!/bin/sh\necho theirs\n")
	if err := os.WriteFile(p, theirs, 0o755); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		run  func() (string, error)
		want string
	}{
		{func() (string, error) { return Install(h, top) }, "installed .git/hooks/pre-commit: it runs .git/hooks/pre-commit.memsys-chained first"},
		{func() (string, error) { return Install(h, top) }, "nothing to do: .git/hooks/pre-commit is memsys's hook already"},
		{func() (string, error) { return Uninstall(h) }, "removed memsys's hook; restored .git/hooks/pre-commit from .git/hooks/pre-commit.memsys-chained"},
		{func() (string, error) { return Uninstall(h) }, "nothing to do: memsys's hook is not installed in .git/hooks"},
	}
	for i, s := range steps {
		msg, err := s.run()
		if err != nil {
			msg = err.Error()
		}
		if !strings.HasPrefix(msg, s.want) {
			t.Errorf("step %d: %q, want it to start with %q", i, msg, s.want)
		}
	}
	if got, _ := os.ReadFile(p); string(got) != string(theirs) {
		t.Errorf("their hook after uninstall: %q", got)
	}
	if _, err := Install(h, filepath.Dir(top)); err == nil || !strings.Contains(err.Error(), "outside the git repository") {
		t.Errorf("a memory outside the repository: %v", err)
	}
}
