//go:build unix

package bench

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/testkit/histgen"
)

// auditHistory is the generated 5,000-commit history BenchmarkAudit
// audits: one event per commit, archived every 500 commits down to the
// last 20, so the log holds 20-520 events (sum of all versions about
// 300 MB). It is built once per process (git fast-import) and kept
// across iterations and runs of the benchmark.
var auditHistory = struct {
	once sync.Once
	dir  string
	err  error
}{}

// removeAuditRepo removes the history when the benchmarks are done.
func removeAuditRepo() {
	if auditHistory.dir != "" {
		os.RemoveAll(auditHistory.dir)
	}
}

func auditRepo(b *testing.B) string {
	auditHistory.once.Do(func() {
		dir, err := os.MkdirTemp("", "memsys-bench-audit-")
		if err == nil {
			err = histgen.History{Commits: 5000, ArchiveEvery: 500, Keep: 20}.Write(dir)
		}
		auditHistory.dir, auditHistory.err = dir, err
	})
	if auditHistory.err != nil {
		b.Fatal(auditHistory.err)
	}
	return auditHistory.dir
}

// BenchmarkAudit measures issue 15's audit targets on a 5,000-commit
// history as ratios of median CPU times (user + system, children
// included), every process run once per iteration in the same order:
// `git log --oneline -- CHANGELOG.md`; `git cat-file --batch` fed
// every "commit:CHANGELOG.md" (reading every version of the log: the
// I/O floor), alone and with `wc -c` reading its output; `memsys
// audit` with the cache off (cold); `memsys audit` again over the
// cache an untimed audit wrote (warm); and `memsys audit` over the
// cache an audit of HEAD's parent wrote, put back before each run
// (one new commit since the cached audit).
func BenchmarkAudit(b *testing.B) {
	buildMemsys(b)
	dir := auditRepo(b)
	parentEntry := auditNewCommit(b, dir)
	out, err := (&gitx.Git{Dir: dir}).Run(context.Background(), "log", "--format=%H", "--", "CHANGELOG.md")
	if err != nil {
		b.Fatal(err)
	}
	var specs bytes.Buffer
	for _, id := range strings.Fields(string(out)) {
		specs.WriteString(id + ":CHANGELOG.md\n")
	}
	specFile := b.TempDir() + "/specs"
	if err := os.WriteFile(specFile, specs.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	// The untimed audit that writes the cache the warm steps read.
	if out, err := exec.Command(memsysBin, "-C", dir, "audit").CombinedOutput(); err != nil {
		b.Fatalf("audit: %v\n%s", err, out)
	}
	type step struct {
		name  string
		args  []string
		env   []string
		stdin []byte
		prep  func() // untimed, before each run
	}
	steps := []step{
		{name: "git-log", args: []string{"git", "-C", dir, "log", "--oneline", "--", "CHANGELOG.md"}},
		{name: "catfile", args: []string{"git", "-C", dir, "cat-file", "--batch"}, stdin: specs.Bytes()},
		// The floor again with its reader counted (audit's own process
		// reads the same bytes from the same kind of pipe).
		{name: "catfile-read", args: []string{"sh", "-c", `git -C "$1" cat-file --batch < "$2" | wc -c`, "sh", dir, specFile}},
		{name: "audit-cold", args: []string{memsysBin, "-C", dir, "audit"}, env: []string{"MEMSYS_NO_CACHE=1"}},
		{name: "audit-warm", args: []string{memsysBin, "-C", dir, "audit"}},
		{name: "audit-new-commit", args: []string{memsysBin, "-C", dir, "audit"}, prep: parentEntry},
	}
	cpus, walls := map[string][]float64{}, map[string][]float64{}
	b.ResetTimer()
	for range b.N {
		for _, s := range steps {
			if s.prep != nil {
				s.prep()
			}
			cmd := exec.Command(s.args[0], s.args[1:]...)
			cmd.Env = append(os.Environ(), s.env...)
			cmd.Stdin = bytes.NewReader(s.stdin)
			var sink countWriter
			cmd.Stdout = &sink
			start := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("%s: %v", s.name, err)
			}
			walls[s.name] = append(walls[s.name], float64(time.Since(start)))
			ps := cmd.ProcessState
			cpus[s.name] = append(cpus[s.name], float64(ps.UserTime()+ps.SystemTime()))
		}
	}
	b.StopTimer()
	m := map[string]float64{}
	for _, s := range steps {
		m[s.name] = median(cpus[s.name])
		b.ReportMetric(m[s.name]/1e6, s.name+"-cpu-ms")
		b.ReportMetric(median(walls[s.name])/1e6, s.name+"-wall-ms")
	}
	b.ReportMetric(m["audit-cold"]/m["catfile"], "audit-cold-x-catfile")
	b.ReportMetric(m["audit-cold"]/m["catfile-read"], "audit-cold-x-catfile-read")
	b.ReportMetric(m["audit-warm"]/m["git-log"], "audit-warm-x-gitlog")
	b.ReportMetric(m["audit-cold"]/m["git-log"], "audit-cold-x-gitlog")
	b.ReportMetric(m["audit-new-commit"]/m["git-log"], "audit-new-commit-x-gitlog")
}

// auditParent is the audit cache entry an audit of the generated
// history wrote before auditNewCommit added a commit, and its path.
var auditParent struct {
	path string
	data []byte
}

// auditNewCommit commits one more event on top of the generated history
// (once per process) and returns what puts back the audit cache entry
// of an audit of its parent, so an audit then finds one new commit.
func auditNewCommit(b *testing.B, dir string) func() {
	if auditParent.data == nil {
		g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x"}}
		run := func(args ...string) {
			if out, err := g.Run(context.Background(), args...); err != nil {
				b.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		run("checkout", "-q", "-f", "main")
		if out, err := exec.Command(memsysBin, "-C", dir, "audit").CombinedOutput(); err != nil {
			b.Fatalf("audit: %v\n%s", err, out)
		}
		ents, _ := filepath.Glob(filepath.Join(dir, ".git", "memsys-cache", "audit-*"))
		if len(ents) != 1 {
			b.Fatalf("audit cache entries %v, want one", ents)
		}
		saved, err := os.ReadFile(ents[0])
		if err != nil {
			b.Fatal(err)
		}
		log := filepath.Join(dir, "CHANGELOG.md")
		data, err := os.ReadFile(log)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(log, append(data, "\n---\n\n"+histgen.Event(5001)...), 0o644); err != nil {
			b.Fatal(err)
		}
		run("commit", "-q", "-am", "one more")
		auditParent.path, auditParent.data = ents[0], saved
	}
	return func() {
		if err := os.WriteFile(auditParent.path, auditParent.data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// countWriter discards what it is given: cat-file's 300 MB are not
// kept, as audit does not keep them.
type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }
