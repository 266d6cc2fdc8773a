package lint

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/parse"
)

// TestVisitorsDeclareState: every rule that visits events keeps its
// state in Visitor.State, a pointer the codec can encode, so that a
// Checkpoint carries it; a rule without it would make every lint after
// an append cold (Checkpoint fails) rather than lose state.
func TestVisitorsDeclareState(t *testing.T) {
	n := 0
	for _, r := range Rules() {
		if r.Visit == nil {
			continue
		}
		n++
		in := Input{LogFile: parse.LogFile}
		v := r.Visit(&Pass{Rule: r, shared: &shared{in: &in, horizons: map[string]horizonAt{}}, out: &diag.Diagnostics{}})
		if v.State == nil || reflect.ValueOf(v.State).Kind() != reflect.Pointer {
			t.Errorf("%s: Visitor.State is %T, want a pointer to the rule's state", r.ID, v.State)
			continue
		}
		if _, err := snapshot.Encode(v.State); err != nil {
			t.Errorf("%s: State cannot be checkpointed: %v", r.ID, err)
		}
	}
	if n < 10 {
		t.Fatalf("only %d visiting rules", n)
	}
}

// splitCorpus is every memory of the rule fixtures and the testscripts:
// its log, archive and the files beside them the rules read.
func splitCorpus(t *testing.T) []memFS {
	paths, _ := filepath.Glob("testdata/rules/*.txtar")
	scripts, _ := filepath.Glob("../testscripts/*.txtar")
	var out []memFS
	for _, path := range append(paths, scripts...) {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files := memFS{}
		for _, f := range ar.Files {
			if f.Name != "want" {
				files[f.Name] = f.Data
			}
		}
		if files[parse.LogFile] != nil || files["changelog-archive.md"] != nil {
			out = append(out, files)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d memories in the corpus", len(out))
	}
	return out
}

// TestSplitSession: for every memory of the corpus and every k, a lint
// Session that sees events 1..k, is checkpointed and resumed in a fresh
// Session that sees k+1..n finds exactly what one Session finds, rule
// by rule. A history with a Supersedes field cannot be checkpointed
// (Checkpoint says so); it is the only refusal allowed.
func TestSplitSession(t *testing.T) {
	perRule := map[string]int{}
	refused, split := 0, 0
	for i, files := range splitCorpus(t) {
		if src, ok := files[config.FileName]; ok {
			if _, err := config.Parse(config.FileName, src); err != nil {
				continue // a script about a broken configuration
			}
		}
		in, cfg := inputFor(t, files)
		l, err := New(cfg)
		if err != nil {
			continue // an unknown rule in the configuration
		}
		events := make([]*parse.Event, 0, len(in.Events))
		for j := range in.Events {
			events = append(events, &in.Events[j])
		}
		sups := append(parse.ScanSupersedes("changelog-archive.md", files["changelog-archive.md"]), parse.ScanSupersedes(parse.LogFile, files[parse.LogFile])...)
		fresh := func() Input { return Input{ReadFile: files.read, Exists: files.exists} }
		one := l.Start(fresh())
		one.Expect(sups)
		for _, e := range events {
			one.Event(e)
		}
		want := one.Finish(in.Log, in.Archive)
		for k := 0; k <= len(events); k++ {
			s := l.Start(fresh())
			s.Expect(sups)
			for _, e := range events[:k] {
				s.Event(e)
			}
			data, err := s.Checkpoint()
			if err != nil {
				if len(sups) == 0 {
					t.Fatalf("memory %d, k=%d: %v", i, k, err)
				}
				refused++
				break
			}
			r, err := l.Resume(fresh(), data)
			if err != nil {
				t.Fatalf("memory %d, k=%d: %v", i, k, err)
			}
			for _, e := range events[k:] {
				r.Event(e)
			}
			got := r.Finish(in.Log, in.Archive)
			split++
			if !reflect.DeepEqual(got, want) {
				for _, id := range ruleIDs(got, want) {
					if g, w := byRule(got, id), byRule(want, id); !reflect.DeepEqual(g, w) {
						t.Errorf("memory %d (%d events), split after %d: %s finds\n%v\nwant\n%v", i, len(events), k, id, g, w)
					}
				}
				t.FailNow()
			}
			for _, d := range got {
				if k > 0 && k < len(events) {
					perRule[d.Rule]++
				}
			}
		}
	}
	// Every visiting rule found something in some split run, so each
	// rule's State was carried across a checkpoint that mattered.
	// MS123 and MS124 judge Supersedes fields, which a checkpoint
	// refuses, so they have no split run to find anything in.
	for _, r := range Rules() {
		if r.Visit != nil && perRule[r.ID] == 0 && r.ID != "MS123" && r.ID != "MS124" {
			t.Errorf("%s found nothing in any split run: the corpus does not exercise its State", r.ID)
		}
	}
	t.Logf("%d split runs, %d memories refused (Supersedes)", split, refused)
}

func ruleIDs(a, b diag.Diagnostics) []string {
	seen := map[string]bool{}
	var ids []string
	for _, d := range append(append(diag.Diagnostics(nil), a...), b...) {
		if !seen[d.Rule] {
			seen[d.Rule] = true
			ids = append(ids, d.Rule)
		}
	}
	return ids
}

func byRule(ds diag.Diagnostics, id string) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Rule == id {
			out = append(out, d)
		}
	}
	return out
}
