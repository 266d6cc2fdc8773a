package history

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
)

// history describes a generated repository: commits commits, each
// appending one event to CHANGELOG.md; every archiveEvery-th commit
// moves all but the last keep events into changelog-archive.md, as
// `memsys archive` does; the commit numbered bad (if > 0) rewrites an
// event that an earlier commit made.
type history struct {
	commits, archiveEvery, keep, bad int
}

func event(n int) string {
	return fmt.Sprintf("### evt-%03d | 2025-01-%02d %02d:%02d | agent-%d | modify\n\n**Scope**: module-%d\n**Summary**: change %d to module %d\n\n**Details**:\n- entity: module-%d\n- changes: step %d\n\n**Refs**: none\n**Tags**: gen\n",
		n, 1+n/1440%28, n/60%24, n%60, n%3, n%17, n, n%17, n%17, n)
}

// build writes the history with git fast-import: one process, no
// working tree, thousands of commits in well under a second.
func (h history) build(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "memsys-audit-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
	run := func(stdin []byte, args ...string) {
		if out, err := g.RunInput(context.Background(), bytes.NewReader(stdin), args...); err != nil {
			tb.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run(nil, "init", "-q", "-b", "main")
	var s bytes.Buffer
	data := func(b string) { fmt.Fprintf(&s, "data %d\n%s\n", len(b), b) }
	var logEvents []string // events in CHANGELOG.md
	var archive strings.Builder
	for c := 1; c <= h.commits; c++ {
		logEvents = append(logEvents, event(c))
		archived := false
		if h.archiveEvery > 0 && c%h.archiveEvery == 0 && len(logEvents) > h.keep {
			moved := logEvents[:len(logEvents)-h.keep]
			if archive.Len() == 0 {
				archive.WriteString("# Changelog archive\n")
			}
			fmt.Fprintf(&archive, "\n## Archive: %s through %s | Archived 2025-02-01\n", moved[0][4:11], moved[len(moved)-1][4:11])
			for _, e := range moved {
				archive.WriteString("\n" + e)
			}
			logEvents = append([]string(nil), logEvents[len(moved):]...)
			archived = true
		}
		if c == h.bad {
			logEvents[0] = strings.Replace(logEvents[0], "**Summary**: change", "**Summary**: quietly rewritten change", 1)
		}
		log := "# Changelog\n\n## Event Log\n\n" + strings.Join(logEvents, "\n---\n\n")
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\ncommitter Ada <ada@example.com> %d +0000\n", c, 1735689600+c*60)
		data(fmt.Sprintf("commit %d", c))
		if c > 1 {
			fmt.Fprintf(&s, "from :%d\n", c-1)
		}
		s.WriteString("M 100644 inline CHANGELOG.md\n")
		data(log)
		if archived {
			s.WriteString("M 100644 inline changelog-archive.md\n")
			data(archive.String())
		}
	}
	run(s.Bytes(), "fast-import", "--quiet")
	return dir
}

func TestGeneratedHistory(t *testing.T) {
	for _, h := range []history{
		{commits: 300, archiveEvery: 50, keep: 20},
		{commits: 300, archiveEvery: 50, keep: 20, bad: 175},
		{commits: 120, archiveEvery: 50, keep: 20, bad: 100}, // the bad commit is also an archive commit
	} {
		t.Run(fmt.Sprintf("%+v", h), func(t *testing.T) {
			dir := h.build(t)
			g := &gitx.Git{Dir: dir}
			res, err := Run(context.Background(), g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Commits != h.commits {
				t.Errorf("audited %d commits, want %d", res.Commits, h.commits)
			}
			want := 0
			if h.bad > 0 {
				want = 1
			}
			if len(res.Findings) != want {
				t.Fatalf("%d findings, want %d: %v", len(res.Findings), want, res.Findings)
			}
			if want == 1 {
				f := res.Findings[0]
				msg, err := g.Run(context.Background(), "log", "-1", "--format=%s", f.Commit)
				if err != nil || strings.TrimSpace(string(msg)) != fmt.Sprintf("commit %d", h.bad) || f.Rule != "MS301" || !strings.Contains(f.Detail, "+**Summary**: quietly rewritten") {
					t.Errorf("finding in %q (%v): %v\n%s", msg, err, f.Diagnostic, f.Detail)
				}
			}
		})
	}
}

// BenchmarkAudit5000 audits a 5,000-commit history and, in the same
// run, times `git log --format=%H -- CHANGELOG.md` on it; the
// x-git-log metric is the ratio (issue 4: at most 10).
func BenchmarkAudit5000(b *testing.B) {
	dir := history{commits: 5000, archiveEvery: 50, keep: 20}.build(b)
	g := &gitx.Git{Dir: dir}
	ctx := context.Background()
	var auditNS, logNS int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := nowNS()
		if _, err := g.Run(ctx, "log", "--format=%H", "--", "CHANGELOG.md"); err != nil {
			b.Fatal(err)
		}
		t1 := nowNS()
		res, err := Run(ctx, g, Options{})
		if err != nil || len(res.Findings) != 0 || res.Commits != 5000 {
			b.Fatalf("audit: %v, %d findings, %d commits", err, len(res.Findings), res.Commits)
		}
		t2 := nowNS()
		logNS += t1 - t0
		auditNS += t2 - t1
	}
	b.ReportMetric(float64(auditNS)/float64(b.N)/1e6, "audit-ms")
	b.ReportMetric(float64(logNS)/float64(b.N)/1e6, "git-log-ms")
	b.ReportMetric(float64(auditNS)/float64(logNS), "x-git-log")
}
