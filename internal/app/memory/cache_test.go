package memory

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// replayResult is everything a replay hands its callers: the derived
// files and what the parser found.
type replayResult struct {
	graph, context []byte
	log, archive   *parse.Log
	err            string
	status         string // Status's JSON, or its error
	lint           string // Lint's findings as JSON, or its error
	check          string // regen --check's diff and warnings, or its error
}

// useCache turns the history cache on or off (MEMSYS_NO_CACHE) for one
// run; the returned function restores the default.
func useCache(on bool) func() {
	if on {
		os.Setenv(workspace.EnvNoCache, "")
	} else {
		os.Setenv(workspace.EnvNoCache, "1")
	}
	return func() { os.Unsetenv(workspace.EnvNoCache) }
}

func replayOnce(t testing.TB, root string, cached bool) replayResult {
	t.Helper()
	defer useCache(cached)()
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	mem, x, err := Replay(root, lint.RenderOptions(cfg), "")
	if err != nil {
		return replayResult{err: err.Error()}
	}
	g, c := x.Files()
	status := ""
	if r, err := Status(root); err != nil {
		status = "error: " + err.Error()
	} else {
		b, _ := json.Marshal(r)
		status = string(b)
	}
	check := ""
	if r, err := Regenerate(root, RegenOptions{Check: true}); err != nil {
		check = "error: " + err.Error()
	} else {
		b, _ := json.Marshal(r.Problems)
		check = r.Diff + string(b)
	}
	lintOut := ""
	if r, err := Lint(context.Background(), root, LintOptions{}); err != nil {
		lintOut = "error: " + err.Error()
	} else {
		b, _ := json.Marshal(r)
		lintOut = string(b)
	}
	strip := func(l *parse.Log) *parse.Log {
		if l == nil {
			return nil
		}
		c := *l
		c.Events = nil
		if len(c.Problems) == 0 {
			c.Problems = nil
		}
		return &c
	}
	return replayResult{graph: g, context: c, log: strip(mem.Log), archive: strip(mem.Archive), status: status, lint: lintOut, check: check}
}

// newCachedRoot makes a memory root inside a fake repository, so its
// cache lives in root/.git/memsys-cache.
func newCachedRoot(t testing.TB, files map[string][]byte) string {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func sameReplay(t testing.TB, what string, cold, cached replayResult) {
	t.Helper()
	switch {
	case cold.err != cached.err:
		t.Fatalf("%s: cold error %q, cached %q", what, cold.err, cached.err)
	case !bytes.Equal(cold.graph, cached.graph):
		t.Fatalf("%s: graph.md differs cached\n%s\ncold\n%s", what, cached.graph, cold.graph)
	case !bytes.Equal(cold.context, cached.context):
		t.Fatalf("%s: context.md differs cached\n%s\ncold\n%s", what, cached.context, cold.context)
	case !reflect.DeepEqual(cold.log, cached.log):
		t.Fatalf("%s: log differs cached\n%+v\ncold\n%+v", what, cached.log, cold.log)
	case !reflect.DeepEqual(cold.archive, cached.archive):
		t.Fatalf("%s: archive differs cached\n%+v\ncold\n%+v", what, cached.archive, cold.archive)
	case cold.check != cached.check:
		t.Fatalf("%s: regen --check differs cached\n%s\ncold\n%s", what, cached.check, cold.check)
	case cold.lint != cached.lint:
		t.Fatalf("%s: lint differs cached\n%s\ncold\n%s", what, cached.lint, cold.lint)
	case cold.status != cached.status:
		t.Fatalf("%s: status differs cached\n%s\ncold\n%s", what, cached.status, cold.status)
	}
}

// checkCacheSteps replays root cold and through the cache (the first
// cached run writes the checkpoint, the second resumes from it), then
// after each edit, and compares everything each time.
func checkCacheSteps(t testing.TB, root string, edits ...func(src []byte) []byte) {
	t.Helper()
	sameReplay(t, "first run", replayOnce(t, root, false), replayOnce(t, root, true))
	sameReplay(t, "unchanged", replayOnce(t, root, false), replayOnce(t, root, true))
	p := filepath.Join(root, parse.LogFile)
	for i, edit := range edits {
		src, _ := os.ReadFile(p)
		if err := os.WriteFile(p, edit(src), 0o644); err != nil {
			t.Fatal(err)
		}
		sameReplay(t, "edit "+string(rune('a'+i)), replayOnce(t, root, false), replayOnce(t, root, true))
	}
}

func appendText(text string) func([]byte) []byte {
	return func(src []byte) []byte { return append(src, text...) }
}

const newEvent = "\n---\n\n### evt-%s | 2099-01-01 00:00 | a | create\n\n**Scope**: s\n**Summary**: appended\n\n**Details**:\n- entity: appended_thing\n\n**Refs**: none\n**Tags**: none\n"

// TestReplayCachedEqualsCold runs every log of the test corpus (the
// testscripts, the examples and materialize's semantics cases) through
// the cache and cold, unchanged and after appending events (one with a
// Supersedes field), editing an early byte, appending a broken event
// and rewriting the file: byte-identical derived files and identical
// problems every time.
func TestReplayCachedEqualsCold(t *testing.T) {
	// The semantics cases, for the histories with Supersedes fields.
	corpora := corpusOf(t, []string{parse.LogFile, "changelog-archive.md", "CHANGELOG-archive.md"}, "../../../materialize/testdata/semantics/*.md")
	before, statusBefore, lintBefore, currentBefore, pastBefore := resumes, statusHits, lintHits, currentHits, pastHead
	superseding, supersededResumes := 0, 0
	for i, files := range corpora {
		root := newCachedRoot(t, files)
		r0 := resumes
		checkCacheSteps(t, root,
			appendText(strings.ReplaceAll(newEvent, "%s", "9001")),
			appendText(strings.ReplaceAll(newEvent, "%s", "9002")+"\n---\n\n"+strings.ReplaceAll(newEvent, "%s", "9003")[5:]),
			// A Supersedes field after the checkpoint: a cold run.
			appendText(strings.ReplaceAll(newEvent, "%s", "9006")+"**Supersedes**: evt-9001\n"),
			appendText(strings.ReplaceAll(newEvent, "%s", "9007")),
			func(src []byte) []byte {
				if i := bytes.Index(src, []byte("evt-")); i >= 0 {
					src[i+4] = '7'
				}
				return src
			},
			appendText("\n### evt-9004 | broken\n```\n### evt-9005 | 2099-01-01 00:00 | a | fix\n"),
			func([]byte) []byte { return files[parse.LogFile] },
			appendText("\n"),
			// Files beside the log change, the log does not: lint's
			// cache must see them (MS201-MS207 read them).
			func(src []byte) []byte {
				os.MkdirAll(filepath.Join(root, parse.MemoryDir), 0o755)
				os.WriteFile(filepath.Join(root, parse.GraphFile), []byte("# Knowledge Graph\n"), 0o644)
				return src
			},
			func(src []byte) []byte {
				os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Agents\n\n## Memory System Protocol\n"), 0o644)
				return src
			},
			func(src []byte) []byte {
				os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(`{"tier": "full"}`), 0o644)
				return src
			},
			func(src []byte) []byte {
				os.Remove(filepath.Join(root, "AGENTS.md"))
				return src
			},
			// Derived files current: regen --check is answered from
			// the checkpoint's hashes, then an edit of graph.md alone.
			func(src []byte) []byte {
				os.Unsetenv(workspace.EnvNoCache)
				Regenerate(root, RegenOptions{})
				return src
			},
			func(src []byte) []byte {
				if b, err := os.ReadFile(filepath.Join(root, parse.GraphFile)); err == nil {
					os.WriteFile(filepath.Join(root, parse.GraphFile), append(b, '\n'), 0o644)
				}
				return src
			},
		)
		if t.Failed() {
			t.Fatalf("corpus log %d", i)
		}
		if bytes.Contains(files[parse.LogFile], []byte("**Supersedes**")) {
			superseding++
			if resumes > r0 {
				supersededResumes++
			}
		}
	}
	// A history with Supersedes fields resumes once they are all in
	// the checkpoint's prefix.
	if superseding > 0 && supersededResumes == 0 {
		t.Errorf("none of the %d logs with Supersedes fields resumed", superseding)
	}
	// Most of the 8 cached runs per log resume: the cache was used,
	// and the comparisons above were of resumed replays.
	if got := resumes - before; got < 3*len(corpora) {
		t.Errorf("%d resumed replays over %d logs: the cache was hardly used", got, len(corpora))
	}
	if got := statusHits - statusBefore; got < 3*len(corpora) {
		t.Errorf("%d statuses through the cache over %d logs: the cache was hardly used", got, len(corpora))
	}
	if got := currentHits - currentBefore; got < len(corpora) {
		t.Errorf("%d regen --check answered from the checkpoint over %d logs", got, len(corpora))
	}
	// The second append resumes from the heavy checkpoint of the first
	// run through the head the first append left: both kinds of entry
	// were exercised.
	if got := pastHead - pastBefore; got < len(corpora)/2 {
		t.Errorf("%d replays resumed past a head over %d logs", got, len(corpora))
	}
	// Lint resumes nothing: only the unchanged run of each log hits.
	if got := lintHits - lintBefore; got < len(corpora) {
		t.Errorf("%d lints from the cache over %d logs: the cache was hardly used", got, len(corpora))
	}
	t.Logf("%d logs (%d with Supersedes, %d of them resumed), %d resumed replays (%d past a head), %d cached statuses, %d cached lints", len(corpora), superseding, supersededResumes, resumes-before, pastHead-pastBefore, statusHits-statusBefore, lintHits-lintBefore)
}

// corpusOf is the cache tests' corpus: the files named keep of every
// testscript that has a log, the examples' logs, the logs the globs in
// extra match, and a generated log.
func corpusOf(t testing.TB, keep []string, extra ...string) []map[string][]byte {
	var corpora []map[string][]byte
	scripts, _ := filepath.Glob("../../../testscripts/*.txtar")
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range a.Files {
			if slices.Contains(keep, f.Name) {
				files[f.Name] = f.Data
			}
		}
		if files[parse.LogFile] != nil {
			corpora = append(corpora, files)
		}
	}
	logs, _ := filepath.Glob("../../../examples/*/" + parse.LogFile)
	for _, g := range extra {
		more, _ := filepath.Glob(g)
		logs = append(logs, more...)
	}
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		corpora = append(corpora, map[string][]byte{parse.LogFile: b})
	}
	corpora = append(corpora, map[string][]byte{parse.LogFile: loggen.Generate(300, 1)})
	if len(corpora) < 50 {
		t.Fatalf("only %d logs in the corpus", len(corpora))
	}
	return corpora
}

// FuzzReplayCache edits one byte of a log between two runs (or appends
// text, or truncates): the cached replay after the edit must equal a
// cold one.
func FuzzReplayCache(f *testing.F) {
	f.Add(loggen.Generate(30, 1), uint32(100), byte('x'), "")
	f.Add(loggen.Generate(30, 2), uint32(9000), byte('\n'), strings.ReplaceAll(newEvent, "%s", "031"))
	f.Add(genLog(5, "\n---\n\n"), uint32(1), byte('`'), "\n```\n")
	// An encoding error before the checkpoint: the parser reports only
	// the first, so a resumed parse of an appended one would report a
	// second (resumableProblems).
	f.Add([]byte("# Event Log\n# evt-1 \xde\n"), uint32(2), byte('E'), "\n# evt-\x9b")
	f.Fuzz(checkEdit)
}

// fuzzEdit is the fuzz targets' edit of a copy of log: in its first n
// bytes, at picks a byte to set to b or, one time in three, where the
// log is cut.
func fuzzEdit(log []byte, n int, at uint32, b byte) []byte {
	edited := append([]byte(nil), log...)
	if n > 0 {
		i := int(at % uint32(n))
		if at%3 == 0 {
			edited = edited[:i]
		} else {
			edited[i] = b
		}
	}
	return edited
}

// checkEdit writes src, replays it through the cache, edits it (one
// byte set or the file cut at at, then tail appended) and compares the
// cached replay of the edited log with a cold one.
func checkEdit(t *testing.T, src []byte, at uint32, b byte, tail string) {
	{
		root := newCachedRoot(t, map[string][]byte{parse.LogFile: src})
		replayOnce(t, root, true) // writes the checkpoint
		edited := append(fuzzEdit(src, len(src), at, b), tail...)
		if err := os.WriteFile(filepath.Join(root, parse.LogFile), edited, 0o644); err != nil {
			t.Fatal(err)
		}
		sameReplay(t, "after the edit", replayOnce(t, root, false), replayOnce(t, root, true))
	}
}

// TestReplayCacheEdits is FuzzReplayCache's property over deterministic
// random edits of generated logs.
func TestReplayCacheEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tails := []string{"", "\n", strings.ReplaceAll(newEvent, "%s", "041"), "\n```\n", "\n## Notes\n", "x", strings.ReplaceAll(newEvent, "%s", "041")[1:]}
	n := 150
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		src := loggen.Generate(40, int64(i%5))
		checkEdit(t, src, r.Uint32(), "x\n-`#<\r7 "[r.IntN(9)], tails[r.IntN(len(tails))])
	}
}

// TestHeavyCheckpointBound: appends within heavyBound of the heavy
// checkpoint write only a new head; once the log has grown past it by
// more, the replay state is rewritten. Every step equals a cold run.
func TestHeavyCheckpointBound(t *testing.T) {
	for _, tt := range []struct{ prefix, want int }{{0, 1 << 20}, {1 << 20, 1 << 20}, {20 << 20, 1 << 20}, {30 << 20, 30 << 20 / 20}} {
		if got := heavyBound(tt.prefix); got != tt.want {
			t.Errorf("heavyBound(%d) = %d, want %d", tt.prefix, got, tt.want)
		}
	}
	long := loggen.Generate(5000, 1)
	steps := []struct {
		events    int
		heavy     int // heavy checkpoints written by the cached run
		pastHeads int // resumed past a head
	}{
		{300, 1, 0},  // cold: heavy and head
		{300, 0, 0},  // unchanged
		{310, 0, 0},  // a few events: a head only
		{320, 0, 1},  // from the heavy checkpoint through the head
		{5000, 1, 1}, // more than a megabyte past it: rewritten
		{5000, 0, 0},
	}
	root := newCachedRoot(t, nil)
	for _, st := range steps {
		src := loggen.Generate(st.events, 1)
		if !bytes.HasPrefix(long, src) {
			t.Fatal("the generator's logs are not prefixes of each other")
		}
		if err := os.WriteFile(filepath.Join(root, parse.LogFile), src, 0o644); err != nil {
			t.Fatal(err)
		}
		cold := replayOnce(t, root, false)
		h, p := heavyWrites, pastHead
		cfg, _ := workspace.LoadConfig(root)
		if _, _, err := Replay(root, lint.RenderOptions(cfg), ""); err != nil {
			t.Fatal(err)
		}
		if heavyWrites-h != st.heavy || pastHead-p != st.pastHeads {
			t.Errorf("%d events: %d heavy writes, %d resumed past a head; want %d, %d", st.events, heavyWrites-h, pastHead-p, st.heavy, st.pastHeads)
		}
		sameReplay(t, strconv.Itoa(st.events)+" events", cold, replayOnce(t, root, true))
	}
}

// TestHoldGC checks that holds of the garbage collector nest, from
// concurrent goroutines too, that a release counts once, and that the
// last release restores the setting the first hold found.
func TestHoldGC(t *testing.T) {
	old := debug.SetGCPercent(137)
	defer debug.SetGCPercent(old)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			release := holdGC(0)
			inner := holdGC(holdMax)
			inner()
			inner()
			if p := debug.SetGCPercent(-1); p != -1 {
				t.Errorf("GC percent %d while held", p)
			}
			release()
		})
	}
	wg.Wait()
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("GC percent %d after every release, want 137", p)
	}
	// A long suffix is parsed with the collector on.
	release := holdGC(holdMax + 1)
	if p := debug.SetGCPercent(137); p != 137 {
		t.Errorf("GC percent %d under a hold for a long suffix, want 137", p)
	}
	release()
}
