package memory

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// orderedLog is a log of decisions with IDs in the order nums gives,
// each event 14 lines long with its separator: event i (from 0)
// starts at line 5+14i.
func orderedLog(nums ...int) string {
	var b strings.Builder
	b.WriteString(head)
	for i, n := range nums {
		if i > 0 {
			b.WriteString("---\n\n")
		}
		fmt.Fprintf(&b, "### evt-%03d | 2025-01-%02d 10:00 | a | decision\n\n**Scope**: s\n**Summary**: Decide %d\n\n**Details**:\n- decision: d%d\n- rationale: r\n\n**Refs**: none\n**Tags**: none\n\n", n, (n-1)%28+1, n, n)
	}
	return b.String()
}

// idRun is lo..hi, ascending, or descending when lo > hi.
func idRun(lo, hi int) []int {
	var s []int
	for n := lo; ; {
		s = append(s, n)
		if n == hi {
			return s
		}
		if lo < hi {
			n++
		} else {
			n--
		}
	}
}

// swapped is 1..n with the events at positions i and j (from 0) swapped.
func swapped(n, i, j int) []int {
	s := idRun(1, n)
	s[i], s[j] = s[j], s[i]
	return s
}

// lineOf is the heading line of the event at position i of orderedLog.
func lineOf(i int) int { return 5 + 14*i }

func TestLogOrder(t *testing.T) {
	for _, tc := range []struct {
		name string
		nums []int
		want string // "" for no error
	}{
		{"empty", nil, ""},
		{"one event", []int{7}, ""},
		{"ascending", idRun(1, 60), ""},
		{"ascending with gaps", []int{1, 2, 5, 9}, ""},
		// A duplicate is MS107's, and an interrupted archive leaves
		// one: readArchival deals with it.
		{"a duplicate", []int{1, 2, 2, 3}, ""},
		{"newest first", idRun(60, 1),
			fmt.Sprintf("CHANGELOG.md:5: the log is newest first (evt-060 at line 5 comes before evt-001 at line %d), and archive takes the events at its top as the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run memsys archive again", lineOf(59))},
		{"two events, newest first", []int{2, 1},
			"CHANGELOG.md:5: the log is newest first (evt-002 at line 5 comes before evt-001 at line 19), and archive takes the events at its top as the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run memsys archive again"},
		{"one pair swapped", swapped(60, 10, 11),
			fmt.Sprintf("CHANGELOG.md:%d: evt-011 comes after evt-012 (line %d), and archive takes the events at the top of the log as the oldest: move evt-011 back to its place in ascending ID order (lint: MS109), then run memsys archive again", lineOf(11), lineOf(10))},
		// The first break is named, after the highest ID before it.
		{"an event far out of place", []int{1, 2, 30, 3, 4, 2},
			fmt.Sprintf("CHANGELOG.md:%d: evt-003 comes after evt-030 (line %d), and archive takes the events at the top of the log as the oldest: move evt-003 back to its place in ascending ID order (lint: MS109), then run memsys archive again", lineOf(3), lineOf(2))},
		// Descending, then one step up: not newest first.
		{"descending, then not", []int{3, 2, 1, 4},
			fmt.Sprintf("CHANGELOG.md:%d: evt-002 comes after evt-003 (line 5), and archive takes the events at the top of the log as the oldest: move evt-002 back to its place in ascending ID order (lint: MS109), then run memsys archive again", lineOf(1))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := parse.Parse(parse.LogFile, []byte(orderedLog(tc.nums...)))
			err := orderErr(parse.OrderOf(l), parse.LogFile)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			// Followed event by event as status does, the same.
			var o parse.Order
			for i := range l.Events {
				o.Add(&l.Events[i])
			}
			if o != parse.OrderOf(l) {
				t.Errorf("streamed %+v, parsed %+v", o, parse.OrderOf(l))
			}
		})
	}
	// Over MCP the advice names the tool.
	err := orderErr(parse.OrderOf(parse.Parse(parse.LogFile, []byte(orderedLog(2, 1)))), parse.LogFile)
	if got := front.Message(err, front.MCP); !strings.HasSuffix(got, "then run memsys_archive again") {
		t.Errorf("MCP: %s", got)
	}
	// An event without a number (parse reports it) is skipped, as MS109
	// skips it.
	var o parse.Order
	o.Add(&parse.Event{ID: "evt-x", Num: 0})
	o.Add(&parse.Event{ID: "evt-001", Num: 1})
	if orderErr(o, parse.LogFile) != nil || o.N != 1 {
		t.Errorf("an event without a number counted: %+v", o)
	}
}

// TestArchiveRefusesOutOfOrder archives logs whose IDs do not rise in
// file order: newest first (the archive would move the newest events),
// one pair swapped inside the events that would move, across the
// boundary (a newer event would move, an older one stay), and among the
// events that stay. Each is refused, dry run and real run alike, with
// nothing written, and status says the same thing archive does, cold
// and from the history cache, for a long log (counts only) and a short
// one (planned). A log not due is not refused: nothing moves.
func TestArchiveRefusesOutOfOrder(t *testing.T) {
	for _, tc := range []struct {
		name       string
		nums       []int
		keep       int
		wantPrefix string
	}{
		{"newest first", idRun(60, 1), 20, "CHANGELOG.md:5: the log is newest first (evt-060 at line 5 comes before evt-001 at line 831)"},
		{"pair inside the moved events", swapped(60, 10, 11), 20, fmt.Sprintf("CHANGELOG.md:%d: evt-011 comes after evt-012", lineOf(11))},
		{"pair across the boundary", swapped(60, 39, 40), 20, fmt.Sprintf("CHANGELOG.md:%d: evt-040 comes after evt-041", lineOf(40))},
		{"pair among the kept events", swapped(60, 57, 58), 20, fmt.Sprintf("CHANGELOG.md:%d: evt-058 comes after evt-059", lineOf(58))},
		// keep 25: 60 events are below 2×keep, so status plans the move.
		{"short log, newest first", idRun(60, 1), 25, "CHANGELOG.md:5: the log is newest first"},
		{"short log, pair swapped", swapped(60, 3, 4), 25, fmt.Sprintf("CHANGELOG.md:%d: evt-004 comes after evt-005", lineOf(4))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newCachedRoot(t, nil)
			src := orderedLog(tc.nums...)
			write(t, root, parse.LogFile, src)
			write(t, root, ".memsys.json", fmt.Sprintf(`{"archive": {"threshold": 50, "keep": %d}}`, tc.keep))
			for _, dry := range []bool{true, false} {
				_, err := Archive(root, ArchiveOptions{Threshold: 50, Keep: tc.keep, DryRun: dry, Agent: "a"})
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantPrefix) {
					t.Fatalf("dry run %v: got %v, want %q...", dry, err, tc.wantPrefix)
				}
			}
			if got, _ := os.ReadFile(filepath.Join(root, parse.LogFile)); string(got) != src {
				t.Error("a refused archive changed the log")
			}
			if _, err := os.Stat(filepath.Join(root, parse.ArchiveFile)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a refused archive wrote the archive: %v", err)
			}
			statusSays := func(what string) {
				t.Helper()
				_, err := Archive(root, ArchiveOptions{Threshold: 50, Keep: tc.keep, DryRun: true, Agent: "a"})
				if err == nil {
					t.Fatalf("%s: archive ran", what)
				}
				msg := err.Error()
				r, err := Status(root)
				if err != nil {
					t.Fatal(err)
				}
				if p := r.ArchivePlan; !r.ArchiveDue || p == nil || p.Error != msg {
					t.Errorf("%s: status's plan %+v, want the error %q", what, p, msg)
				}
			}
			statusSays("cold")
			if _, err := regenCfg(root, false); err != nil {
				t.Fatal(err)
			}
			hits := statusHits
			statusSays("cached")
			if statusHits == hits {
				t.Error("status did not use the cache")
			}
			// An event appended after the checkpoint: status resumes the
			// order from the checkpoint and reads on.
			appendFile(t, root, parse.LogFile, "---\n\n"+strings.TrimPrefix(orderedLog(61), head))
			hits = statusHits
			statusSays("cached, appended")
			if statusHits == hits {
				t.Error("status did not use the cache after an append")
			}
			// Not due: nothing moves, nothing is refused.
			res, err := Archive(root, ArchiveOptions{Threshold: 100, Keep: tc.keep, DryRun: true, Agent: "a"})
			if err != nil || len(res.Moved) != 0 {
				t.Errorf("not due: %+v, %v", res, err)
			}
		})
	}
}

// TestArchiveOrderAfterCheckpoint breaks the order after the cache's
// checkpoint: the events the checkpoint covers are in order, the one
// appended after them is not, and status, which reads only the events
// after the checkpoint, still says what archive says.
func TestArchiveOrderAfterCheckpoint(t *testing.T) {
	root := newCachedRoot(t, nil)
	write(t, root, parse.LogFile, orderedLog(idRun(1, 60)...))
	if _, err := regenCfg(root, false); err != nil {
		t.Fatal(err)
	}
	if r, err := Status(root); err != nil || r.ArchivePlan == nil || r.ArchivePlan.Error != "" || r.ArchivePlan.Moves != 21 {
		t.Fatalf("in order: %+v, %v", r, err)
	}
	appendFile(t, root, parse.LogFile, "---\n\n"+strings.TrimPrefix(orderedLog(30), head))
	_, err := Archive(root, ArchiveOptions{Threshold: 50, Keep: 20, DryRun: true, Agent: "a"})
	want := fmt.Sprintf("CHANGELOG.md:%d: evt-030 comes after evt-060 (line %d)", lineOf(60), lineOf(59))
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("archive: %v, want %q...", err, want)
	}
	hits := statusHits
	r, serr := Status(root)
	if serr != nil || r.ArchivePlan == nil || r.ArchivePlan.Error != err.Error() {
		t.Errorf("status: %+v, %v, want the error %q", r.ArchivePlan, serr, err)
	}
	if statusHits == hits {
		t.Error("status did not use the cache")
	}
}

// appendFile appends text to the file rel of root.
func appendFile(t *testing.T, root, rel, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, rel), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
