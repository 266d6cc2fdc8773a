package memory

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// stagedRepo is a git repository holding a memory of n events
// committed, one more event staged, and an unstaged append after it
// (without regen: the working tree's log is two events ahead of HEAD).
func stagedRepo(t testing.TB, n int) string {
	t.Helper()
	root := t.TempDir()
	g := &gitx.Git{Dir: root, Env: []string{"HOME=" + root, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x",
		"GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x", "GIT_AUTHOR_DATE=2025-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-01-01T00:00:00Z"}}
	git := func(args ...string) {
		t.Helper()
		if _, err := g.Run(context.Background(), args...); err != nil {
			t.Fatal(err)
		}
	}
	write := func(rel string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := loggen.Generate(n, 1)
	git("init", "-q", "-b", "main")
	write(parse.AgentsFile, []byte("# Agents\n\n## Memory System Protocol\n"))
	write(parse.LogFile, log)
	git("add", ".")
	git("commit", "-q", "-m", "memory")
	next := func(k int) []byte { return []byte(newEventN(loggen.ID(n + k)[len("evt-"):])) }
	log = append(log, next(1)...)
	write(parse.LogFile, log)
	git("add", parse.LogFile)
	write(parse.LogFile, append(log, next(2)...))
	return root
}

func newEventN(num string) string {
	return "\n---\n\n### evt-" + num + " | 2099-01-01 00:00 | a | create\n\n**Scope**: s\n**Summary**: appended\n\n**Details**:\n- entity: appended_thing\n\n**Refs**: none\n**Tags**: none\n"
}

// TestLintStagedKeepsCacheApart: a staged lint reads the index and
// keeps entries of its own: the working tree's cached result survives
// it, and a second staged lint is answered from its own result.
func TestLintStagedKeepsCacheApart(t *testing.T) {
	root := stagedRepo(t, 30)
	defer useCache(true)()
	ctx := context.Background()
	plain := func() *LintReport {
		t.Helper()
		r, err := Lint(ctx, root, LintOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := plain()
	hits := lintHits
	if again := plain(); lintHits != hits+1 || again.Events != first.Events {
		t.Fatalf("second plain lint: hits %d→%d, events %d, want a hit with %d", hits, lintHits, again.Events, first.Events)
	}
	entries := cacheEntries(t, root)
	hits, resumes := lintHits, lintResumes
	staged, err := Lint(ctx, root, LintOptions{Git: history.GitOptions{Staged: true}})
	if err != nil {
		t.Fatal(err)
	}
	if staged.Events != 31 || first.Events != 32 {
		t.Errorf("events: staged %d, working tree %d; want 31 and 32", staged.Events, first.Events)
	}
	if lintHits != hits || lintResumes != resumes {
		t.Errorf("a staged lint of a log the working tree's checkpoint is past: hits %d→%d, resumes %d→%d; want a cold lint", hits, lintHits, resumes, lintResumes)
	}
	got := cacheEntries(t, root)
	kept := slices.DeleteFunc(slices.Clone(got), func(e string) bool { return !slices.Contains(entries, e) })
	// Its own two entries, and the comparison's summaries (sideStore).
	if !slices.Equal(kept, entries) || len(got) != len(entries)+3 {
		t.Errorf("a staged lint changed the working tree's entries or wrote other than its own two and the summaries: %q, then %q", entries, got)
	}
	hits = lintHits
	if again, err := Lint(ctx, root, LintOptions{Git: history.GitOptions{Staged: true}}); err != nil || lintHits != hits+1 || again.Events != 31 {
		t.Errorf("second staged lint: %v, hits %d→%d, events %d; want a hit with 31", err, hits, lintHits, again.Events)
	}
	hits = lintHits
	if last := plain(); lintHits != hits+1 || last.Events != first.Events {
		t.Errorf("plain lint after a staged one: hits %d→%d, events %d, want a hit with %d", hits, lintHits, last.Events, first.Events)
	}
}

// cacheEntries lists the cache folder of root with each entry's size
// and modification time.
func cacheEntries(t testing.TB, root string) []string {
	t.Helper()
	des, err := os.ReadDir(workspace.CacheDir(root))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		fi, err := de.Info()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, de.Name()+" "+fi.ModTime().String())
	}
	return out
}

// BenchmarkLintStaged measures what lint --staged costs, never cached
// (TestLintStagedKeepsCacheApart), against lint --base HEAD (the same
// comparison with HEAD, the files read from the working tree) and a
// plain lint cold and answered from the cache, on a 10,000-event log:
// compare the ns/op of one run.
func BenchmarkLintStaged(b *testing.B) {
	root := stagedRepo(b, 10000)
	ctx := context.Background()
	run := func(b *testing.B, cache bool, o LintOptions) {
		defer useCache(cache)()
		if _, err := Lint(ctx, root, o); err != nil { // the cache's entries, when on
			b.Fatal(err)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := Lint(ctx, root, o); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("staged", func(b *testing.B) { run(b, true, LintOptions{Git: history.GitOptions{Staged: true}}) })
	// --base HEAD compares the working tree with HEAD as --staged
	// compares the index: the same history rules, files read from disk.
	b.Run("base-HEAD", func(b *testing.B) { run(b, true, LintOptions{Git: history.GitOptions{Base: "HEAD"}}) })
	b.Run("cold", func(b *testing.B) { run(b, false, LintOptions{}) })
	b.Run("cached", func(b *testing.B) { run(b, true, LintOptions{}) })
}

// TestCheckStagedCachedEqualsCold: regen --check --staged goes through
// the history cache, keyed by the staged bytes: with the working tree
// two events ahead (and its checkpoint written by a regen) and after
// the staged derived files, cached and cold give the same diff and
// warnings, and a second staged check resumes from the checkpoint the
// first one wrote for the staged log.
func TestCheckStagedCachedEqualsCold(t *testing.T) {
	root := stagedRepo(t, 40)
	// Full tier, and derived files regenerated from the working tree's
	// log (two events past HEAD) and staged: one event ahead of the
	// staged log. The regen leaves a checkpoint of the longer log.
	if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(`{"tier": "full"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	func() {
		defer useCache(true)()
		if _, err := Regenerate(root, RegenOptions{}); err != nil {
			t.Fatal(err)
		}
	}()
	g := &gitx.Git{Dir: root, Env: []string{"HOME=" + root, "GIT_CONFIG_NOSYSTEM=1"}}
	if _, err := g.Run(context.Background(), "add", ".memsys.json", parse.GraphFile, parse.ContextFile); err != nil {
		t.Fatal(err)
	}
	check := func(cached bool) (string, diag.Diagnostics) {
		t.Helper()
		defer useCache(cached)()
		diff, _, _, problems, err := CheckStaged(context.Background(), root)
		if err != nil {
			t.Fatal(err)
		}
		return diff, problems
	}
	coldDiff, coldProblems := check(false)
	if coldDiff == "" {
		t.Fatal("the staged derived files are an event ahead of the staged log: want a diff")
	}
	for i := range 2 {
		before := resumes
		diff, problems := check(true)
		if diff != coldDiff || !reflect.DeepEqual(problems, coldProblems) {
			t.Fatalf("run %d: cached staged check differs from the cold one:\n%s\nwant\n%s", i, diff, coldDiff)
		}
		if i == 1 && resumes == before {
			t.Error("the second staged check did not resume from the checkpoint the first wrote")
		}
	}
}
