package memory

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// reportResult is BuildReport's report at root, as markdown and as
// JSON, or its error, through the caches or cold.
func reportResult(t testing.TB, root string, cached bool) string {
	t.Helper()
	defer useCache(cached)()
	r, err := BuildReport(root)
	if err != nil {
		return "error: " + err.Error()
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return r.Markdown() + "\n" + string(b)
}

// reportSteps are the changes TestReportCachedEqualsCold makes to a
// memory between reports, besides lintEdits' edits of the log: the
// derived files written, one edited by hand, a Supersedes field and an
// open loop appended, a baseline file, an archive.
func reportSteps(t testing.TB) []struct {
	name string
	do   func(root string)
} {
	ev := func(n, typ, extra string) string {
		return "\n---\n\n### evt-" + n + " | 2099-01-02 00:00 | b | " + typ + "\n\n**Scope**: s\n**Summary**: appended " + n + "\n" + extra
	}
	appendLog := func(text string) func(string) {
		return func(root string) {
			p := filepath.Join(root, parse.LogFile)
			src, _ := os.ReadFile(p)
			os.WriteFile(p, append(src, text...), 0o644)
		}
	}
	return []struct {
		name string
		do   func(root string)
	}{
		{"regen", func(root string) { Regen(root, true) }},
		// Most of the corpus is of the mvp tier: a graph.md of one's
		// own makes it full (unless AGENTS.md says otherwise).
		{"a graph.md of one's own", func(root string) {
			os.MkdirAll(filepath.Join(root, parse.MemoryDir), 0o755)
			if _, err := os.Stat(filepath.Join(root, parse.GraphFile)); err != nil {
				os.WriteFile(filepath.Join(root, parse.GraphFile), []byte("# Graph\n"), 0o644)
			}
		}},
		{"regen of the full tier", func(root string) { Regen(root, true) }},
		{"graph.md edited by hand", func(root string) {
			p := filepath.Join(root, parse.GraphFile)
			if src, err := os.ReadFile(p); err == nil {
				os.WriteFile(p, append(src, "| hand | added |\n"...), 0o644)
			}
		}},
		{"context.md removed", func(root string) { os.Remove(filepath.Join(root, parse.ContextFile)) }},
		{"an open loop appended", appendLog(ev("9101", "commitment", "\n**Details**:\n- owner: b\n- due: 2099-01-09\n"))},
		{"a Supersedes field appended", appendLog(ev("9102", "fix", "**Supersedes**: evt-9101\n"))},
		{"one more event", appendLog(ev("9103", "test", ""))},
		{"a baseline file", func(root string) {
			defer useCache(false)()
			Lint(context.Background(), root, LintOptions{WriteBaseline: true})
		}},
		{"after the baseline", appendLog(ev("9104", "fix", "**Summary**: twice\n"))},
		{"regen again", func(root string) { Regen(root, true) }},
		{"an archive", func(root string) {
			defer useCache(false)()
			Archive(root, ArchiveOptions{Threshold: 5, Keep: 3, Agent: "t"})
		}},
		{"after the archive", appendLog(ev("9105", "create", "\n**Details**:\n- entity: later_thing\n"))},
		{"baseline removed", func(root string) { os.Remove(filepath.Join(root, lint.BaselineFile)) }},
	}
}

// TestReportCachedEqualsCold builds the report of every memory of the
// test corpus through the caches and cold (--no-cache), unchanged,
// after each of reportSteps and after some of lintEdits (an append, an
// edited earlier event, a cut, CRLF line endings, a broken event), and
// compares the markdown and the JSON byte for byte; twice through the
// caches, as the first run after a change writes what the second reads.
func TestReportCachedEqualsCold(t *testing.T) {
	// The semantics cases hold the histories with Supersedes fields:
	// chains, corrections of corrections, duplicate IDs.
	corpora := corpusOf(t, []string{parse.LogFile, "changelog-archive.md", "CHANGELOG-archive.md", "AGENTS.md", parse.GraphFile, parse.ContextFile, ".memsys.json"}, "../../../materialize/testdata/semantics/*.md")
	corpora = append(corpora, map[string][]byte{parse.LogFile: loggen.Generate(200, 3), "AGENTS.md": []byte("# Agents\n\n## Memory System Protocol\n\n**Tier**: full\n")})
	if testing.Short() {
		corpora = corpora[len(corpora)-20:]
	}
	hits, resumed, counted := lintHits, resumes, replayCounted
	// seen counts the memories whose report showed what a step is
	// there to bring about, so that the steps are known to do it.
	seen := map[string]int{}
	for i, files := range corpora {
		root := newRootWith(t, files)
		shown := map[string]bool{}
		same := func(what string) {
			t.Helper()
			// The first cached report after a change writes the
			// caches' entries, the second (for a third of the
			// memories: the package's tests are long) reads them.
			cold, cached := reportResult(t, root, false), reportResult(t, root, true)
			again := cached
			if i%3 == 0 {
				again = reportResult(t, root, true)
			}
			if cold != cached || cold != again {
				if cold == cached {
					cached = again
				}
				t.Fatalf("corpus memory %d, %s: the report differs through the caches\n%s\ncold\n%s", i, what, cached, cold)
			}
			for _, s := range []string{"graph.md: current", "graph.md: outdated", "context.md: missing", "superseded by evt-9102", "accepted in", "- **File**: changelog-archive.md", "evt-9101 | commitment"} {
				if strings.Contains(cached, s) && !shown[s] {
					shown[s] = true
					seen[s]++
				}
			}
		}
		same("first run")
		same("unchanged")
		for _, s := range reportSteps(t) {
			s.do(root)
			same(s.name)
		}
		p := filepath.Join(root, parse.LogFile)
		edits := lintEdits(files[parse.LogFile])
		// An append, an earlier byte edited (the caches' prefixes no
		// longer match), a cut, CRLF line endings, a broken event
		// appended, the original back.
		for _, j := range []int{0, 3, 6, 9, 12, 13} {
			edit := edits[j]
			src, _ := os.ReadFile(p)
			os.WriteFile(p, edit(src), 0o644)
			same("log edit " + string(rune('a'+j)))
		}
	}
	for s, n := range seen {
		if n < len(corpora)/4 {
			t.Errorf("%q in the reports of %d memories of %d: a step did not do its work", s, n, len(corpora))
		}
	}
	if len(seen) < 7 {
		t.Errorf("the reports showed only %v", seen)
	}
	t.Logf("%d memories; reports showing each state: %v", len(corpora), seen)
	// The caches answered: lint's result, and replays resumed.
	if lintHits-hits < len(corpora) || resumes-resumed < len(corpora) || replayCounted-counted < 15*len(corpora) {
		t.Errorf("over %d memories: %d lints from the result, %d replays resumed, %d reports counted by the replay: the caches were hardly used", len(corpora), lintHits-hits, resumes-resumed, replayCounted-counted)
	}
	t.Logf("%d lints from the result, %d replays resumed, %d reports counted by the replay", lintHits-hits, resumes-resumed, replayCounted-counted)
}
