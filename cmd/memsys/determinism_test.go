package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
)

// TestRegenLineEndings: the same log as LF, as CRLF and with a BOM
// regenerates byte-identical derived files, twice over.
func TestRegenLineEndings(t *testing.T) {
	lf := loggen.Generate(60, 7)
	variants := map[string][]byte{
		"lf":       lf,
		"crlf":     bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")),
		"bom+crlf": append([]byte("\ufeff"), bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))...),
		"trailing": bytes.ReplaceAll(lf, []byte("\n"), []byte(" \t\n")),
	}
	want := map[string][]byte{}
	for _, name := range []string{"lf", "crlf", "bom+crlf", "trailing"} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), variants[name], 0o644)
		os.WriteFile(filepath.Join(dir, "TODO.md"), []byte("# TODO\n"), 0o644)
		for range 2 {
			if out, code := memsysIn(t, dir, "regen"); code != 0 {
				t.Fatalf("%s: regen exit %d: %s", name, code, out)
			}
		}
		for _, f := range []string{".memory/graph.md", ".memory/context.md"} {
			got, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if w, ok := want[f]; !ok {
				want[f] = got
			} else if !bytes.Equal(got, w) {
				t.Errorf("%s: %s differs from the LF log's", name, f)
			}
			if bytes.Contains(got, []byte("\r")) {
				t.Errorf("%s: %s contains CR", name, f)
			}
		}
		if out, code := memsysIn(t, dir, "regen", "--check"); code != 0 || strings.TrimSpace(out) != "" {
			t.Errorf("%s: regen --check after regen: exit %d\n%s", name, code, out)
		}
	}
}
