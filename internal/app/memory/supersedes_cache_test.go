package memory

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// supEvent is event n of a test history, superseding the events sup
// (written as given: "evt-1" and "evt-001" alike).
func supEvent(n int, sup ...string) string {
	e := event(n, "create")
	if len(sup) > 0 {
		e = strings.Replace(e, "**Tags**: t\n", "**Tags**: t\n**Supersedes**: "+strings.Join(sup, ", ")+"\n", 1)
	}
	return e
}

// supHistory writes the events of h, each superseding the IDs given,
// the first arch of them into the archive: the archive's bytes (nil
// when arch is 0) and the log's, cut after its first k events (the
// log's, not counting the archive's) and whole.
func supHistory(h [][]string, arch, k int) (archive, cut, whole []byte) {
	var a, l strings.Builder
	if arch > 0 {
		fmt.Fprintf(&a, "# Changelog Archive\n\n## Archive: evt-001 through evt-%03d\n\n", arch)
	}
	l.WriteString(head)
	cutAt := len(head)
	for i, sup := range h {
		n := i + 1
		b := &l
		if n <= arch {
			b = &a
		}
		if n != 1 && n != arch+1 {
			b.WriteString("\n---\n\n")
		}
		b.WriteString(supEvent(n, sup...))
		if n == arch+k {
			cutAt = l.Len()
		}
	}
	if arch > 0 {
		archive = []byte(a.String())
	}
	whole = []byte(l.String())
	return archive, whole[:cutAt], whole
}

// TestAppendSupersedesCachedEqualsCold: append --supersedes checks the
// new event against the history's Supersedes fields (MS126). Through
// the history cache they come from the checkpoint a replay left and
// the events after it; cold, from a parse of the whole history. For
// every history below, a checkpoint after each of its log's events
// (none, some or all of the Supersedes fields after it; in the
// archive too), written by a cold replay or by one resumed from a
// checkpoint after the first event (which carries the fields over),
// and an early event edited after the checkpoint (the cache must not
// answer), each candidate append is accepted or refused
// with the same words and leaves the same log both ways, and the cache
// answers whenever a checkpoint matches.
func TestAppendSupersedesCachedEqualsCold(t *testing.T) {
	smallTail(t) // plan from the tail, as on a long log
	type try struct {
		sup    []string
		refuse string // a part of the refusal, "" when appended
	}
	for _, c := range []struct {
		name    string
		history [][]string
		arch    int
		tries   []try
	}{
		{"supersedes once", [][]string{nil, nil, nil}, 0, []try{
			{[]string{"evt-001"}, ""},
			{[]string{"evt-003", "evt-002"}, ""},
		}},
		{"supersedes twice", [][]string{nil, {"evt-001"}, nil}, 0, []try{
			{[]string{"evt-001"}, "evt-002 already corrects it"},
			{[]string{"evt-1"}, "evt-002 already corrects it"},
			{[]string{"evt-002"}, ""},
			{[]string{"evt-001", "evt-002"}, ""},
		}},
		{"a correction of a correction", [][]string{nil, {"evt-001"}, {"evt-002"}, nil}, 0, []try{
			{[]string{"evt-001"}, ""}, // evt-002 is superseded: evt-001 is free
			{[]string{"evt-002"}, "evt-003 already corrects it"},
			{[]string{"evt-003"}, ""}, // evt-002 live again, alone on evt-001
		}},
		{"a superseded correction revived", [][]string{nil, {"evt-001"}, {"evt-002"}, {"evt-1"}, nil}, 0, []try{
			{[]string{"evt-003"}, "it makes evt-002 live again, which corrects evt-1 as evt-004 does"},
			{[]string{"evt-003", "evt-002"}, ""},
			{[]string{"evt-001"}, "evt-004 already corrects it"},
			{[]string{"evt-004"}, ""},
		}},
		{"a finding the history has", [][]string{nil, {"evt-001"}, {"evt-001"}, nil}, 0, []try{
			{[]string{"evt-002"}, ""},
			{[]string{"evt-001"}, "evt-002 already corrects it"},
		}},
		{"the first correction archived", [][]string{nil, nil, {"evt-001"}, nil, nil}, 3, []try{
			{[]string{"evt-001"}, "evt-003 already corrects it"},
			{[]string{"evt-003"}, ""},
			{[]string{"evt-004"}, ""},
		}},
		{"a chain across the archive", [][]string{nil, {"evt-001"}, nil, {"evt-002"}, {"evt-001"}}, 2, []try{
			{[]string{"evt-001"}, "evt-005 already corrects it"},
			{[]string{"evt-004"}, "it makes evt-002 live again, which corrects evt-001 as evt-005 does"},
			{[]string{"evt-005"}, ""},
		}},
	} {
		inLog := len(c.history) - c.arch
		for k := 0; k <= inLog; k++ {
			for _, mode := range []string{"cold", "resumed", "edited"} {
				if k == 0 && mode != "cold" || k == 1 && mode == "resumed" {
					continue
				}
				edit := mode == "edited"
				arch, cut, whole := supHistory(c.history, c.arch, k)
				cuts := [][]byte{cut}
				if mode == "resumed" {
					_, first, _ := supHistory(c.history, c.arch, 1)
					cuts = [][]byte{first, cut}
				}
				if edit {
					// After the checkpoint, an early event of the log gains a
					// Supersedes field: the prefix no longer matches.
					h := append([][]string(nil), c.history...)
					h[c.arch] = []string{"evt-099"}
					_, _, whole = supHistory(h, c.arch, k)
				}
				for i, tr := range c.tries {
					// Every other try with --regen: the check and the regen
					// then share one read of the history (appendWith.held).
					regen := i%2 == 1
					what := fmt.Sprintf("%s, checkpoint after %d of %d log events (%s), --supersedes %s, regen %v", c.name, k, inLog, mode, strings.Join(tr.sup, ","), regen)
					cold := appendSup(t, what, arch, nil, whole, tr.sup, regen)
					hits := edgeHits
					cached := appendSup(t, what, arch, cuts, whole, tr.sup, regen)
					answered := edgeHits > hits
					if cold != cached {
						t.Fatalf("%s:\ncold   %s\ncached %s", what, cold, cached)
					}
					if tr.refuse == "" && strings.HasPrefix(cold, "error") || tr.refuse != "" && !strings.Contains(cold, tr.refuse) {
						t.Errorf("%s: want %q, got %s", what, tr.refuse, cold)
					}
					if answered != (k > 0 && !edit) {
						t.Errorf("%s: the cache answered: %v", what, answered)
					}
				}
			}
		}
	}
}

// appendSup appends an event superseding sup to a fresh memory of the
// archive arch and the log whole, and returns what it printed or its
// error, and the log afterwards. With cuts, it runs through the
// history cache, whose checkpoint replays of the log cut at each (with
// the archive) leave first; without, with the cache off. With regen
// (append --regen, in a full-tier memory), the derived files it wrote
// follow, and they must be what a cold regen writes.
func appendSup(t *testing.T, what string, arch []byte, cuts [][]byte, whole []byte, sup []string, regen bool) string {
	t.Helper()
	var files map[string][]byte
	if regen {
		files = map[string][]byte{parse.AgentsFile: []byte("# Agents\n\n## Memory System Protocol\n\nTier: full\n")}
	}
	root := newCachedRoot(t, files)
	if regen {
		if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	defer useCache(cuts != nil)()
	for _, cut := range cuts {
		writeMemory(t, root, cut, arch)
		if _, _, err := Replay(root, lint.RenderOptions(defaultConfig(t, root)), ""); err != nil {
			t.Fatalf("%s: replay: %v", what, err)
		}
	}
	writeMemory(t, root, whole, arch)
	d := Draft{Agent: "a", Time: "2026-02-01 10:00", Type: "test", Scope: "s", Summary: "x", Supersedes: sup}
	res, err := Append(root, d, regen, false)
	out := "appended " + res.ID
	if err != nil {
		out = "error " + err.Error()
	}
	log, rerr := os.ReadFile(filepath.Join(root, workspace.LogName))
	if rerr != nil {
		t.Fatal(rerr)
	}
	out += "\n" + string(log)
	if regen && err == nil {
		for _, rel := range []string{parse.GraphFile, parse.ContextFile} {
			b, err := os.ReadFile(filepath.Join(root, rel))
			if err != nil {
				t.Fatalf("%s: append --regen: %v", what, err)
			}
			out += "\n" + string(b)
		}
		defer useCache(false)()
		if r, err := Regenerate(root, RegenOptions{Check: true}); err != nil {
			t.Errorf("%s: after append --regen, a cold regen --check: %v", what, err)
		} else if r.Diff != "" {
			t.Errorf("%s: append --regen wrote what a cold regen would not:\n%s", what, r.Diff)
		}
	}
	return out
}

func defaultConfig(t testing.TB, root string) config.Config {
	t.Helper()
	cfg, err := LoadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestAppendSupersedesParsesTail: on a 5,000-event history with
// Supersedes fields and a checkpoint, then appended events, append
// --supersedes reads the log whole once (the hash that checks the
// checkpoint's prefix), parses only the bytes after the checkpoint,
// and appends what a cold append appends. Without the cache it parses
// the whole history (the cache did not answer).
func TestAppendSupersedesParsesTail(t *testing.T) {
	src := loggen.GenerateSemantic(5000, 1)
	if bytes.Count(src, []byte("**Supersedes**")) < 50 {
		t.Fatal("the generated log has too few Supersedes fields to test")
	}
	root := newCachedRoot(t, map[string][]byte{workspace.LogName: src})
	if _, _, err := Replay(root, lint.RenderOptions(defaultConfig(t, root)), ""); err != nil {
		t.Fatal(err)
	}
	d := func(i int, sup ...string) Draft {
		return Draft{Agent: "a", Time: "2099-01-01 10:00", Type: "test", Scope: "s", Summary: "after " + strconv.Itoa(i), Supersedes: sup}
	}
	var last string
	for i := range 3 {
		res, err := Append(root, d(i), false, false)
		if err != nil {
			t.Fatal(err)
		}
		last = res.ID
	}
	cold := t.TempDir()
	before, _ := os.ReadFile(filepath.Join(root, workspace.LogName))
	writeMemory(t, cold, before, nil)

	hits, parsed := edgeHits, edgeParsed
	reads := map[string]int{}
	stop := workspace.ObserveReads(func(p string) { reads[filepath.Base(p)]++ })
	res, err := Append(root, d(3, last), false, false)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	if edgeHits != hits+1 {
		t.Fatal("the history cache did not answer the Supersedes check")
	}
	// The checkpoint ends at the generated log's last event: what
	// follows is the three events appended since.
	if got, after := edgeParsed-parsed, len(before)-len(src); got <= 0 || got > after+8 {
		t.Errorf("parsed %d bytes of a %d-byte log, whose last %d bytes came after the checkpoint", got, len(before), after)
	}
	if reads[workspace.LogName] != 1 {
		t.Errorf("the log was read whole %d times, want 1 (the prefix hash)", reads[workspace.LogName])
	}

	func() {
		defer useCache(false)()
		res2, err := Append(cold, d(3, last), false, false)
		if err != nil || res2.ID != res.ID {
			t.Fatalf("cold: %v, %s; cached %s", err, res2.ID, res.ID)
		}
	}()
	if edgeHits != hits+1 {
		t.Error("the cache answered with the cache off")
	}
	a, _ := os.ReadFile(filepath.Join(root, workspace.LogName))
	b, _ := os.ReadFile(filepath.Join(cold, workspace.LogName))
	if !bytes.Equal(a, b) {
		t.Error("the cached and the cold append wrote different logs")
	}
	// A second correction of the same event is refused both ways.
	_, e1 := Append(root, d(4, last), false, false)
	func() {
		defer useCache(false)()
		_, e2 := Append(cold, d(4, last), false, false)
		if e1 == nil || e2 == nil || e1.Error() != e2.Error() {
			t.Errorf("second correction: cached %v, cold %v", e1, e2)
		}
	}()
}
