package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
)

// TestEveryCommandReadsEachFileOnce holds the commands to issue 15's
// "every command reads each file once" for the files that grow with the
// history (the log, the archive, graph.md, context.md): run in process
// on a generated memory of each tier, cold (MEMSYS_NO_CACHE), twice
// through the history cache (writing it, then reading it) and cold
// again (the derived files now behind the appended events), no command
// reads one of them whole more than once (workspace.ObserveReads; the
// root search's peek at the log's start and append's tail read are not
// whole reads). AGENTS.md, a few lines, is left out: the tier detection
// and lint's tier rule each read it. .memsys.json is read once too: it
// keys the lint cache, and append --regen reads it before it writes.
// Each pass ends with a correction (append --regen --supersedes), after
// which the history cache cannot resume a replay over the Supersedes
// field: the next commands must go cold without hashing the log first
// (workspace.ReadAfterMarksIf).
func TestEveryCommandReadsEachFileOnce(t *testing.T) {
	commands := [][]string{
		{"status"}, {"lint"}, {"regen", "--check"}, {"regen"},
		{"show", "evt-100"}, {"log"}, {"log", "-n", "5"}, {"graph"}, {"recall", "upload_handler"},
		{"loops"}, {"report"}, {"snapshot", "upload_handler"}, {"export"},
		{"append", "--type", "test", "--scope", "reads", "--summary", "one more", "--agent", "t",
			"--detail", "target=reads", "--detail", "result=pass", "--time", "2099-01-01 00:00"},
	}
	for _, tier := range []string{"core", "full"} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), loggen.Generate(300, 1), 0o644)
		os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("# Agents\n\n## Memory System Protocol\n\nmemsys tier: "+tier+"\n"), 0o644)
		os.MkdirAll(filepath.Join(dir, ".memory"), 0o755)
		os.WriteFile(filepath.Join(dir, ".memsys.json"), []byte(`{"archive": {"threshold": 5000, "keep": 20}}`+"\n"), 0o644)
		if out, code := memsysIn(t, dir, "regen"); code != 0 {
			t.Fatalf("regen: exit %d\n%s", code, out)
		}
		for i, pass := range []string{"cold", "cache written", "cache read", "cold, derived files stale"} {
			t.Setenv(workspace.EnvNoCache, map[bool]string{true: "1", false: ""}[strings.HasPrefix(pass, "cold")])
			supersede := []string{"append", "--regen", "--type", "decision", "--scope", "reads", "--summary", "a correction", "--agent", "t",
				"--supersedes", fmt.Sprintf("evt-%03d", 200+i), "--time", "2099-01-02 00:00"}
			for _, args := range append(commands, supersede) {
				reads := map[string]int{}
				stop := workspace.ObserveReads(func(p string) { reads[p]++ })
				out, code := memsysIn(t, dir, args...)
				stop()
				if code == 2 {
					t.Fatalf("%s, %s: memsys %s: exit 2\n%s", tier, pass, strings.Join(args, " "), out)
				}
				for p, n := range reads {
					if n > 1 && !strings.HasSuffix(p, "AGENTS.md") {
						t.Errorf("%s tier, %s: memsys %s read %s %d times", tier, pass, args[0], strings.TrimPrefix(p, dir+"/"), n)
					}
				}
			}
		}
	}
}
