package history

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/io/gitx"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/internal/testkit/histgen"
	"github.com/memsys/memsys/lint"
)

// report prints res in every format memsys audit has, as the command
// does, for byte-for-byte comparisons.
func report(t *testing.T, res *Result) string {
	t.Helper()
	var b bytes.Buffer
	if err := res.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"github", "sarif"} {
		p, err := lint.NewPrinter(f, lint.PrinterOptions{Version: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Print(&b, res.Lint()); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

// audit runs an audit of dir, with the cache on or off.
func audit(t *testing.T, dir string, opt Options, cache bool) *Result {
	t.Helper()
	if cache {
		t.Setenv(workspace.EnvNoCache, "")
	} else {
		t.Setenv(workspace.EnvNoCache, "1")
	}
	res, err := Run(context.Background(), &gitx.Git{Dir: dir}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestAuditFastEqualsFull runs, over generated histories with every
// kind of change, the reference audit (every pair parsed and compared,
// every blob read through cat-file, no cache), the fast path without
// the cache, the fast path writing the cache and the fast path reading
// it, and, after a repack that recomputes every delta, the fast path
// again, and compares their reports in every format byte for byte.
func TestAuditFastEqualsFull(t *testing.T) {
	for _, h := range []histgen.History{
		{Commits: 120, ArchiveEvery: 40, Keep: 10},
		{Commits: 120, ArchiveEvery: 40, Keep: 10, Edit: 70},
		{Commits: 90, ArchiveEvery: 40, Keep: 10, Edit: 80, CRLF: true},
		{Commits: 90, Delete: 30, Reorder: 60},
		{Commits: 90, Delete: 30, Reorder: 60, CRLF: true},
		{Commits: 90, EditLast: 45},
		{Commits: 90, ArchiveEvery: 30, Keep: 5, EditLast: 31, MergeEvery: 7},
		{Commits: 100, ArchiveEvery: 40, Keep: 10, Edit: 40, Delete: 55, MergeEvery: 5, CRLF: true},
	} {
		t.Run(fmt.Sprintf("%+v", h), func(t *testing.T) {
			dir := h.Build(t)
			full := audit(t, dir, Options{full: true, catFile: true}, false)
			want := report(t, full)
			changes := h.Edit > 0 || h.Delete > 0 || h.Reorder > 0 || h.EditLast > 0
			if changes != (len(full.Findings) > 0) {
				t.Errorf("%d findings from the full audit of %+v", len(full.Findings), h)
			}
			cold := audit(t, dir, Options{}, false)
			first := audit(t, dir, Options{}, true)
			warm := audit(t, dir, Options{}, true)
			for name, res := range map[string]*Result{"cold": cold, "first cached": first, "warm": warm} {
				if got := report(t, res); got != want {
					t.Errorf("%s report differs from the full audit's:\n%s\nwant:\n%s", name, got, want)
				}
			}
			// The prefix check settles the appends: a parse only for the
			// first version of each run of appends and each change.
			if cold.parses > h.Commits/5 {
				t.Errorf("the fast audit parsed %d versions of %d commits", cold.parses, h.Commits)
			}
			if full.stored != 0 || cold.stored == 0 {
				t.Errorf("blobs from the object store: full audit %d of %d, cold %d of %d (want none, some)", full.stored, full.blobs, cold.stored, cold.blobs)
			}
			if warm.blobs != 0 || first.blobs == 0 {
				t.Errorf("blobs read: first cached run %d, warm run %d (want > 0, 0)", first.blobs, warm.blobs)
			}
			// Older versions as deltas over newer ones, several over one
			// base, as git gc leaves a repository.
			if out, err := (&gitx.Git{Dir: dir}).Run(context.Background(), "repack", "-adf", "-q", "--window=30"); err != nil {
				t.Fatalf("git repack: %v\n%s", err, out)
			}
			if got := report(t, audit(t, dir, Options{}, false)); got != want {
				t.Errorf("repacked: report differs from the full audit's:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestAuditPrefixVersions compares the fast path with the full audit
// on hand-made pairs of versions where a prefix check could go wrong.
func TestAuditPrefixVersions(t *testing.T) {
	base := head + ev(1, "one")
	for name, next := range map[string]string{
		"append":                 base + ev(2, "two"),
		"last line edited":       strings.TrimSuffix(base, "---\n\n") + "--- \n\n" + ev(2, "two"),
		"last event grew":        base + "**Tags**: late\n\n" + ev(2, "two"),
		"grew by a subheading":   base + "#### late\n\ntext\n\n" + ev(2, "two"),
		"grew by a hash line":    base + "#late\n\n" + ev(2, "two"),
		"setext after text":      strings.TrimSuffix(base, "\n---\n\n") + "\nplain words\n---\n\n" + ev(2, "two"),
		"crlf":                   strings.ReplaceAll(base+ev(2, "two"), "\n", "\r\n"),
		"cut":                    base[:len(base)-10],
		"setext":                 strings.TrimSuffix(base, "\n---\n\n") + "\n---\n\n" + ev(2, "two"),
		"open fence continued":   strings.TrimSuffix(base, "---\n\n") + "```\ncode\n\n" + ev(2, "two"),
		"open comment continued": strings.TrimSuffix(base, "---\n\n") + "<!-- note\n\n" + ev(2, "two"),
	} {
		t.Run(name, func(t *testing.T) {
			old := base
			switch name {
			case "setext":
				old = strings.TrimSuffix(base, "\n---\n\n")
			case "setext after text":
				old = strings.TrimSuffix(base, "\n---\n\n") + "\nplain words\n"
			case "open fence continued":
				old = strings.TrimSuffix(base, "---\n\n") + "```\ncode\n"
			case "open comment continued":
				old = strings.TrimSuffix(base, "---\n\n") + "<!-- note\n"
			}
			dir := histgen.Versions(t, old, next)
			want := report(t, audit(t, dir, Options{full: true}, false))
			if got := report(t, audit(t, dir, Options{}, false)); got != want {
				t.Errorf("fast audit:\n%s\nfull audit:\n%s", got, want)
			}
		})
	}
}

// TestAuditCacheNewCommits audits, commits one more version, and audits
// again: the second audit reads only the new commit's two blobs, and
// reports as a cold audit does. A corrupt entry is ignored, and
// MEMSYS_NO_CACHE reads everything.
func TestAuditCacheNewCommits(t *testing.T) {
	dir := histgen.History{Commits: 60, ArchiveEvery: 25, Keep: 5, Edit: 30}.Build(t)
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "GIT_AUTHOR_NAME=Cy", "GIT_AUTHOR_EMAIL=cy@example.com", "GIT_COMMITTER_NAME=Cy", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_AUTHOR_DATE=2025-03-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-03-01T00:00:00Z"}}
	git := func(args ...string) {
		t.Helper()
		if out, err := g.Run(context.Background(), args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	first := audit(t, dir, Options{}, true)
	if first.blobs == 0 {
		t.Fatal("the first audit read no blob")
	}
	git("checkout", "-q", "main")
	log, err := os.ReadFile(filepath.Join(dir, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	// One appended event and one rewritten: the new commit has a finding.
	next := strings.Replace(string(log), "**Summary**: change 50 ", "**Summary**: changed 50 ", 1) + "\n---\n\n" + histgen.Event(61)
	if err := os.WriteFile(filepath.Join(dir, "CHANGELOG.md"), []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-am", "commit 61")
	warm := audit(t, dir, Options{}, true)
	if warm.blobs != 2 {
		t.Errorf("the audit after one new commit read %d blobs, want 2 (its log and its parent's)", warm.blobs)
	}
	cold := audit(t, dir, Options{}, false)
	if got, want := report(t, warm), report(t, cold); got != want {
		t.Errorf("cached report:\n%s\ncold report:\n%s", got, want)
	}
	if len(cold.Findings) != len(first.Findings)+1 {
		t.Errorf("%d findings after the new commit, %d before: want one more", len(cold.Findings), len(first.Findings))
	}

	// Another range, then the whole history again: each as a cold
	// audit of it reports.
	for _, since := range []string{"HEAD~40", "", "HEAD~40"} {
		opt := Options{Since: since}
		if got, want := report(t, audit(t, dir, opt, true)), report(t, audit(t, dir, opt, false)); got != want {
			t.Errorf("--since %q: cached report:\n%s\ncold report:\n%s", since, got, want)
		}
	}

	// A damaged entry is no entry: everything is read again.
	ents, _ := filepath.Glob(filepath.Join(dir, ".git", "memsys-cache", "audit-*"))
	if len(ents) != 1 {
		t.Fatalf("cache entries %v, want one audit entry", ents)
	}
	data, err := os.ReadFile(ents[0])
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0xff
	if err := os.WriteFile(ents[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	again := audit(t, dir, Options{}, true)
	if again.blobs != cold.blobs || report(t, again) != report(t, cold) {
		t.Errorf("after corrupting the entry: %d blobs (cold: %d), same report: %v", again.blobs, cold.blobs, report(t, again) == report(t, cold))
	}

	// With the cache off nothing is read from it.
	if off := audit(t, dir, Options{}, false); off.blobs != cold.blobs {
		t.Errorf("MEMSYS_NO_CACHE: %d blobs read, want %d", off.blobs, cold.blobs)
	}
	if warm := audit(t, dir, Options{}, true); warm.blobs != 0 {
		t.Errorf("after rewriting the entry, a warm audit read %d blobs", warm.blobs)
	}
}

// TestAuditGrownHistory grows a history with merges commit by commit
// and audits it after each step with the cache on: the audit walks
// only the new commits when they add a line on top of the last audit's
// walk, the whole range otherwise (a merge, HEAD moved back, another
// --since), and reports in every format byte for byte what the full
// reference audit of the whole range reports.
func TestAuditGrownHistory(t *testing.T) {
	dir := histgen.History{Commits: 40, ArchiveEvery: 15, Keep: 5, Edit: 20, MergeEvery: 6}.Build(t)
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "GIT_AUTHOR_NAME=Cy", "GIT_AUTHOR_EMAIL=cy@example.com", "GIT_COMMITTER_NAME=Cy", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_AUTHOR_DATE=2025-03-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-03-01T00:00:00Z"}}
	git := func(args ...string) {
		t.Helper()
		if out, err := g.Run(context.Background(), args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	next := 41
	edit := func(name string, change func(string) string) {
		t.Helper()
		path := filepath.Join(dir, name)
		data, _ := os.ReadFile(path)
		if err := os.WriteFile(path, []byte(change(string(data))), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", name)
		git("commit", "-q", "-m", "change "+name)
	}
	appendEvent := func(s string) string {
		s += "\n---\n\n" + histgen.Event(next)
		next++
		return s
	}
	code := func(s string) string { return s + "x\n" }
	git("checkout", "-q", "main")
	audit(t, dir, Options{}, true)
	for _, step := range []struct {
		name  string
		do    func()
		since string
		grown int // commits the walk lists when the audit reads only new ones; -1: the whole range
	}{
		{name: "a commit not touching the log", do: func() { edit("code.txt", code) }, grown: 0},
		{name: "one appended event", do: func() { edit("CHANGELOG.md", appendEvent) }, grown: 1},
		{name: "an append, a code change, an edit", do: func() {
			edit("CHANGELOG.md", appendEvent)
			edit("code.txt", code)
			edit("CHANGELOG.md", func(s string) string {
				return appendEvent(strings.Replace(s, "**Details**:", "**Details**: (edited)", 1))
			})
		}, grown: 2},
		{name: "a merged side branch", do: func() {
			git("checkout", "-q", "-b", "topic")
			edit("CHANGELOG.md", appendEvent)
			git("checkout", "-q", "main")
			edit("code.txt", code)
			git("merge", "-q", "--no-ff", "-m", "merge topic", "topic")
		}, grown: -1},
		{name: "an append over the merge", do: func() { edit("CHANGELOG.md", appendEvent) }, grown: 1},
		{name: "HEAD moved back", do: func() { git("reset", "-q", "--hard", "HEAD~1") }, grown: -1},
		{name: "with a commit-graph", do: func() {
			git("commit-graph", "write", "--reachable")
			edit("CHANGELOG.md", appendEvent)
			edit("CHANGELOG.md", appendEvent)
		}, grown: 2},
		{name: "--since", since: "HEAD~6", do: func() {}, grown: -1},
		{name: "--since, grown", since: "HEAD~7", do: func() { edit("CHANGELOG.md", appendEvent) }, grown: 1},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.do()
			opt := Options{Since: step.since}
			warm := audit(t, dir, opt, true)
			want := report(t, audit(t, dir, Options{Since: step.since, full: true, catFile: true}, false))
			if got := report(t, warm); got != want {
				t.Errorf("report after the audit of the history before:\n%s\nfull audit:\n%s", got, want)
			}
			if step.grown >= 0 && warm.listed != step.grown {
				t.Errorf("the walk listed %d commits, want only the %d new ones", warm.listed, step.grown)
			}
			if step.grown < 0 && warm.listed != warm.Commits {
				t.Errorf("the walk listed %d commits of %d, want the whole range", warm.listed, warm.Commits)
			}
		})
	}
}

// TestAuditStoreFallsBack damages, in the pack, the last version of the
// log and leaves a loose copy of it, as git might find a packed object
// bad and another copy good: the object store cannot rebuild it, the
// audit reads it through cat-file (which falls back to the loose copy),
// and reports what the full audit reports.
func TestAuditStoreFallsBack(t *testing.T) {
	dir := histgen.History{Commits: 60, Edit: 12}.Build(t) // over fast-import's 100 objects: a pack
	g := &gitx.Git{Dir: dir}
	ctx := context.Background()
	want := report(t, audit(t, dir, Options{full: true, catFile: true}, false))
	out, err := g.Run(ctx, "rev-parse", "HEAD:CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	oid := strings.TrimSpace(string(out))
	content, err := g.Run(ctx, "cat-file", "blob", oid)
	if err != nil {
		t.Fatal(err)
	}
	var loose bytes.Buffer
	z := zlib.NewWriter(&loose)
	fmt.Fprintf(z, "blob %d\x00%s", len(content), content)
	z.Close()
	if err := os.MkdirAll(filepath.Join(dir, ".git", "objects", oid[:2]), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "objects", oid[:2], oid[2:]), loose.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	idx, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.idx"))
	if len(idx) != 1 {
		t.Fatalf("pack indexes %v", idx)
	}
	f, err := os.Open(idx[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err = g.RunInput(ctx, f, "show-index")
	if err != nil {
		t.Fatal(err)
	}
	off := -1
	for _, line := range strings.Split(string(out), "\n") {
		if fs := strings.Fields(line); len(fs) >= 2 && fs[1] == oid {
			off, _ = strconv.Atoi(fs[0])
		}
	}
	packPath := strings.TrimSuffix(idx[0], ".idx") + ".pack"
	pack, err := os.ReadFile(packPath)
	if err != nil || off < 0 {
		t.Fatalf("pack: %v, offset %d", err, off)
	}
	pack[off+6] ^= 0x5a
	if err := os.Chmod(packPath, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packPath, pack, 0o444); err != nil {
		t.Fatal(err)
	}
	cold := audit(t, dir, Options{}, false)
	if got := report(t, cold); got != want {
		t.Errorf("report with a damaged packed version:\n%s\nwant:\n%s", got, want)
	}
	if cold.blobs-cold.stored != 1 {
		t.Errorf("%d of %d blobs from the object store, want all but the damaged one", cold.stored, cold.blobs)
	}
}

// TestAuditCacheNoPairs audits a history in which no commit changed a
// committed log (one commit adds it, later ones touch other files):
// there is nothing to compare, and the audit still records its walk,
// so the next audit of the same HEAD answers from the cache without
// walking again, and one commit later walks only that commit.
func TestAuditCacheNoPairs(t *testing.T) {
	dir := t.TempDir()
	g := &gitx.Git{Dir: dir, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir, "GIT_AUTHOR_NAME=Cy", "GIT_AUTHOR_EMAIL=cy@example.com", "GIT_COMMITTER_NAME=Cy", "GIT_COMMITTER_EMAIL=cy@example.com", "GIT_AUTHOR_DATE=2025-03-01T00:00:00Z", "GIT_COMMITTER_DATE=2025-03-01T00:00:00Z"}}
	git := func(args ...string) {
		t.Helper()
		if out, err := g.Run(context.Background(), args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	write("CHANGELOG.md", "# Changelog\n\n## Event Log\n\n"+histgen.Event(1))
	git("add", "-A")
	git("commit", "-q", "-m", "log")
	entries := func() []string {
		ents, _ := filepath.Glob(filepath.Join(dir, ".git", "memsys-cache", "audit-*"))
		return ents
	}
	first := audit(t, dir, Options{}, true)
	if first.Commits != 1 || len(first.Findings) != 0 {
		t.Fatalf("first audit: %d commits, %d findings; want 1 and none", first.Commits, len(first.Findings))
	}
	if len(entries()) != 1 {
		t.Fatalf("after an audit with nothing to compare, cache entries %v, want one", entries())
	}
	if got, want := report(t, audit(t, dir, Options{}, true)), report(t, first); got != want {
		t.Errorf("cached report:\n%s\nfirst report:\n%s", got, want)
	}
	write("notes.txt", "not the log\n")
	git("add", "-A")
	git("commit", "-q", "-m", "notes")
	warm, cold := audit(t, dir, Options{}, true), audit(t, dir, Options{}, false)
	if got, want := report(t, warm), report(t, cold); got != want {
		t.Errorf("after a commit that leaves the log alone, cached report:\n%s\ncold report:\n%s", got, want)
	}
}

// TestAuditBlobLimit: a committed version of the log over the limit
// (workspace.MaxFileSize in memsys; lowered here to the last version's
// size less one byte) stops the audit with one error naming the file,
// the commit and the limit, whether the blobs come from the object
// store (packed, as deltas or whole) or through cat-file, and it is
// never rebuilt or read. At exactly the version's size the audit runs
// as without a limit.
func TestAuditBlobLimit(t *testing.T) {
	dir := histgen.History{Commits: 120}.Build(t) // a pack
	g := &gitx.Git{Dir: dir}
	ctx := context.Background()
	out, err := g.Run(ctx, "cat-file", "-s", "HEAD:CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	head, err := g.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	want := report(t, audit(t, dir, Options{full: true, catFile: true}, false))
	defer func(old int64) { maxBlob = old }(maxBlob)
	for _, opt := range []Options{{}, {catFile: true}, {full: true}} {
		t.Setenv(workspace.EnvNoCache, "1")
		maxBlob = size - 1
		_, err := Run(ctx, g, opt)
		prefix := fmt.Sprintf("CHANGELOG.md at commit %.12s: %d bytes, over the 0 MiB limit: memsys does not read a file this large; audit only later commits: memsys audit --since REV", head, size)
		if err == nil || !strings.HasPrefix(err.Error(), prefix) {
			t.Errorf("%+v: audit with a version over the limit: %v, want %q...", opt, err, prefix)
		}
		maxBlob = size
		if got := report(t, audit(t, dir, opt, false)); got != want {
			t.Errorf("%+v: with the limit at the largest version's size the report differs:\n%s\nwant:\n%s", opt, got, want)
		}
	}
}
