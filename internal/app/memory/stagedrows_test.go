package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/app/history"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// stagedRowsMemory is the staged version (A) of a fixture's memory for
// TestLintStagedRowsAsCheckout: its log and archive, the full tier, and
// derived files regen wrote at the log's middle event (stale: behind
// the last), with, when hand is set, a node row added by hand to
// graph.md. ok is false for a fixture regen cannot write so (too few
// events, an unreadable history).
func stagedRowsMemory(t *testing.T, dir string, hand bool) (files map[string][]byte, ok bool) {
	t.Helper()
	defer useCache(false)()
	write(t, dir, ".memsys.json", `{"tier": "full"}`)
	mem, err := LoadHistory(dir)
	if err != nil || mem.Log == nil || len(mem.Log.Events) < 2 {
		return nil, false
	}
	at := mem.Log.Events[len(mem.Log.Events)/2-1].ID
	if _, err := Regenerate(dir, RegenOptions{At: at}); err != nil {
		return nil, false
	}
	files = map[string][]byte{}
	for _, rel := range append([]string{parse.LogFile, ".memsys.json", parse.GraphFile, parse.ContextFile}, workspace.ArchiveNames...) {
		if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))); err == nil {
			files[rel] = data
		}
	}
	if hand {
		g := string(files[parse.GraphFile])
		i := strings.Index(g, "|------|------|--------|")
		if i < 0 {
			t.Fatalf("no node table in the graph regen wrote:\n%s", g)
		}
		i += strings.IndexByte(g[i:], '\n') + 1
		files[parse.GraphFile] = []byte(g[:i] + "| billing | component | active | evt-001 | evt-001 | owner=bob |\n" + g[i:])
	}
	return files, true
}

// onDisk makes root's working tree hold files (paths from the root) and
// no other memory file: what is not in files is removed.
func onDisk(t *testing.T, root string, files map[string][]byte) {
	t.Helper()
	for _, rel := range append([]string{parse.LogFile, ".memsys.json", parse.GraphFile, parse.ContextFile}, workspace.ArchiveNames...) {
		if _, ok := files[rel]; !ok {
			os.Remove(filepath.Join(root, filepath.FromSlash(rel)))
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		write(t, root, rel, string(files[rel]))
	}
}

// unstagedVersions are the working trees (B) TestLintStagedRowsAsCheckout
// writes after staging a: an append regenerated (the log and both
// derived files differ from the index), the derived files deleted (only
// they differ), and another log and no archive (only the history
// differs).
func unstagedVersions(t *testing.T, a map[string][]byte) map[string]map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	appended := maps.Clone(a)
	appended[parse.LogFile] = append(slices.Clone(a[parse.LogFile]), newEventN("9001")...)
	onDisk(t, dir, appended)
	func() {
		defer useCache(false)()
		if _, err := Regenerate(dir, RegenOptions{Force: true}); err != nil {
			t.Fatal(err)
		}
	}()
	for _, rel := range []string{parse.GraphFile, parse.ContextFile} {
		appended[rel] = mustRead(t, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	deleted := maps.Clone(a)
	delete(deleted, parse.GraphFile)
	delete(deleted, parse.ContextFile)
	// Another history, the derived files kept: the replay to a staged
	// file's horizon must read the staged history as well.
	other := maps.Clone(a)
	other[parse.LogFile] = []byte(head + event(1, "create"))
	for _, name := range workspace.ArchiveNames {
		delete(other, name)
	}
	return map[string]map[string][]byte{"append regenerated": appended, "derived files deleted": deleted, "another log": other}
}

// lintJSON is Lint's report at root with o as JSON, staged advice
// given to a plain lint's findings (lint.StagedAdvice), or its error.
func lintJSON(t *testing.T, root string, o LintOptions, advise bool) string {
	t.Helper()
	r, err := Lint(context.Background(), root, o)
	if err != nil {
		return "error: " + err.Error()
	}
	if advise {
		lint.StagedAdvice(r.Diagnostics, func(f string) string { return f })
	}
	b, _ := json.MarshalIndent(r, "", " ")
	return string(b)
}

// TestLintStagedRowsAsCheckout is the differential test of lint
// --staged's stale rows (staleRows): for the memory of every testscript
// and lint rule fixture, the index holds A (a stale sealed graph.md and
// context.md, as memsys wrote them or with a row added by hand) while
// the working tree holds other bytes B, and lint --staged must report
// what a lint of a working tree holding A reports (its advice completed
// with git add, as lint --staged completes it). The reference is a
// repository with the same HEAD (A itself, or no memory at all: the
// committed log is what sealedAt.logRewritten compares with) linted
// with the same comparison with HEAD (lint --base HEAD, which is the
// plain lint when nothing is committed). With A on disk too, the fast
// path that replays the working tree must agree. The cases where the
// refined rows differ from the rule's reading (refineStale off) are
// counted: in those lint --staged kept the rule's reading when the
// index differed from the disk.
func TestLintStagedRowsAsCheckout(t *testing.T) {
	// Every second memory: each runs two git repositories and up to
	// five lints, and the variants rotate with the memories checked, so
	// half the corpus still meets each of them (the whole took 44 s, the
	// memory package's largest test).
	every := 2
	if testing.Short() {
		every = 8
	}
	defer useCache(true)()
	cases, refined, failed := 0, 0, 0
	seen := 0
	fixtureMemories(t, func(name, dir string) {
		seen++
		if seen%every != 0 {
			return
		}
		n := cases
		a, ok := stagedRowsMemory(t, dir, n/2%2 == 1)
		if !ok {
			return
		}
		cases++
		head := map[string][]byte{}
		if n%2 == 0 {
			head = a
		}
		ref, _ := gitRoot(t, head)
		onDisk(t, ref, a)
		// lint --base HEAD compares the working tree with HEAD as
		// --staged compares the index: the findings on events HEAD has
		// are marked the same (lint.MarkBaseline). Without a committed
		// memory it is the plain lint.
		base := LintOptions{Git: history.GitOptions{Base: "HEAD"}}
		want := lintJSON(t, ref, base, true)
		if len(head) == 0 {
			if plain := lintJSON(t, ref, LintOptions{}, true); plain != want {
				t.Fatalf("%s: nothing committed, lint --base HEAD\n%s\nplain lint\n%s", name, want, plain)
			}
		}
		refineStale = false
		coarse := lintJSON(t, ref, base, true)
		refineStale = true
		if coarse != want {
			refined++
		}
		root, git := gitRoot(t, head)
		onDisk(t, root, a)
		git("add", "-A")
		staged := LintOptions{Git: history.GitOptions{Staged: true}}
		if got := lintJSON(t, root, staged, false); got != want {
			t.Fatalf("%s: index and working tree the same: lint --staged\n%s\na lint of the index's files\n%s", name, got, want)
		}
		versions := unstagedVersions(t, a)
		bad := false
		for _, v := range slices.Sorted(maps.Keys(versions)) {
			onDisk(t, root, versions[v])
			what := fmt.Sprintf("%s (HEAD %s, hand row %v), working tree: %s", name, map[bool]string{true: "A", false: "empty"}[len(head) > 0], n/2%2 == 1, v)
			// Without the cache too, for a third of the memories: the
			// findings it judges are another test's (lintcache_test.go).
			modes := []bool{true}
			if n%3 == 0 {
				modes = append(modes, false)
			}
			for _, cached := range modes {
				func() {
					defer useCache(cached)()
					if got := lintJSON(t, root, staged, false); got != want {
						bad = true
						t.Errorf("%s, cache %v: lint --staged\n%s\na lint of the index's files\n%s", what, cached, got, want)
					}
				}()
			}
			if bad {
				failed++
				return
			}
		}
	})
	t.Logf("%d memories, %d where the refined rows differ from the rule's reading, %d where lint --staged differs", cases, refined, failed)
	if refined < 10/every {
		t.Errorf("only %d of %d memories have stale rows the refinement changes: the test does not test it", refined, cases)
	}
}
