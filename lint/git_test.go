package lint

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
)

// fakeGit is a repository in memory: blobs by "rev:path".
type fakeGit struct {
	blobs   map[string]string
	shallow bool
	fail    error
}

func (g fakeGit) Blob(rev, path string) ([]byte, bool, error) {
	if g.fail != nil {
		return nil, false, g.fail
	}
	b, ok := g.blobs[rev+":"+path]
	return []byte(b), ok, nil
}

func (g fakeGit) Shallow() bool { return g.shallow }

// TestHistoryRulesThroughThePass runs MS301-MS305 on a fake repository:
// the base commit, the index (":0") and the working tree (through
// ReadFile) as heads, severities from the configuration.
func TestHistoryRulesThroughThePass(t *testing.T) {
	base := head + ev(1, "one") + ev(2, "two") + ev(3, "three")
	edited := head + ev(1, "one") + ev(2, "TWO") + ev(3, "three")
	deleted := head + ev(1, "one") + ev(3, "three")
	git := fakeGit{blobs: map[string]string{
		"c0ffee:CHANGELOG.md":       base,
		":0:CHANGELOG.md":           edited,
		"beef:CHANGELOG.md":         deleted,
		"beef:changelog-archive.md": head,
	}}
	cases := []struct {
		name  string
		revs  *Revisions
		tree  string // the working tree's log
		rules []config.RuleSetting
		want  string // "rule severity line" of each finding from MS3xx
	}{
		{"no revisions", nil, edited, nil, ""},
		{"staged edit", &Revisions{Base: "c0ffee", Head: ":0", Label: "HEAD"}, base, nil, "MS301 error 15"},
		{"working tree edit, as a warning", &Revisions{Base: "c0ffee"}, edited,
			[]config.RuleSetting{{Rule: "MS301", Severity: diag.Warning}}, "MS301 warning 15"},
		{"deleted, switched off", &Revisions{Base: "c0ffee", Head: "beef"}, base,
			[]config.RuleSetting{{Rule: "event-deleted", Severity: diag.Off}}, ""},
		{"deleted", &Revisions{Base: "c0ffee", Head: "beef"}, base, nil, "MS302 error 12"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.Rules = c.rules
			l, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			files := memFS{"CHANGELOG.md": []byte(c.tree)}
			in := Input{Git: git, Revisions: c.revs, ReadFile: files.read, Exists: files.exists}
			var got []string
			for _, d := range l.Check(in) {
				if strings.HasPrefix(d.Rule, "MS3") {
					got = append(got, d.Rule+" "+d.Severity.String()+" "+strconv.Itoa(d.Range.Line))
				}
			}
			if g := strings.Join(got, ","); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
			hist, err := l.CheckHistory(in)
			if err != nil || len(hist) != len(got) {
				t.Errorf("CheckHistory = %v, %v; want the same %d findings", hist, err, len(got))
			}
		})
	}
}

func TestHistoryRuleFailsOnUnreadableBlob(t *testing.T) {
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("cat-file died")
	in := Input{Git: fakeGit{fail: boom}, Revisions: &Revisions{Base: "c0ffee", Head: ":0"}}
	s := l.Start(in)
	s.Finish(nil, nil)
	if !errors.Is(s.Err(), boom) {
		t.Errorf("Err = %v, want the git error", s.Err())
	}
	if _, err := l.CheckHistory(in); !errors.Is(err, boom) {
		t.Errorf("CheckHistory error = %v", err)
	}
	// In a shallow clone the error says how to fetch the commit.
	in.Git = fakeGit{fail: boom, shallow: true}
	if _, err := l.CheckHistory(in); !errors.Is(err, boom) || !strings.Contains(err.Error(), "git fetch --depth=1 origin c0ffee") {
		t.Errorf("shallow CheckHistory error = %v", err)
	}
}

func TestFixIsDeclaredOnTheDerivedFileRules(t *testing.T) {
	var fix []string
	for _, r := range Rules() {
		if r.Fix {
			fix = append(fix, r.ID)
		}
	}
	if got := strings.Join(fix, ","); got != "MS202,MS203,MS204,MS205" {
		t.Errorf("rules with Fix: %s", got)
	}
}

// TestOnlyCommitted: the audit leaves a new event's numbering to lint;
// the same gap is MS305 for lint --base.
func TestOnlyCommitted(t *testing.T) {
	base := head + ev(1, "one") + ev(2, "two")
	gap := head + ev(1, "one") + ev(2, "two") + ev(5, "five")
	git := fakeGit{blobs: map[string]string{"b:CHANGELOG.md": base, "h:CHANGELOG.md": gap}}
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, only := range []bool{false, true} {
		ds, err := l.CheckHistory(Input{Git: git, Revisions: &Revisions{Base: "b", Head: "h", OnlyCommitted: only}})
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 1, true: 0}[only]; len(ds) != want {
			t.Errorf("OnlyCommitted %v: %d findings, want %d: %v", only, len(ds), want, ds)
		}
	}
}

// pastGit is fakeGit that also answers lint.PastTexts from a list of
// texts the history held before the base.
type pastGit struct {
	fakeGit
	past []string
	fail error
}

func (g pastGit) HadText(rev, text string, paths ...string) (bool, error) {
	if g.fail != nil {
		return false, g.fail
	}
	for _, p := range g.past {
		if strings.Contains(p, text) {
			return true, nil
		}
	}
	return false, nil
}

// TestHistoryRestored: an edit (MS301) or an insertion (MS304) that
// gives an event back a text the history held is the restore the
// earlier finding asked for, and is not reported; a text never held,
// a repository that cannot say (no PastTexts, or an error), and a merge
// keep the finding.
func TestHistoryRestored(t *testing.T) {
	orig := head + ev(1, "one") + ev(2, "two") + ev(3, "three")
	edited := head + ev(1, "one") + ev(2, "TWO") + ev(3, "three")
	other := head + ev(1, "one") + ev(2, "Two?") + ev(3, "three")
	deleted := head + ev(1, "one") + ev(3, "three")
	l, err := New(config.Default())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		git        Git
		base, tree string
		merge      bool
		want       string
	}{
		{"edit reverted", pastGit{fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": edited}}, []string{orig}, nil}, "", orig, false, ""},
		{"edited again", pastGit{fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": edited}}, []string{orig}, nil}, "", other, false, "MS301"},
		{"deletion put back", pastGit{fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": deleted}}, []string{orig}, nil}, "", orig, false, ""},
		{"no PastTexts", fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": edited}}, "", orig, false, "MS301"},
		{"git fails", pastGit{fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": edited}}, []string{orig}, errors.New("boom")}, "", orig, false, "MS301"},
		{"merge", pastGit{fakeGit{blobs: map[string]string{"c0:CHANGELOG.md": edited}}, []string{orig}, nil}, "", orig, true, "MS301"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := memFS{"CHANGELOG.md": []byte(c.tree)}
			ds, err := l.CheckHistory(Input{Git: c.git, Revisions: &Revisions{Base: "c0", Merge: c.merge}, ReadFile: files.read, Exists: files.exists})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.Rule)
			}
			if g := strings.Join(got, ","); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}

// mergesGit is fakeGit that names the newest merge between two commits
// (Merges), and counts the questions.
type mergesGit struct {
	fakeGit
	merge string
	asked *int
}

func (g mergesGit) LastMerge(base, head string) (string, error) {
	*g.asked++
	return g.merge, nil
}

// TestHistoryAcrossMerge checks lint --base over a head that merged
// another branch since the base: the base's evt-002 renumbered evt-003
// after the other branch's evt-002, as the merge driver writes it, is
// kept; without a merge between, the same log is an edit. What changed
// after the merge is judged against the merge's log, as any commit: an
// edit, a renumbering, a gap. A text the merge itself changed is judged
// as audit judges a merge. A merge that left every base event in place
// (GitHub's test merge of a pull request) leaves the comparison as it
// is. git is asked only when the comparison found something, and never
// for the index.
func TestHistoryAcrossMerge(t *testing.T) {
	base := head + ev(1, "one") + ev(2, "two")
	merged := head + ev(1, "one") + ev(2, "theirs") + strings.Replace(ev(2, "two"), "evt-002", "evt-003", 1)
	edited := head + ev(1, "one") + ev(2, "theirs") + strings.Replace(ev(2, "TWO"), "evt-002", "evt-003", 1)
	renumbered := head + ev(1, "one") + ev(2, "theirs") + strings.Replace(ev(2, "two"), "evt-002", "evt-005", 1)
	cases := []struct {
		name       string
		head, tree string
		merge      string // the merge's log; "" for no merge
		want       string // rules, then the first message's start
		wantAsked  int
	}{
		{"merged since", "", merged, merged, "", 1},
		{"no merge since", "", merged, "", "MS301 evt-002 was changed after it was committed at c0ffee", 1},
		{"edited after the merge", "", edited, merged, "MS301 evt-003 was changed after it was committed at the merge (m1)", 1},
		{"edited in the merge", "", edited, edited, "MS301 evt-002 as committed at c0ffee is not in the log", 1},
		{"renumbered after the merge", "", renumbered, merged, "MS305 evt-005 was evt-003 at the merge (m1)", 1},
		{"gap after the merge", "", merged + ev(5, "five"), merged, "MS305 new event evt-005 does not continue the sequence of the merge (m1) (the next ID is evt-004)", 1},
		{"dropped after the merge", "", head + ev(1, "one") + ev(2, "theirs"), merged, "MS302 evt-003, committed at the merge (m1), is gone", 1},
		{"appended only", "", base + ev(3, "three"), merged, "", 0},
		// GitHub's test merge of a pull request: HEAD is a merge commit
		// on top of the base that renumbered nothing.
		{"test merge, inserted", "", head + ev(1, "one") + ev(3, "three") + ev(2, "two"), head + ev(1, "one") + ev(3, "three") + ev(2, "two"), "MS304 new event evt-003 is inserted before evt-002", 1},
		{"test merge, appended", "", base + ev(4, "four"), base + ev(4, "four"), "MS305 new event evt-004 does not continue the sequence of c0ffee", 1},
		{"test merge, edited", "", head + ev(1, "one") + ev(2, "TWO"), head + ev(1, "one") + ev(2, "TWO"), "MS301 evt-002 as committed at c0ffee is not in the log", 1},
		{"staged", ":0", merged, merged, "MS301", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			asked := 0
			blobs := map[string]string{"c0ffee:CHANGELOG.md": base, ":0:CHANGELOG.md": c.tree}
			merge := ""
			if c.merge != "" {
				merge = "m1"
				blobs["m1:CHANGELOG.md"] = c.merge
			}
			git := mergesGit{fakeGit: fakeGit{blobs: blobs}, merge: merge, asked: &asked}
			l, err := New(config.Default())
			if err != nil {
				t.Fatal(err)
			}
			files := memFS{"CHANGELOG.md": []byte(c.tree)}
			hist, err := l.CheckHistory(Input{Git: git, Revisions: &Revisions{Base: "c0ffee", Head: c.head}, ReadFile: files.read, Exists: files.exists})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range hist {
				got = append(got, d.Rule)
			}
			g := strings.Join(got, ",")
			if len(hist) > 0 {
				g += " " + hist[0].Message
			}
			if !strings.HasPrefix(g, c.want) || (c.want == "") != (len(hist) == 0) || asked != c.wantAsked {
				t.Errorf("got %q, git asked %d times; want %q…, %d", g, asked, c.want, c.wantAsked)
			}
		})
	}
}
