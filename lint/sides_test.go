package lint

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
	"github.com/rogpeppe/go-internal/txtar"
)

// sideBases are the base logs of TestSidesAppendedEqualsParsed: small
// hand-written ones, the rule fixtures' logs and generated ones.
func sideBases(t *testing.T) []string {
	bases := []string{
		head + ev(1, "one") + ev(2, "two"),
		head + ev(1, "one") + ev(2, "two") + ev(2, "dup"),
		strings.ReplaceAll(head+ev(1, "one")+ev(2, "two"), "\n", "\r\n"),
		head + ev(1, "one") + "```\nopen fence\n",
		head + ev(1, "one") + "<!-- open comment\n",
		"# Changelog\n\n" + ev(1, "no section"),
		head + ev(1, "one") + "## Notes\n\ntext\n",
		string(loggen.Generate(50, 3)),
		string(loggen.Generate(200, 4)),
	}
	paths, _ := filepath.Glob("testdata/rules/*.txtar")
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == parse.LogFile {
				bases = append(bases, string(f.Data))
			}
		}
	}
	return bases
}

// sideHeads are the heads compared with base: appends of every kind the
// prefix check must accept or refuse, and edits.
func sideHeads(base string) []string {
	nl := "\n"
	if strings.Contains(base, "\r\n") {
		nl = "\r\n"
	}
	add := func(s string) string { return base + strings.ReplaceAll(s, "\n", nl) }
	return []string{
		base,
		add(ev(901, "appended")),
		add("\n---\n\n" + ev(901, "appended") + ev(902, "two")),
		add(ev(1, "reuses a committed number")),
		add(ev(905, "skips numbers")),
		add("#### evt-901 | 2026-01-01 10:00 | a | create\n\nlevel four\n"),
		add("\n## Notes\n\n" + ev(901, "after a section")),
		add("\n### evt-901 | broken\n```\n" + ev(902, "in a fence")),
		add("**Tags**: late\n"),
		add("#late\n"),
		add("\n\n---\n\n"),
		add(ev(901, "appended") + "<!-- open\n"),
		strings.Replace(base, "evt-", "evt-9", 1),
		base[:len(base)*2/3],
		strings.Replace(base, "s\n", "S\n", 1) + ev(901, "edit and append"),
	}
}

// TestSidesAppendedEqualsParsed: the head side appended builds from
// the base's parse and the bytes after it holds the same events (ID,
// number, text, position) as a parse of the whole head, and lint finds
// the same with it, for every base and head; and the prefix check does
// serve most appends.
func TestSidesAppendedEqualsParsed(t *testing.T) {
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	hits, sums := appendedSides, summarySides
	cases := 0
	for i, base := range sideBases(t) {
		for j, h := range sideHeads(base) {
			if msg := checkSides(t, l, base, h); msg != "" {
				t.Errorf("base %d, head %d: %s", i, j, msg)
			}
			cases++
		}
	}
	if got := appendedSides - hits; got < cases/3 {
		t.Errorf("the prefix check served %d of %d comparisons", got, cases)
	}
	if got := summarySides - sums; got < cases/3 {
		t.Errorf("the base's summary served %d of %d comparisons", got, cases)
	}
	t.Logf("%d comparisons, %d heads built from the base, %d sides from a summary", cases, appendedSides-hits, summarySides-sums)
}

// FuzzSidesAppended is TestSidesAppendedEqualsParsed's property for any
// base and any bytes appended to it.
func FuzzSidesAppended(f *testing.F) {
	tails := []string{ev(901, "appended"), "\n---\n\n" + ev(901, "a"), "\n### evt-901 | broken\n```\n", "\n## Notes\n\n" + ev(902, "b"), "#late\n", "<!--\n" + ev(903, "c")}
	for i, base := range []string{head + ev(1, "one") + ev(2, "two"), string(loggen.Generate(20, 5)), strings.ReplaceAll(head+ev(1, "one"), "\n", "\r\n")} {
		for _, tail := range tails {
			f.Add(base, tail)
		}
		f.Add(base, strings.ReplaceAll(tails[i], "\n", "\r\n"))
	}
	l, err := New(config.Default())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, base, tail string) {
		if msg := checkSides(t, l, base, base+tail); msg != "" {
			t.Fatal(msg)
		}
	})
}

// idGit is a fakeGit that names its blobs by a hash of their content,
// as git does.
type idGit struct{ fakeGit }

func (g idGit) BlobID(rev, path string) (string, bool, error) {
	b, ok := g.blobs[rev+":"+path]
	return fmt.Sprintf("%x", sha256.Sum256([]byte(b))), ok, nil
}

// mapStore is a Store in memory.
type mapStore map[string][]byte

func (m mapStore) Get(key string) ([]byte, bool) { b, ok := m[key]; return b, ok }
func (m mapStore) Put(key string, data []byte)   { m[key] = data }

// checkSides compares, for the base and head logs given, both sides and
// lint's findings with whole parses, with the prefix check (appended)
// and with a summary of the base kept by an earlier lint (sideSummary),
// and says how they differ ("" when they do not).
func checkSides(t testing.TB, l *Linter, base, h string) string {
	t.Helper()
	defer func(b bool) { prefixSides = b }(prefixSides)
	git := idGit{fakeGit{blobs: map[string]string{"base:" + parse.LogFile: base, ":0:" + parse.LogFile: h}}}
	fs := memFS{parse.LogFile: []byte(h)}
	run := func(prefix bool, store Store) string {
		prefixSides = prefix
		in := Input{Git: git, Revisions: &Revisions{Base: "base", Head: ":0", Label: "HEAD"}, ReadFile: fs.read, Exists: fs.exists, Summaries: store}
		s := &Session{l: l, in: &in, sh: &shared{in: &in, cfg: l.cfg}}
		bs, hs, err := s.pass(registry["MS301"], 0).sides()
		if err != nil {
			t.Fatal(err)
		}
		var out strings.Builder
		for _, sd := range []side{bs, hs} {
			for _, e := range sd.events() {
				fmt.Fprintf(&out, "%s %d %+v %q\n", e.ID, e.Num, e.Range, e.Text)
			}
			out.WriteString("--\n")
		}
		b, _ := json.Marshal(l.Check(in))
		return out.String() + string(b)
	}
	full := run(false, nil)
	if got := run(true, nil); got != full {
		return fmt.Sprintf("with the head built from the base\n%s\nparsed whole\n%s", got, full)
	}
	store := mapStore{}
	if got := run(true, store); got != full { // keeps the summaries
		return fmt.Sprintf("keeping summaries\n%s\nparsed whole\n%s", got, full)
	}
	if got := run(true, store); got != full {
		return fmt.Sprintf("from the base's summary\n%s\nparsed whole\n%s", got, full)
	}
	return ""
}
