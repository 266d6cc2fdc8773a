package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEchoedInputIsClipped: a message that quotes input back (an
// argument, a flag value, an event or ledger on stdin) quotes an
// excerpt: a 1 MB input gives one short line on stderr, exit 2, and
// the log untouched.
func TestEchoedInputIsClipped(t *testing.T) {
	dir := t.TempDir()
	log := "# Changelog\n\n## Event Log\n\n### evt-001 | 2026-01-01 10:00 | a | create\n\n**Scope**: x\n**Summary**: s\n\n**Details**:\n- entity: x\n\n**Refs**: none\n**Tags**: none\n"
	if err := os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 1<<20)
	ev := func(extra string) []string {
		return append([]string{"append", "--type", "fix", "--scope", "s", "--summary", "s"}, strings.Fields(extra)...)
	}
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"append argument", []string{"append", big}, ""},
		{"append --type", []string{"append", "--type", big, "--scope", "s", "--summary", "s"}, ""},
		{"append --refs", append(ev(""), "--refs", "evt-"+big), ""},
		{"append --supersedes", append(ev(""), "--supersedes", big), ""},
		{"append --time", append(ev(""), "--time", big), ""},
		{"append --detail", append(ev(""), "--detail", big), ""},
		{"append --detail key", append(ev(""), "--detail", big+"=v"), ""},
		{"append --detail nest", append(ev(""), "--detail", "a."+big+"=v"), ""},
		{"append --agent", append(ev(""), "--agent", big+"|"), ""},
		{"append --format", append(ev(""), "--format", big), ""},
		{"append --json file", []string{"append", "--json", big}, ""},
		{"append unknown flag", []string{"append", "--" + big}, ""},
		{"root unknown flag", []string{"--" + big}, ""},
		{"unknown command", []string{big}, ""},
		{"help unknown command", []string{"help", big}, ""},
		{"archive --keep", []string{"archive", "--keep", big}, ""},
		{"show", []string{"show", big}, ""},
		{"show evt", []string{"show", "evt-" + big}, ""},
		{"log --type", []string{"log", "--type", big}, ""},
		{"log --since", []string{"log", "--since", big}, ""},
		{"log --entity", []string{"log", "--entity", big}, ""},
		{"graph --status", []string{"graph", "--status", big}, ""},
		{"lint --format", []string{"lint", "--format", big}, ""},
		{"lint --explain", []string{"lint", "--explain", big}, ""},
		{"lint --rule", []string{"lint", "--rule", "MS101=" + big}, ""},
		{"init --tier", []string{"init", "--tier", big}, ""},
		{"recall", []string{"recall", big}, ""},
		{"import argument", []string{"import", big}, ""},
		{"import --from", []string{"import", "--from", big}, ""},
		{"append --json type", []string{"append", "--json", "-"}, `{"type": "` + big + `", "scope": "s", "summary": "s"}`},
		{"append --json key", []string{"append", "--json", "-"}, `{"type": "fix", "scope": "s", "summary": "s", "` + big + `": 1}`},
		{"append --json tag", []string{"append", "--json", "-"}, `{"type": "fix", "scope": "s", "summary": "s", "tags": ["` + big + `,a"]}`},
		{"append --json empty key", []string{"append", "--json", "-"}, `{"type": "fix", "scope": "s", "summary": "s", "details": {"": "` + big + `"}}`},
		{"append --json detail list", []string{"append", "--json", "-"}, `{"type": "fix", "scope": "s", "summary": "s", "details": {"k": ["` + big + `"]}}`},
		{"append --json broken", []string{"append", "--json", "-"}, `{` + big},
		{"import id twice", []string{"import", "--from", "-"}, strings.Repeat(`{"id": "`+big+`", "ts": "2026-01-01T10:00", "type": "fact", "content": "x"}`+"\n", 2)},
		{"import ts", []string{"import", "--from", "-"}, `{"id": "a", "ts": "` + big + `", "type": "fact", "content": "x"}`},
		{"import type", []string{"import", "--from", "-"}, `{"id": "a", "ts": "2026-01-01T10:00", "type": "` + big + `", "content": "x"}`},
		{"import related", []string{"import", "--from", "-"}, `{"id": "a", "ts": "2026-01-01T10:00", "type": "fact", "content": "x", "related": ["` + big + `"]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "stdin")
			if err := os.WriteFile(in, []byte(c.stdin), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			old := os.Stdin
			os.Stdin = f
			defer func() { os.Stdin = old }()
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"memsys", "-C", dir}, c.args...), &out, &errOut)
			msg := errOut.String()
			if code != 2 || strings.Count(msg, "\n") != 1 || len(msg) > 600 {
				t.Errorf("exit %d, %d bytes on stderr, want exit 2 and one short line: %.300q", code, len(msg), msg)
			}
			if got, _ := os.ReadFile(filepath.Join(dir, "CHANGELOG.md")); string(got) != log {
				t.Fatalf("the log changed")
			}
		})
	}
}
