package history

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/histgen"
)

func TestGeneratedHistory(t *testing.T) {
	for _, h := range []histgen.History{
		{Commits: 300, ArchiveEvery: 50, Keep: 20},
		{Commits: 300, ArchiveEvery: 50, Keep: 20, Edit: 175},
		{Commits: 120, ArchiveEvery: 50, Keep: 20, Edit: 100}, // the bad commit is also an archive commit
	} {
		t.Run(fmt.Sprintf("%+v", h), func(t *testing.T) {
			dir := h.Build(t)
			g := &gitx.Git{Dir: dir}
			res, err := Run(context.Background(), g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Commits != h.Commits {
				t.Errorf("audited %d commits, want %d", res.Commits, h.Commits)
			}
			want := 0
			if h.Edit > 0 {
				want = 1
			}
			if len(res.Findings) != want {
				t.Fatalf("%d findings, want %d: %v", len(res.Findings), want, res.Findings)
			}
			if want == 1 {
				f := res.Findings[0]
				msg, err := g.Run(context.Background(), "log", "-1", "--format=%s", f.Commit)
				if err != nil || strings.TrimSpace(string(msg)) != fmt.Sprintf("commit %d", h.Edit) || f.Rule != "MS301" || !strings.Contains(f.Detail, "+**Summary**: quietly rewritten") {
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
	dir := histgen.History{Commits: 5000, ArchiveEvery: 50, Keep: 20}.Build(b)
	g := &gitx.Git{Dir: dir}
	ctx := context.Background()
	// Cold every time: the commit cache would answer every iteration
	// after the first (bench's BenchmarkAudit measures it warm).
	b.Setenv(workspace.EnvNoCache, "1")
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
