package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/parse"
)

// TestConvergence: five branches from one base each append three
// events (some referring to their own earlier events, some naming one
// in prose), merged into main one by one in a shuffled order with the
// merge driver installed, for several seeds. Every merge must complete
// without a conflict; at the end lint --base <base> and regen --check
// (and the audit of every commit) exit 0, each branch's events appear
// exactly once, and every ref and mention names the event it named on
// its branch. Real git, the real
// binary as the driver (testscript.Main put memsys on $PATH).
func TestConvergence(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { convergeBranches(t, seed) })
	}
}

func convergeBranches(t *testing.T, seed uint64) {
	dir := t.TempDir()
	g := &gitx.Git{Dir: dir, Env: []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_AUTHOR_DATE=2025-01-01T10:00:00Z",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com", "GIT_COMMITTER_DATE=2025-01-01T10:00:00Z"}}
	git := func(args ...string) string {
		t.Helper()
		out, err := g.Run(t.Context(), args...)
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	memsys := func(args ...string) (string, int) {
		var out, errb bytes.Buffer
		code := run(t.Context(), append([]string{"memsys", "-C", dir}, args...), &out, &errb)
		return out.String() + errb.String(), code
	}
	must := func(args ...string) string {
		t.Helper()
		out, code := memsys(args...)
		if code != 0 {
			t.Fatalf("memsys %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		return strings.TrimSpace(out)
	}

	git("init", "-q", "-b", "main")
	must("init")
	must("append", "--agent", "base", "--time", "2025-01-01 09:00", "--type", "create", "--scope", "core", "--summary", "base event",
		"--detail", "entity=core", "--detail", "path=src/core", "--detail", "purpose=base", "--regen")
	must("merge-driver", "install")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")

	// want maps each event's summary to the summaries its refs and its
	// prose mention name.
	type wantEvent struct{ refs, mention string }
	want := map[string]wantEvent{}
	rng := rand.New(rand.NewPCG(seed, 0))
	for b := range 5 {
		git("checkout", "-q", "-b", fmt.Sprintf("b%d", b), base)
		var ids, sums []string
		for k := range 3 {
			sum := fmt.Sprintf("branch %d event %d", b, k)
			args := []string{"append", "--agent", fmt.Sprintf("agent-%d", b), "--time", fmt.Sprintf("2025-01-02 %02d:%02d", 10+k, b),
				"--type", "create", "--scope", fmt.Sprintf("area%d", b), "--summary", sum,
				"--detail", fmt.Sprintf("entity=part-%d-%d", b, k), "--detail", "path=src", "--detail", "purpose=work", "--regen"}
			var w wantEvent
			if k > 0 && rng.IntN(3) > 0 {
				j := rng.IntN(k)
				args = append(args, "--refs", ids[j])
				w.refs = sums[j]
			}
			if k > 0 && rng.IntN(2) == 0 {
				j := rng.IntN(k)
				args = append(args, "--detail", "note=follows "+ids[j])
				w.mention = sums[j]
			}
			ids = append(ids, must(args...))
			sums = append(sums, sum)
			want[sum] = w
		}
		git("commit", "-q", "-a", "-m", fmt.Sprintf("branch %d", b))
	}
	git("checkout", "-q", "main")
	for _, b := range rng.Perm(5) {
		git("merge", "-q", "--no-edit", fmt.Sprintf("b%d", b))
		if s := git("status", "--porcelain"); s != "" {
			t.Fatalf("merge of b%d left changes:\n%s", b, s)
		}
	}
	if out, code := memsys("lint", "--base", base); code != 0 {
		t.Fatalf("lint --base base: exit %d\n%s", code, out)
	}
	if out, code := memsys("regen", "--check"); code != 0 {
		t.Fatalf("regen --check: exit %d\n%s", code, out)
	}
	if out, code := memsys("audit"); code != 0 {
		t.Fatalf("audit: exit %d\n%s", code, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	l := parse.Parse("CHANGELOG.md", src)
	if len(l.Events) != 16 {
		t.Fatalf("%d events, want 16\n%s", len(l.Events), src)
	}
	byID := map[string]string{}
	seen := map[string]bool{}
	for i, e := range l.Events {
		if e.Num != i+1 {
			t.Fatalf("event %d is %s", i+1, e.ID)
		}
		if seen[e.Summary] {
			t.Fatalf("%q appears twice", e.Summary)
		}
		seen[e.Summary] = true
		byID[e.ID] = e.Summary
	}
	for _, e := range l.Events[1:] {
		w, ok := want[e.Summary]
		if !ok {
			t.Fatalf("unexpected event %q", e.Summary)
		}
		got := ""
		if len(e.Refs) == 1 {
			got = byID[e.Refs[0]]
		}
		if got != w.refs {
			t.Errorf("%s (%q) refers to %q, want %q", e.ID, e.Summary, got, w.refs)
		}
		note, _ := e.Detail("note")
		if w.mention != "" && byID[strings.TrimPrefix(note, "follows ")] != w.mention {
			t.Errorf("%s (%q) mentions %q, want %q", e.ID, e.Summary, note, w.mention)
		}
	}
}
