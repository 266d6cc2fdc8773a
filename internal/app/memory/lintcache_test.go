package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// lintResult is Lint's whole report at root as JSON, or its error,
// through the cache or cold.
func lintResult(t testing.TB, root string, cached bool) string {
	t.Helper()
	defer useCache(cached)()
	r, err := Lint(context.Background(), root, LintOptions{})
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(r)
	return string(b)
}

// lintCorpus is every memory of the testscripts and the examples, and
// a generated log.
func lintCorpus(t testing.TB) []map[string][]byte {
	return corpusOf(t, []string{parse.LogFile, "changelog-archive.md", "CHANGELOG-archive.md", "AGENTS.md", parse.GraphFile, parse.ContextFile, ".memsys.json"})
}

// newRootWith is newCachedRoot, with the folders the files need.
func newRootWith(t testing.TB, files map[string][]byte) string {
	root := newCachedRoot(t, nil)
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// lintEdits are the steps TestLintCachedEqualsCold takes on each log:
// appends (one event, two, a broken one), an edit of an early byte, a
// cut, line endings turned to CRLF and back, the original restored.
func lintEdits(orig []byte) []func([]byte) []byte {
	ev := func(n string) string { return strings.ReplaceAll(newEvent, "%s", n) }
	return []func([]byte) []byte{
		appendText(ev("9001")),
		appendText(ev("9002") + "\n---\n\n" + ev("9003")[5:]),
		appendText(ev("9004")),
		func(src []byte) []byte {
			if i := bytes.Index(src, []byte("evt-")); i >= 0 {
				src[i+4] = '7'
			}
			return src
		},
		func([]byte) []byte { return orig },
		appendText(ev("9005")),
		func(src []byte) []byte { return src[:len(src)*2/3] },
		func([]byte) []byte { return orig },
		appendText(ev("9006")),
		func(src []byte) []byte { return bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n")) },
		appendText(strings.ReplaceAll(ev("9007"), "\n", "\r\n")),
		func([]byte) []byte { return orig },
		appendText("\n### evt-9008 | broken\n```\n### evt-9009 | 2099-01-01 00:00 | a | fix\n"),
		func([]byte) []byte { return orig },
		appendText(ev("9010")),
		appendText("\n"),
		appendText(ev("9011")),
	}
}

// checkLintSteps lints root cold and through the cache, then after each
// edit of its log, and compares the whole reports.
func checkLintSteps(t testing.TB, root string, edits []func([]byte) []byte) {
	t.Helper()
	same := func(what string) {
		t.Helper()
		cold, cached := lintResult(t, root, false), lintResult(t, root, true)
		if cold != cached {
			t.Fatalf("%s: lint differs cached\n%s\ncold\n%s", what, cached, cold)
		}
	}
	same("first run")
	same("unchanged")
	p := filepath.Join(root, parse.LogFile)
	for i, edit := range edits {
		src, _ := os.ReadFile(p)
		if err := os.WriteFile(p, edit(src), 0o644); err != nil {
			t.Fatal(err)
		}
		same("edit " + string(rune('a'+i)))
	}
}

// TestLintCachedEqualsCold lints every log of the test corpus through
// the lint cache and cold, unchanged and after each of lintEdits, and
// compares the findings exactly; once with the default suffix bound
// (resumed lints write only the result) and once with none (every
// resumed lint writes a new checkpoint after its last event).
func TestLintCachedEqualsCold(t *testing.T) {
	corpora := lintCorpus(t)
	defer func(b int) { lintSuffixBound = b }(lintSuffixBound)
	for _, bound := range []int{256 << 10, 0} {
		lintSuffixBound = bound
		hits, resumed, saves := lintHits, lintResumes, lintSaves
		for i, files := range corpora {
			root := newRootWith(t, files)
			checkLintSteps(t, root, lintEdits(files[parse.LogFile]))
			if t.Failed() {
				t.Fatalf("bound %d, corpus log %d", bound, i)
			}
		}
		// Every append is resumed where the history allows it: most of
		// the corpus has no Supersedes field.
		if got := lintResumes - resumed; got < 5*len(corpora) {
			t.Errorf("bound %d: %d resumed lints over %d logs: the checkpoint was hardly used", bound, got, len(corpora))
		}
		if got := lintHits - hits; got < len(corpora)/2 {
			t.Errorf("bound %d: %d lints from the result over %d logs", bound, got, len(corpora))
		}
		t.Logf("bound %d: %d logs, %d results, %d resumed, %d checkpoints written", bound, len(corpora), lintHits-hits, lintResumes-resumed, lintSaves-saves)
	}
}

// TestLintCacheWritePolicy: below the suffix bound a resumed lint
// leaves the checkpoint as it was (only the small result is written);
// past it, the next lint writes a new one.
func TestLintCacheWritePolicy(t *testing.T) {
	defer func(b int) { lintSuffixBound = b }(lintSuffixBound)
	lintSuffixBound = 1000
	root := newRootWith(t, map[string][]byte{parse.LogFile: loggen.Generate(20, 1)})
	lintResult(t, root, true)
	saves := lintSaves
	p := filepath.Join(root, parse.LogFile)
	for i := range 8 {
		src, _ := os.ReadFile(p)
		os.WriteFile(p, append(src, strings.ReplaceAll(newEvent, "%s", "0"+string(rune('3'+i/10))+string(rune('0'+i%10)))...), 0o644)
		resumed := lintResumes
		if cached, cold := lintResult(t, root, true), lintResult(t, root, false); cached != cold {
			t.Fatalf("append %d: cached\n%s\ncold\n%s", i, cached, cold)
		}
		if lintResumes != resumed+1 {
			t.Fatalf("append %d: not resumed", i)
		}
	}
	// 8 events of about 170 bytes: the bound of 1000 bytes is passed
	// once every 6 appends or so, not at each.
	if got := lintSaves - saves; got < 1 || got > 2 {
		t.Errorf("%d checkpoints written over 8 appends, want 1 or 2", got)
	}
}

// FuzzLintCache lints a log through the cache, then appends a suffix
// and edits one earlier byte (or cuts the log): the cached lint of the
// result must equal a cold one, and so must a cached lint after only
// the append.
func FuzzLintCache(f *testing.F) {
	f.Add(loggen.Generate(20, 1), strings.ReplaceAll(newEvent, "%s", "021"), uint32(100), byte('x'))
	f.Add(loggen.Generate(20, 2), "\n```\n", uint32(9000), byte('\n'))
	f.Add(genLog(5, "\n---\n\n"), strings.ReplaceAll(newEvent, "%s", "006"), uint32(1), byte('`'))
	f.Add(loggen.Generate(10, 3), strings.ReplaceAll(strings.ReplaceAll(newEvent, "%s", "011"), "\n", "\r\n"), uint32(3), byte('\r'))
	f.Fuzz(checkLintEdit)
}

func checkLintEdit(t *testing.T, src []byte, tail string, at uint32, b byte) {
	root := newRootWith(t, map[string][]byte{parse.LogFile: src})
	lintResult(t, root, true) // writes the checkpoint
	p := filepath.Join(root, parse.LogFile)
	appended := append(append([]byte(nil), src...), tail...)
	os.WriteFile(p, appended, 0o644)
	if cached, cold := lintResult(t, root, true), lintResult(t, root, false); cached != cold {
		t.Fatalf("after the append: cached\n%s\ncold\n%s", cached, cold)
	}
	os.WriteFile(p, fuzzEdit(appended, len(src), at, b), 0o644)
	if cached, cold := lintResult(t, root, true), lintResult(t, root, false); cached != cold {
		t.Fatalf("after the edit: cached\n%s\ncold\n%s", cached, cold)
	}
}

// TestLintCacheEdits is FuzzLintCache's property over deterministic
// random edits of generated logs.
func TestLintCacheEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tails := []string{"", "\n", strings.ReplaceAll(newEvent, "%s", "041"), "\n```\n", "\n## Notes\n", "x",
		strings.ReplaceAll(newEvent, "%s", "041")[1:], strings.ReplaceAll(newEvent, "%s", "007")}
	n := 100
	if testing.Short() {
		n = 20
	}
	for i := 0; i < n; i++ {
		checkLintEdit(t, loggen.Generate(40, int64(i%5)), tails[r.IntN(len(tails))], r.Uint32(), "x\n-`#<\r7 "[r.IntN(9)])
	}
}

// TestLintExitingHoldsGC: a lint answered from the result entry leaves
// the collector off only for a caller that exits after printing
// (LintOptions.Exiting, the memsys command); the MCP server's lints
// never change the process's setting.
func TestLintExitingHoldsGC(t *testing.T) {
	defer useCache(true)()
	old := debug.SetGCPercent(137)
	defer func() {
		gcHold.Lock()
		gcHold.n = 0
		gcHold.Unlock()
		debug.SetGCPercent(old)
	}()
	root := newRootWith(t, map[string][]byte{parse.LogFile: loggen.Generate(50, 1)})
	for i, want := range []int{137, 137, 137, -1} {
		// Runs 0 and 2 lint cold or resume, 1 and 3 answer from the
		// result; only run 3 exits.
		hits := lintHits
		if _, err := Lint(context.Background(), root, LintOptions{Exiting: i == 3}); err != nil {
			t.Fatal(err)
		}
		if answered := lintHits > hits; answered != (i%2 == 1) {
			t.Fatalf("run %d: answered from the result: %v", i, answered)
		}
		if p := debug.SetGCPercent(137); p != want {
			t.Errorf("run %d: GC percent %d after the lint, want %d", i, p, want)
		}
		if i == 1 {
			// An appended event: the result no longer answers.
			f, err := os.OpenFile(filepath.Join(root, parse.LogFile), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("\n### evt-051 | 2026-01-01 10:00 | ada | test\n\n**Scope**: api\n**Summary**: One more\n")
			f.Close()
		}
	}
}

// TestLintFixThroughCache: lint --fix with nothing to fix answers from
// the cache like a plain lint, and with the same report as a cold
// --fix; with a derived file to fix, it still rewrites it and reports
// what a cold --fix reports.
func TestLintFixThroughCache(t *testing.T) {
	defer useCache(true)()
	root := newRootWith(t, map[string][]byte{parse.LogFile: loggen.Generate(50, 1), ".memsys.json": []byte(`{"tier": "full"}`)})
	fix := func(cached bool) string {
		t.Helper()
		defer useCache(cached)()
		r, err := Lint(context.Background(), root, LintOptions{Fix: true})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		return string(b)
	}
	if _, err := regenCfg(root, false); err != nil {
		t.Fatal(err)
	}
	lintResult(t, root, true) // the result the next runs can answer from
	hits := lintHits
	cached := fix(true)
	if lintHits == hits {
		t.Error("lint --fix on a fresh memory did not answer from the cache")
	}
	if cold := fix(false); cached != cold {
		t.Fatalf("lint --fix through the cache\n%s\ncold\n%s", cached, cold)
	}
	graph := filepath.Join(root, parse.GraphFile)
	fresh, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	reports := map[bool]string{}
	for _, cached := range []bool{true, false} {
		if err := os.WriteFile(graph, append(bytes.Clone(fresh), "\nhand edit\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		reports[cached] = fix(cached)
		if b, _ := os.ReadFile(graph); !bytes.Equal(b, fresh) {
			t.Fatalf("cached %v: lint --fix left graph.md edited", cached)
		}
	}
	if reports[true] != reports[false] {
		t.Fatalf("lint --fix of a hand edit through the cache\n%s\ncold\n%s", reports[true], reports[false])
	}
}
