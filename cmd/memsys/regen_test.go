package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
)

// TestRegenRefusesCutShortLog: a line over the parser's limit stops the
// parse there, so regen and init must refuse (exit 2, naming file and
// line) rather than write derived files from a history cut short. The
// line is generated here: a 1 MiB line does not belong in a testscript.
func TestRegenRefusesCutShortLog(t *testing.T) {
	const head = "# Changelog\n\n## Event Log\n\n### evt-001 | 2026-03-01 10:00 | a | create\n\n**Scope**: auth\n**Summary**: s\n"
	long := head + "**Details**:\n- blob: " + strings.Repeat("x", workspace.MaxLineLength) + "\n\n### evt-002 | 2026-03-01 11:00 | a | create\n\n**Scope**: b\n**Summary**: t\n"
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(long), 0o644))
	must(os.MkdirAll(filepath.Join(dir, ".memory"), 0o755))
	must(os.WriteFile(filepath.Join(dir, ".memory", "context.md"), []byte("old\n"), 0o644))
	for _, args := range [][]string{{"regen"}, {"regen", "--check"}, {"regen", "--stdout", "graph"}, {"init"}} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), append([]string{"memsys", "-C", dir}, args...), &out, &errOut)
		want := "memsys: CHANGELOG.md:10:1: line is "
		if code != 2 || !strings.HasPrefix(errOut.String(), want) || strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line starting %q", args, code, errOut.String(), want)
		}
		if out.Len() != 0 {
			t.Errorf("%v: stdout %q", args, out.String())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".memory", "context.md")); string(b) != "old\n" {
		t.Errorf("context.md was rewritten: %q", b)
	}
	for _, f := range []string{"TODO.md", ".memory/graph.md", "AGENTS.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was created from a cut-short log", f)
		}
	}
}

// TestCoreExitCodes pins the exit status of init and regen, which a
// testscript's "! exec" cannot tell apart: 1 is findings (out of date),
// 2 is cannot run.
func TestCoreExitCodes(t *testing.T) {
	const log = "# Changelog\n\n## Event Log\n\n### evt-001 | 2026-03-01 10:00 | a | create\n\n**Scope**: auth\n**Summary**: s\n\n**Details**:\n- entity: auth_module\n- path: src/auth\n- purpose: login\n"
	dir := t.TempDir()
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		dir  string
		args []string
		want int
	}{
		{empty, []string{"regen"}, 2},            // no log
		{empty, []string{"regen", "--check"}, 2}, // no log
		{dir, []string{"init", "--tier", "x"}, 2},
		{dir, []string{"init", "--bogus"}, 2},
		{dir, []string{"init"}, 0},
		{dir, []string{"init"}, 0},
		{dir, []string{"regen", "--check"}, 0},
		{dir, []string{"regen", "--at", "evt-001", "--check"}, 0},
		{dir, []string{"regen", "--at", "evt-002"}, 2},
		{dir, []string{"regen", "--at", "x"}, 2},
		{dir, []string{"regen", "--stdout", "todo"}, 2},
		{dir, []string{"regen", "--bogus"}, 2},
		{dir, []string{"regen", "arg"}, 2},
	}
	for _, s := range steps {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), append([]string{"memsys", "-C", s.dir}, s.args...), &out, &errOut); code != s.want {
			t.Errorf("%v: exit %d, want %d; stderr %q", s.args, code, s.want, errOut.String())
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".memory", "graph.md"), []byte("stale\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"memsys", "-C", dir, "regen", "--check"}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "-stale") {
		t.Errorf("stale graph.md: exit %d, want 1 with a diff; stdout %q", code, out.String())
	}
}
