package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// gitRoot is a repository holding files (paths from the root),
// committed; git runs a command in it.
func gitRoot(t testing.TB, files map[string][]byte) (root string, git func(args ...string)) {
	t.Helper()
	root = newRootWith(t, files)
	g := &gitx.Git{Dir: root, Env: []string{"HOME=" + root, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x", "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z"}}
	git = func(args ...string) {
		t.Helper()
		if _, err := g.Run(context.Background(), args...); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "--allow-empty", "-m", "memory")
	return root, git
}

// lintGitResult is Lint's whole report with o as JSON, or its error:
// the files judged through the cache (cached), or without it, or
// (session) in one Session with the revisions, as before the cache
// could answer a lint with revisions.
func lintGitResult(t testing.TB, root string, o history.GitOptions, cached, session bool) string {
	t.Helper()
	defer useCache(cached)()
	defer func(b bool) { judgeApart = b }(judgeApart)
	judgeApart = !session
	r, err := Lint(context.Background(), root, LintOptions{Git: o})
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// sameGitLint checks that lint --staged and lint --base HEAD at root
// report through the cache (twice: the second run may be answered
// from the result) and uncached exactly what one Session reports, and
// returns the Session's reports.
func sameGitLint(t testing.TB, root, what string) (staged, base string) {
	t.Helper()
	for _, o := range []history.GitOptions{{Staged: true}, {Base: "HEAD"}} {
		want := lintGitResult(t, root, o, false, true)
		for _, run := range []struct {
			name   string
			cached bool
		}{{"cached", true}, {"cached again", true}, {"uncached", false}} {
			if got := lintGitResult(t, root, o, run.cached, false); got != want {
				t.Fatalf("%s, %+v, %s: lint differs\n%s\none Session\n%s", what, o, run.name, got, want)
			}
		}
		if o.Staged {
			staged = want
		} else {
			base = want
		}
	}
	return staged, base
}

// checkGitSteps takes root (committed) through the cases the lint
// cache must not change: the committed memory; a staged append with
// the working tree one event further (the staged files differ from the
// working tree); a committed event edited and staged (the append-only
// rules fire); the log restored and an archive move staged.
func checkGitSteps(t testing.TB, root string, git func(...string)) {
	t.Helper()
	ev := func(n string) string { return strings.ReplaceAll(newEvent, "%s", n) }
	p := filepath.Join(root, parse.LogFile)
	orig, _ := os.ReadFile(p)
	write := func(b []byte) {
		t.Helper()
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lintResult(t, root, true) // the working tree's checkpoint, which a staged lint may resume from
	sameGitLint(t, root, "committed")
	write(append(append([]byte(nil), orig...), ev("9001")...))
	git("add", parse.LogFile)
	write(append(append(append([]byte(nil), orig...), ev("9001")...), ev("9002")...))
	sameGitLint(t, root, "staged append, working tree ahead")
	lintResult(t, root, true)
	sameGitLint(t, root, "after a plain lint of the working tree")
	if i := bytes.Index(orig, []byte("**Summary**:")); i >= 0 {
		edited := append(append(append([]byte(nil), orig[:i]...), "**Summary**: edited"...), orig[i+len("**Summary**:"):]...)
		write(append(edited, ev("9001")...))
		git("add", parse.LogFile)
		sameGitLint(t, root, "a committed event edited")
	}
	write(orig)
	git("add", parse.LogFile)
	if _, err := Archive(root, ArchiveOptions{Threshold: 1, Keep: 1, Agent: "a"}); err == nil {
		git("add", "-A")
		sameGitLint(t, root, "archive move staged")
		git("commit", "-q", "-m", "archive")
		write(append(mustRead(t, p), ev("9003")...))
		git("add", "-A")
		sameGitLint(t, root, "append after an archive move")
	}
}

func mustRead(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestLintGitCachedEqualsSession: lint --staged and lint --base, whose
// files are judged through the lint cache and the history rules apart,
// report exactly what one Session over the files and the revisions
// reports, through each of checkGitSteps, over a sample of the test
// corpus (every memory in a repository of its own costs a few dozen
// git processes) and a generated log.
func TestLintGitCachedEqualsSession(t *testing.T) {
	corpora := lintCorpus(t)
	every := 20
	if testing.Short() {
		every = 60
	}
	var sample []map[string][]byte
	for i := 0; i < len(corpora); i += every {
		sample = append(sample, corpora[i])
	}
	sample = append(sample, map[string][]byte{parse.LogFile: loggen.Generate(60, 1), parse.AgentsFile: []byte("# Agents\n\n## Memory System Protocol\n")})
	resumes := lintResumes
	for i, files := range sample {
		root, git := gitRoot(t, files)
		checkGitSteps(t, root, git)
		if t.Failed() {
			t.Fatalf("sample %d", i)
		}
	}
	if lintResumes == resumes {
		t.Errorf("no lint with revisions resumed from a checkpoint over %d memories: the cache was not used", len(sample))
	}
}

// TestLintStagedCommittedEdit: a staged edit of a committed event is
// an MS301 finding through the cache as well, after the staged lint of
// the commit before it left its checkpoint and a plain lint the
// working tree's.
func TestLintStagedCommittedEdit(t *testing.T) {
	defer useCache(true)()
	log := loggen.Generate(40, 1)
	root, git := gitRoot(t, map[string][]byte{parse.LogFile: log})
	lint := func() string {
		t.Helper()
		r, err := Lint(context.Background(), root, LintOptions{Git: history.GitOptions{Staged: true}})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, d := range r.Diagnostics {
			if strings.HasPrefix(d.Rule, "MS30") {
				b.WriteString(d.Range.String() + " " + d.Rule + " " + d.Event + "\n")
			}
		}
		return b.String()
	}
	if got := lint(); got != "" {
		t.Fatalf("committed memory: %s", got)
	}
	lintResult(t, root, true)
	i := bytes.Index(log, []byte("**Summary**:"))
	edited := append(append(append([]byte(nil), log[:i]...), "**Summary**: edited"...), log[i+len("**Summary**:"):]...)
	if err := os.WriteFile(filepath.Join(root, parse.LogFile), edited, 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", parse.LogFile)
	if got := lint(); !strings.Contains(got, " MS301 evt-001\n") {
		t.Errorf("a staged edit of evt-001 through the cache: append-only findings %q, want MS301 on evt-001", got)
	}
}
