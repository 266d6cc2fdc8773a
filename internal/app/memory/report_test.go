package memory

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
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
		{"regen", func(root string) { regenCfg(root, true) }},
		// Most of the corpus is of the mvp tier: a graph.md of one's
		// own makes it full (unless AGENTS.md says otherwise).
		{"a graph.md of one's own", func(root string) {
			os.MkdirAll(filepath.Join(root, parse.MemoryDir), 0o755)
			if _, err := os.Stat(filepath.Join(root, parse.GraphFile)); err != nil {
				os.WriteFile(filepath.Join(root, parse.GraphFile), []byte("# Graph\n"), 0o644)
			}
		}},
		{"regen of the full tier", func(root string) { regenCfg(root, true) }},
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
		{"regen again", func(root string) { regenCfg(root, true) }},
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
	hits, resumed, counted, fed := lintHits, resumes, replayCounted, reportFed
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
	// The first report of each memory found neither cache (nor did those
	// after an earlier byte was edited): it took the lint Session's
	// replay rather than replay the history again.
	if reportFed-fed < len(corpora) {
		t.Errorf("over %d memories: %d reports took the lint's replay, want one per memory at least", len(corpora), reportFed-fed)
	}
	t.Logf("%d lints from the result, %d replays resumed, %d reports counted by the replay, %d took the lint's replay", lintHits-hits, resumes-resumed, replayCounted-counted, reportFed-fed)
}

// TestReportFedCheckpointIsReplayReads checks that a report neither
// cache could answer, which takes the lint Session's replay, leaves in
// the history cache the checkpoint the report's replay through the
// history cache left before (replayCached, finding none), for every
// memory of the report corpus: the same head and checkpoint, and a
// replay state that renders the same files. (The states are not equal
// field for field: the lint's rules asked the graph for its loops and
// horizon, which the graph then caches until it is next asked, and a
// map keyed by pointers never compares equal after decoding.) Then,
// after one more event, the next replay resumes from it and equals a
// cold one.
func TestReportFedCheckpointIsReplayReads(t *testing.T) {
	corpora := corpusOf(t, []string{parse.LogFile, "changelog-archive.md", "CHANGELOG-archive.md", "AGENTS.md", parse.GraphFile, parse.ContextFile, ".memsys.json"}, "../../../materialize/testdata/semantics/*.md")
	corpora = append(corpora, map[string][]byte{parse.LogFile: loggen.Generate(200, 3), "AGENTS.md": []byte("# Agents\n\n## Memory System Protocol\n\n**Tier**: full\n")})
	type decoded struct {
		head, heavy *replayCheckpoint
		x           *materialize.Replayer
	}
	decode := func(root string) (d decoded, ok bool) {
		t.Helper()
		ents, _ := os.ReadDir(workspace.CacheDir(root))
		for _, e := range ents {
			name, isHead := strings.CutSuffix(e.Name(), headSuffix)
			if !strings.HasPrefix(name, "replay-") {
				continue
			}
			data, ok := workspace.CacheGet(root, e.Name())
			if !ok {
				t.Fatalf("%s: a damaged entry", e.Name())
			}
			cp := &replayCheckpoint{}
			if isHead {
				if err := snapshot.Decode(data, cp); err != nil {
					t.Fatal(err)
				}
				d.head = cp
				continue
			}
			k, n := binary.Uvarint(data)
			if err := snapshot.Decode(data[n:n+int(k)], cp); err != nil {
				t.Fatal(err)
			}
			x, err := materialize.UnmarshalReplayer(data[n+int(k):])
			if err != nil {
				t.Fatal(err)
			}
			d.heavy, d.x = cp, x
		}
		return d, d.head != nil && d.heavy != nil
	}
	compared := 0
	for i, files := range corpora {
		fedRoot, readRoot := newRootWith(t, files), newRootWith(t, files)
		fed := reportFed
		if _, err := BuildReport(fedRoot); err != nil || reportFed == fed {
			continue // refused, or the lint's replay was not whole: replayCached ran as before
		}
		cfg, err := workspace.LoadConfig(readRoot)
		if err != nil {
			t.Fatal(err)
		}
		mem, err := workspace.Read(readRoot)
		if err != nil {
			t.Fatal(err)
		}
		// What the report did before it took the lint's replay: a
		// replay through the history cache, which finds no checkpoint.
		if _, _, err := replayCached(readRoot, lint.RenderOptions(cfg), &checkpointed{mem: mem, held: true}, func(m *workspace.Memory) parse.Tier { return workspace.TierAt(readRoot, cfg.Tier) }); err != nil {
			t.Fatal(err)
		}
		got, gotOK := decode(fedRoot)
		want, wantOK := decode(readRoot)
		if gotOK != wantOK {
			t.Errorf("corpus memory %d: the report left a checkpoint %v, a cold replay %v", i, gotOK, wantOK)
			continue
		}
		if !wantOK {
			continue
		}
		gg, gc := got.x.Files()
		wg, wc := want.x.Files()
		if !reflect.DeepEqual(got.head, want.head) || !reflect.DeepEqual(got.heavy, want.heavy) || !bytes.Equal(gg, wg) || !bytes.Equal(gc, wc) {
			t.Errorf("corpus memory %d: the checkpoint the report left differs from the replay's (head %v, checkpoint %v, graph.md %v, context.md %v the same)", i,
				reflect.DeepEqual(got.head, want.head), reflect.DeepEqual(got.heavy, want.heavy), bytes.Equal(gg, wg), bytes.Equal(gc, wc))
			continue
		}
		// One more event, and the next replay resumes from the
		// report's checkpoint and replays what a cold run does.
		appendTo := func(root, text string) {
			t.Helper()
			p := filepath.Join(root, parse.LogFile)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, append(src, text...), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		after := "\n---\n\n### evt-9201 | 2099-01-02 00:00 | b | create\n\n**Scope**: s\n**Summary**: after the report\n\n**Details**:\n- entity: after_report\n"
		appendTo(fedRoot, after)
		r0 := resumes
		cached := replayOnce(t, fedRoot, true)
		if resumes == r0 {
			t.Errorf("corpus memory %d: the replay after the report and an append did not resume from its checkpoint", i)
		}
		sameReplay(t, fmt.Sprintf("corpus memory %d after the report and an append", i), replayOnce(t, fedRoot, false), cached)
		compared++
		// A Supersedes field appended: neither the lint nor the replay
		// can resume, though the replay's checkpoint matches the
		// log's start. The report takes the lint's replay there too,
		// and the checkpoint it writes keeps the replaced one's
		// digests, as the replay's own would.
		appendTo(readRoot, after)
		replayOnce(t, readRoot, true)
		superseding := "\n---\n\n### evt-9202 | 2099-01-02 00:01 | b | fix\n\n**Scope**: s\n**Summary**: undo evt-9201\n**Supersedes**: evt-9201\n"
		appendTo(fedRoot, superseding)
		appendTo(readRoot, superseding)
		fed = reportFed
		if _, err := BuildReport(fedRoot); err != nil || reportFed == fed {
			t.Errorf("corpus memory %d: after a Supersedes field, the report did not take the lint's replay (%v)", i, err)
			continue
		}
		if mem, err = workspace.Read(readRoot); err != nil {
			t.Fatal(err)
		}
		c, ok := loadCheckpointFrom(readRoot, lint.RenderOptions(cfg), mem)
		if !ok {
			t.Errorf("corpus memory %d: the replay's checkpoint does not match the log's start", i)
			continue
		}
		if _, _, err := replayCached(readRoot, lint.RenderOptions(cfg), c, func(m *workspace.Memory) parse.Tier { return workspace.TierAt(readRoot, cfg.Tier) }); err != nil {
			t.Fatal(err)
		}
		got, _ = decode(fedRoot)
		want, _ = decode(readRoot)
		if len(want.head.Earlier) == 0 || !reflect.DeepEqual(got.head, want.head) || !reflect.DeepEqual(got.heavy, want.heavy) {
			t.Errorf("corpus memory %d, after a Supersedes field: the checkpoint the report left differs from the replay's (head %v, checkpoint %v, %d earlier digests)", i,
				reflect.DeepEqual(got.head, want.head), reflect.DeepEqual(got.heavy, want.heavy), len(want.head.Earlier))
		}
	}
	if compared < len(corpora)/2 {
		t.Errorf("%d memories of %d had their checkpoints compared: the report hardly took the lint's replay", compared, len(corpora))
	}
	t.Logf("%d memories, %d checkpoints compared and resumed", len(corpora), compared)
}

// TestReportFedFallsBack checks the reports that neither cache answers
// and that must not take the lint Session's replay: one whose
// Supersedes fields the byte scan predicted wrong (the Session replayed
// a second time, and the counts of superseded events followed the
// wrong prediction), and one the parser could not read whole (the cold
// build reports it). Each equals the cold report.
func TestReportFedFallsBack(t *testing.T) {
	gen := string(loggen.GenerateSemantic(120, 2))
	at := strings.Index(gen, "\n### evt-100 ")
	cases := []struct {
		name, log string
		fed       bool
	}{
		{"generated", gen, true},
		// A Supersedes field in a fenced block is text to the parser,
		// a field to the scan that predicts them.
		{"fenced Supersedes", gen[:at] + "\n```\n**Supersedes**: evt-090\n```\n" + gen[at:], false},
		// One whose value goes on on the next line: one more ID to
		// the parser, which the scan misses (it reads the field's own
		// line, and the bullet list after an empty one).
		{"Supersedes continued on the next line", gen + "\n### evt-121 | 2026-12-01 10:07 | x | fix\n\n**Scope**: s\n**Summary**: drop evt-050\n**Supersedes**: evt-050,\nevt-051\n", false},
		// A bullet list after an empty field: predicted since the scan
		// reads the list, so the lint's replay serves.
		{"Supersedes as a list", gen + "\n### evt-121 | 2026-12-01 10:07 | x | fix\n\n**Scope**: s\n**Summary**: drop evt-050\n**Supersedes**:\n- evt-050\n", true},
		{"over-long line", gen + "\n" + strings.Repeat("z", workspace.MaxLineLength+1) + "\n", false},
	}
	for _, c := range cases {
		root := newRootWith(t, map[string][]byte{parse.LogFile: []byte(c.log)})
		fed := reportFed
		cached := reportResult(t, root, true)
		if took := reportFed > fed; took != c.fed {
			t.Errorf("%s: the report took the lint's replay %v, want %v", c.name, took, c.fed)
		}
		if cold := reportResult(t, root, false); cached != cold {
			t.Errorf("%s: the report differs through the caches\n%s\ncold\n%s", c.name, cached, cold)
		}
	}
}
