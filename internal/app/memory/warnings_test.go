package memory

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// adoptedLog is a log of n events whose timestamps have no time of
// day: n MS111 findings, the shape of a log kept by hand before memsys.
func adoptedLog(n int) []byte {
	var b strings.Builder
	b.WriteString("# Changelog\n\n## Event Log\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "\n### evt-%03d | 2025-01-02 | ada | test\n\n**Scope**: api\n**Summary**: Test %d\n\n**Details**:\n- target: api\n- result: pass\n", i, i)
	}
	return []byte(b.String())
}

// TestRegenHonoursBaseline: once lint --write-baseline has recorded an
// adopted log's findings, Regenerate warns of none of its parse
// problems (lint shows none), cold, through the cache and from the
// cache's head alike, and counts them as accepted; a problem the
// baseline does not hold is still a warning, with lint's rule ID.
func TestRegenHonoursBaseline(t *testing.T) {
	root := newCachedRoot(t, map[string][]byte{"CHANGELOG.md": adoptedLog(60), "TODO.md": []byte("# TODO\n")})
	if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := Regenerate(root, RegenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 60 || r.Accepted != 0 || r.Problems[0].Rule != "MS111" {
		t.Fatalf("without a baseline: %d problems (first %+v), %d accepted; want 60 MS111, none accepted", len(r.Problems), r.Problems[0], r.Accepted)
	}
	if _, err := Lint(context.Background(), root, LintOptions{WriteBaseline: true}); err != nil {
		t.Fatal(err)
	}
	hits := currentHits
	for _, cached := range []bool{false, true, true} {
		func() {
			defer useCache(cached)()
			for _, o := range []RegenOptions{{}, {Check: true}, {Force: true}, {Stdout: "graph"}} {
				r, err := Regenerate(root, o)
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Problems) != 0 || r.Accepted != 60 {
					t.Errorf("cached %v, %+v: warns of %d problems (%v), %d accepted; want none, 60 accepted", cached, o, len(r.Problems), r.Problems, r.Accepted)
				}
			}
		}()
	}
	if currentHits == hits {
		t.Error("no regen was answered from the cache's head (regenerateCurrent)")
	}
	// One more event with a date-only timestamp: that one is new.
	log := append(adoptedLog(60), "\n### evt-061 | 2025-01-03 | ada | test\n\n**Scope**: api\n**Summary**: New\n\n**Details**:\n- target: api\n- result: pass\n"...)
	if err := os.WriteFile(filepath.Join(root, "CHANGELOG.md"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err = Regenerate(root, RegenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Problems) != 1 || r.Problems[0].Event != "evt-061" || r.Problems[0].Rule != "MS111" || r.Accepted != 60 {
		t.Errorf("after a new date-only event: %+v, %d accepted; want evt-061's MS111 alone, 60 accepted", r.Problems, r.Accepted)
	}
}

// TestLintedProblems: what lintedProblems hides and when it reads the
// baseline: not for a clean log, not when every problem's rule is off;
// a baseline lint cannot read, or none, hides nothing.
func TestLintedProblems(t *testing.T) {
	log := parse.Parse("CHANGELOG.md", adoptedLog(3))
	if len(log.Problems) != 3 {
		t.Fatalf("%d problems, want 3", len(log.Problems))
	}
	all, _ := lint.New(config.Default())
	baseline := lint.NewBaseline(all.ParseFindings(log.Problems[:2])).Marshal()
	reads := 0
	read := func(data []byte, err error) func() ([]byte, error) {
		return func() ([]byte, error) { reads++; return data, err }
	}
	off := config.Config{Rules: []config.RuleSetting{{Rule: "MS111", Severity: diag.Off}}}
	for _, tc := range []struct {
		name     string
		cfg      config.Config
		problems []parse.Problem
		baseline func() ([]byte, error)
		shown    int
		accepted int
		reads    int
	}{
		{"clean", config.Default(), nil, read(baseline, nil), 0, 0, 0},
		{"no baseline", config.Default(), log.Problems, read(nil, nil), 3, 0, 1},
		{"baseline", config.Default(), log.Problems, read(baseline, nil), 1, 2, 1},
		{"rule off", off, log.Problems, read(baseline, nil), 0, 0, 0},
		{"damaged", config.Default(), log.Problems, read([]byte("{"), nil), 3, 0, 1},
		{"unreadable", config.Default(), log.Problems, read(nil, errors.New("permission denied")), 3, 0, 1},
	} {
		reads = 0
		shown, accepted := lintedProblems(tc.cfg, tc.problems, tc.baseline, nil)
		if len(shown) != tc.shown || accepted != tc.accepted || reads != tc.reads {
			t.Errorf("%s: %d shown, %d accepted, baseline read %d times; want %d, %d, %d", tc.name, len(shown), accepted, reads, tc.shown, tc.accepted, tc.reads)
		}
	}
}

// TestRegenQuietOnSuperseded: a parse problem on an event a later one
// supersedes is a note for lint (the correction is the new event, and
// the log is never edited), so regen, which prints only what lint
// would warn of, leaves it out, cold and through the cache alike; the
// same problem on an event nothing supersedes is still a warning.
func TestRegenQuietOnSuperseded(t *testing.T) {
	event := func(n int, stamp, extra string) string {
		return fmt.Sprintf("\n### evt-%03d | %s | ada | test\n\n**Scope**: api\n**Summary**: Test %d\n\n**Details**:\n- target: api\n- result: pass\n\n**Refs**: none\n**Tags**: none\n%s", n, stamp, n, extra)
	}
	for _, tc := range []struct {
		name  string
		sup   string
		shown int
	}{
		{"superseded", "**Supersedes**: evt-001\n", 0},
		{"not superseded", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := "# Changelog\n\n## Event Log\n" + event(1, "2025-01-02", "") + event(2, "2025-01-03 10:00", tc.sup)
			root := newCachedRoot(t, map[string][]byte{"CHANGELOG.md": []byte(log), "TODO.md": []byte("# TODO\n")})
			if err := os.MkdirAll(filepath.Join(root, ".memory"), 0o755); err != nil {
				t.Fatal(err)
			}
			rep, err := Lint(context.Background(), root, LintOptions{})
			if err != nil {
				t.Fatal(err)
			}
			warned := 0
			for _, d := range rep.Diagnostics {
				if d.Rule == "MS111" && d.Severity != diag.Note {
					warned++
				}
			}
			if warned != tc.shown {
				t.Fatalf("lint warns of %d MS111 findings, want %d: %v", warned, tc.shown, rep.Diagnostics)
			}
			for _, cached := range []bool{false, true, true} {
				func() {
					defer useCache(cached)()
					for _, o := range []RegenOptions{{}, {Check: true}, {Stdout: "context"}} {
						r, err := Regenerate(root, o)
						if err != nil {
							t.Fatal(err)
						}
						if len(r.Problems) != tc.shown {
							t.Errorf("cached %v, %+v: regen warns of %v, want %d problems, as lint", cached, o, r.Problems, tc.shown)
						}
					}
				}()
			}
		})
	}
}
