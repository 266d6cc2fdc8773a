package lint

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

var update = flag.Bool("update", false, "rewrite golden files and docs/lint.md")

// memFS is a memory root held in a map, for Input.ReadFile and Exists.
type memFS map[string][]byte

func (m memFS) read(rel string) ([]byte, error) {
	if b, ok := m[rel]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

func (m memFS) exists(rel string) bool {
	if _, ok := m[rel]; ok {
		return true
	}
	for k := range m {
		if strings.HasPrefix(k, rel+"/") {
			return true
		}
	}
	return false
}

// inputFor parses a memory held in files the way the command does.
func inputFor(t testing.TB, files memFS) (Input, config.Config) {
	t.Helper()
	in := Input{ReadFile: files.read, Exists: files.exists}
	if src, ok := files["changelog-archive.md"]; ok {
		in.Archive = parse.Parse("changelog-archive.md", src, parse.Archive())
		in.Events = append(in.Events, in.Archive.Events...)
	}
	if src, ok := files["CHANGELOG.md"]; ok {
		in.Log = parse.Parse("CHANGELOG.md", src)
		in.Events = append(in.Events, in.Log.Events...)
	}
	cfg := config.Default()
	if src, ok := files[config.FileName]; ok {
		var err error
		if cfg, err = config.Parse(config.FileName, src); err != nil {
			t.Fatal(err)
		}
	}
	return in, cfg
}

func check(t testing.TB, files memFS) diag.Diagnostics {
	t.Helper()
	in, cfg := inputFor(t, files)
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ds := l.Check(in)
	// The command streams the history instead (parse.Stream into a
	// Session, no events kept, their memory reused): it must find
	// exactly the same.
	s := l.Start(Input{ReadFile: files.read, Exists: files.exists})
	s.Expect(append(parse.ScanSupersedes("changelog-archive.md", files["changelog-archive.md"]), parse.ScanSupersedes("CHANGELOG.md", files["CHANGELOG.md"])...))
	var log, archive *parse.Log
	if src, ok := files["changelog-archive.md"]; ok {
		archive = parse.Stream("changelog-archive.md", src, s.Event, parse.Archive(), parse.Reuse(s))
	}
	if src, ok := files["CHANGELOG.md"]; ok {
		log = parse.Stream("CHANGELOG.md", src, s.Event, parse.Reuse(s))
	}
	if streamed := s.Finish(log, archive); !reflect.DeepEqual(streamed, ds) {
		t.Errorf("streamed lint differs from Check\nstreamed: %v\nCheck:    %v", streamed, ds)
	}
	return ds
}

// wantLine is "file:line RULE regexp" from a fixture's want file.
var wantLine = regexp.MustCompile(`^(\S+):(\d+) (MS\d+) (.*)$`)

// TestRuleFixtures runs every testdata/rules/*.txtar: a memory and a
// "want" file listing each expected finding. Unexpected and missing
// findings both fail, as in analysistest.
func TestRuleFixtures(t *testing.T) {
	paths, _ := filepath.Glob("testdata/rules/*.txtar")
	if len(paths) == 0 {
		t.Fatal("no fixtures")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			files, want := readFixture(t, path)
			got := check(t, files)
			matched := make([]bool, len(got))
		wants:
			for _, w := range want {
				m := wantLine.FindStringSubmatch(w)
				if m == nil {
					t.Fatalf("bad want line %q", w)
				}
				line, _ := strconv.Atoi(m[2])
				re := regexp.MustCompile(m[4])
				for i, d := range got {
					if !matched[i] && d.Range.File == m[1] && d.Range.Line == line && d.Rule == m[3] && re.MatchString(d.Message) {
						matched[i] = true
						continue wants
					}
				}
				t.Errorf("missing finding %s", w)
			}
			for i, d := range got {
				if !matched[i] {
					t.Errorf("unexpected finding %s", d.Error())
				}
			}
		})
	}
}

// readFixture reads a testdata/rules fixture: the memory's files and
// the lines of its want file.
func readFixture(t *testing.T, path string) (memFS, []string) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := memFS{}
	var want []string
	for _, f := range ar.Files {
		if f.Name == "want" {
			for _, l := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
				if l = strings.TrimSpace(l); l != "" {
					want = append(want, l)
				}
			}
			continue
		}
		files[f.Name] = f.Data
	}
	return files, want
}

// TestFindingsWordedForMCP: a finding whose advice names a memsys
// command carries the MCP server's wording, which names the tool (or
// marks the command as the CLI's) and no flag, over every fixture and
// a stale baseline entry (MS208). The command line's wording is the
// testscripts' business: none changed when the MCP wording came.
func TestFindingsWordedForMCP(t *testing.T) {
	paths, _ := filepath.Glob("testdata/rules/*.txtar")
	var all diag.Diagnostics
	for _, path := range paths {
		files, _ := readFixture(t, path)
		all = append(all, check(t, files)...)
	}
	// A derived file edited by hand (MS204), which no fixture has.
	files, _ := readFixture(t, "testdata/rules/clean.txtar")
	lg := parse.Parse(parse.LogFile, files[parse.LogFile])
	x := materialize.NewReplayer(RenderOptions(config.Default()))
	for i := range lg.Events {
		x.Apply(&lg.Events[i])
	}
	graph, ctx := x.Render()
	files[parse.GraphFile], files[parse.ContextFile] = append(graph, "\nhand edit\n"...), ctx
	all = append(all, check(t, files)...)
	_, _, stale := Baseline{Findings: []BaselineEntry{{Rule: "MS105", Fingerprint: "0123456789abcdef", File: "CHANGELOG.md", Event: "evt-001"}}}.Apply(nil)
	all = append(all, stale...)
	cliWord := regexp.MustCompile(`--[a-z]|\bmemsys [a-z]`)
	cliOnly := regexp.MustCompile(`the CLI command "[^"]*"`)
	tool := regexp.MustCompile(`\bmemsys_[a-z]+`)
	rules := map[string]bool{}
	for _, d := range all {
		if !cliWord.MatchString(d.Message) {
			if d.MCP != "" {
				t.Errorf("%s: an MCP wording for a message that names no command: %q", d.Error(), d.MCP)
			}
			continue
		}
		if d.MCP == "" {
			t.Errorf("%s: names a command, with no MCP wording", d.Error())
			continue
		}
		rules[d.Rule] = true
		if w := cliWord.FindString(cliOnly.ReplaceAllString(d.MCP, "")); w != "" {
			t.Errorf("%s: the MCP wording %q still says %q", d.Rule, d.MCP, w)
		}
		if tool.MatchString(d.Message) {
			t.Errorf("%s: the command line's wording names a tool: %q", d.Rule, d.Message)
		}
	}
	for _, id := range []string{"MS101", "MS117", "MS201", "MS202", "MS204", "MS207", "MS208"} {
		if !rules[id] {
			t.Errorf("no fixture has %s advise a command: the test covers less than it says", id)
		}
	}
}

func TestRegistry(t *testing.T) {
	names := map[string]string{}
	for _, r := range Rules() {
		if err := r.check(); err != nil {
			t.Error(err)
		}
		if o, dup := names[r.Name]; dup {
			t.Errorf("%s and %s share the name %q", o, r.ID, r.Name)
		}
		names[r.Name] = r.ID
		if m, _ := filepath.Glob(strings.ToLower(r.ID) + "*.go"); len(m) == 0 {
			t.Errorf("rule %s is not in a file named %s.go", r.ID, strings.ToLower(r.ID))
		}
		if Lookup(r.Name) != r || Lookup(strings.ToLower(r.ID)) != r {
			t.Errorf("Lookup(%q) does not find %s", r.Name, r.ID)
		}
	}
	if Lookup("no-such-rule") != nil {
		t.Error("Lookup found a rule that does not exist")
	}
}

func TestConfigSeverities(t *testing.T) {
	files := memFS{"CHANGELOG.md": []byte("# Changelog\n\n## Event Log\n\n### evt-001 | 2025-01-01 | a | refactor\n**Scope**: x\n**Summary**: y\n")}
	in, _ := inputFor(t, files)
	cfg := config.Default()
	cfg.File = ".memsys.json"
	cfg.Rules = []config.RuleSetting{{Rule: "event-type", Severity: diag.Warning, Line: 2}, {Rule: "MS111", Severity: diag.Off, Line: 3}}
	l, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range l.Check(in) {
		if d.Range.File == "CHANGELOG.md" {
			got = append(got, d.Rule+" "+d.Severity.String())
		}
	}
	if want := "MS105 warning"; strings.Join(got, ",") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	// The command line wins over the file.
	l, err = New(cfg, config.RuleSetting{Rule: "MS105", Severity: diag.Off})
	if err != nil {
		t.Fatal(err)
	}
	if ds := l.Check(in); len(ds) != 0 && ds[0].Range.File == "CHANGELOG.md" {
		t.Errorf("override ignored: %v", ds)
	}
	cfg.Rules = append(cfg.Rules, config.RuleSetting{Rule: "MS999", Severity: diag.Off, Line: 7})
	if _, err := New(cfg); err == nil || err.Error() != `.memsys.json:7: unknown rule "MS999": use an ID or name that memsys lint --list-rules prints` {
		t.Errorf("unknown rule: %v", err)
	} else if got, want := front.Message(err, front.MCP), `.memsys.json:7: unknown rule "MS999": use an ID or name that the CLI command "memsys lint --list-rules" prints`; got != want {
		// memsys_lint refuses the file too, and no tool lists rules.
		t.Errorf("unknown rule over MCP: %s, want %s", got, want)
	}
	// A rule key of a megabyte is quoted as an excerpt (words.Clip).
	cfg.Rules[len(cfg.Rules)-1].Rule = strings.Repeat("x", 1<<20)
	if _, err := New(cfg); err == nil || len(err.Error()) > 200 {
		t.Errorf("unknown rule of 1 MB: %d bytes of error, want one short line", len(fmt.Sprint(err)))
	}
}

// TestCodeBlocksAreNotEvents: an evt heading that breaks every log rule,
// inside a fence, an indented block, an HTML block and a comment, must
// trigger nothing.
func TestCodeBlocksAreNotEvents(t *testing.T) {
	bad := "### evt-999 | 2025-13-45 | x | refactor\n**Refs**: evt-1000\n**Bogus**: y\n"
	src := "# Changelog\n\n## Event Log\n\n" + good(1) +
		"```markdown\n" + bad + "```\n\n" +
		indent(bad) + "\n" +
		"<div>\n" + bad + "</div>\n\n" +
		"<!--\n" + bad + "-->\n\n" + good(2)
	ds := check(t, memFS{"CHANGELOG.md": []byte(src), "AGENTS.md": []byte("## Memory System Protocol\n")})
	if len(ds) != 0 {
		t.Errorf("findings inside blocks:\n%v", ds)
	}
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}

// good is a clean event numbered n.
func good(n int) string {
	return fmt.Sprintf("### evt-%03d | 2025-01-01 10:%02d | agent | test\n\n**Scope**: auth\n**Summary**: tests pass\n\n**Details**:\n- target: auth-module\n- result: pass\n\n**Refs**: none\n**Tags**: ci\n\n---\n\n", n, n%60)
}

func sortedKeys(m map[string][]byte) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func writeGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test ./lint -update):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestFirstIndex: the first event of each number wins, dense or sparse,
// and a huge number does not grow the slice.
func TestFirstIndex(t *testing.T) {
	var x firstIndex
	for i, n := range []int{1, 2, 2, 99999999, 3, 1, 99999999, 5} {
		x.add(n, firstSeen{pos: int32(i)})
	}
	for n, want := range map[int]int32{1: 0, 2: 1, 3: 4, 5: 7, 99999999: 3, 4: -1, 6: -1, 100000000: -1} {
		f, ok := x.get(n)
		if want < 0 && ok || want >= 0 && (!ok || f.pos != want) {
			t.Errorf("get(%d) = %d, %v; want %d", n, f.pos, ok, want)
		}
	}
	if x.n > 1100 {
		t.Errorf("dense slice grew to %d for a sparse number", x.n)
	}
	// Past a chunk: every number dense, none lost at the chunk bounds.
	var y firstIndex
	for n := 1; n <= 3*firstChunk+5; n++ {
		y.add(n, firstSeen{pos: int32(n)})
		y.add(n, firstSeen{pos: -7})
	}
	for n := 0; n <= 3*firstChunk+6; n++ {
		f, ok := y.get(n)
		if want := n >= 1 && n <= 3*firstChunk+5; ok != want || ok && f.pos != int32(n) {
			t.Errorf("get(%d) = %d, %v after dense adds", n, f.pos, ok)
		}
	}
}

func TestRenderOptions(t *testing.T) {
	cfg := config.Default()
	cfg.ContextWords, cfg.WindowHours, cfg.WindowEvents = 1500, 24, 10
	if o := RenderOptions(cfg); o.ContextWords != 1500 || o.WindowHours != 24 || o.WindowEvents != 10 {
		t.Errorf("RenderOptions() = %+v", o)
	}
}
