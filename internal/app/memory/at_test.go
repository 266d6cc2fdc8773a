package memory

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// atEvent is one event of TestResolveAt's history, as the log writes it.
func atEvent(id, time string) string {
	return fmt.Sprintf("### %s | %s | alice | modify\n\n**Scope**: api\n**Summary**: Change %s\n\n**Details**:\n- entity: api\n- changes: %s\n\n**Refs**: none\n**Tags**: none\n\n---\n\n", id, time, id, id)
}

// TestResolveAt checks where a dated --at cuts the history: the last
// event before the first one dated after the instant, the archive's
// events first. evt-005 is dated before evt-004 (out of order): a cut
// before it leaves it out even when its own time is not after the
// instant, and a cut after it keeps it.
func TestResolveAt(t *testing.T) {
	archive := "# Changelog Archive\n\n## Archive: evt-001 through evt-002 | Archived 2026-03-03\n\n" +
		atEvent("evt-001", "2026-03-01 10:00") + atEvent("evt-002", "2026-03-02 09:00")
	log := "# Changelog\n\n## Event Log\n\n" +
		atEvent("evt-003", "2026-03-03 09:00") + atEvent("evt-004", "2026-03-03 18:30") +
		atEvent("evt-005", "2026-03-02 12:00") + atEvent("evt-006", "2026-03-05 08:00")
	root := newRootWith(t, map[string][]byte{"changelog-archive.md": []byte(archive), parse.LogFile: []byte(log)})
	empty := newRootWith(t, map[string][]byte{parse.LogFile: []byte("# Changelog\n\n## Event Log\n\n")})
	missing := filepath.Join(t.TempDir(), "none") // an ID must not read it
	// evt-002 twice (MS107): a cut after the first cannot be named by
	// its ID; a cut after evt-003, whose ID is its own, can.
	dup := newRootWith(t, map[string][]byte{parse.LogFile: []byte("# Changelog\n\n## Event Log\n\n" +
		atEvent("evt-001", "2026-03-01 10:00") + atEvent("evt-002", "2026-03-02 10:00") +
		atEvent("evt-003", "2026-03-03 10:00") + atEvent("evt-002", "2026-03-04 10:00"))})
	for _, c := range []struct {
		root, at, want string
	}{
		{root, "", ""},
		{missing, "evt-2", "evt-2"},
		{missing, "002", "002"},
		{root, "2026-03-01", "evt-001"},         // a date is the end of its day: in the archive
		{root, "2026-03-02 09:00", "evt-002"},   // an event at the instant is in
		{root, "2026-03-02 08:59", "evt-001"},   // a minute before it, out
		{root, "2026-03-03 12:00", "evt-003"},   // in the log
		{root, "2026-03-03T12:00", "evt-003"},   // the T form reads the same
		{root, " 2026-03-03 12:00 ", "evt-003"}, // as --until trims
		{root, "2026-03-02 12:00", "evt-002"},   // evt-005's own time, but evt-003 came first
		{root, "2026-03-03", "evt-005"},         // the day's end is past evt-004: evt-005 was appended by then
		{root, "2030-01-01", "evt-006"},         // after the last event: all of it
		{root, "2026-03-01 09:59", `error: --at "2026-03-01 09:59": no event is dated at or before it (the first, evt-001, is dated 2026-03-01 10:00): give a date from 2026-03-01 10:00 on, or an event ID` +
			"\nmcp: " + `at "2026-03-01 09:59": no event is dated at or before it (the first, evt-001, is dated 2026-03-01 10:00): give a date from 2026-03-01 10:00 on, or an event ID`},
		{dup, "2026-03-03", "evt-003"},
		{dup, "2026-03-02", `error: --at "2026-03-02": the last event by then, evt-002 at CHANGELOG.md:19, shares its ID with the event at CHANGELOG.md:47, so the ID cannot name the cut: give each its own ID (memsys lint reports it, MS107)` +
			"\nmcp: " + `at "2026-03-02": the last event by then, evt-002 at CHANGELOG.md:19, shares its ID with the event at CHANGELOG.md:47, so the ID cannot name the cut: give each its own ID (memsys_lint reports it, MS107)`},
		{dup, "2026-03-05", `error: --at "2026-03-05": the last event by then, evt-002 at CHANGELOG.md:47, shares its ID with the event at CHANGELOG.md:19, so the ID cannot name the cut: give each its own ID (memsys lint reports it, MS107)` +
			"\nmcp: " + `at "2026-03-05": the last event by then, evt-002 at CHANGELOG.md:47, shares its ID with the event at CHANGELOG.md:19, so the ID cannot name the cut: give each its own ID (memsys_lint reports it, MS107)`},
		{empty, "2026-03-01", `error: --at "2026-03-01": CHANGELOG.md and the archive hold no event: nothing to read as of a date` +
			"\nmcp: " + `at "2026-03-01": CHANGELOG.md and the archive hold no event: nothing to read as of a date`},
		{missing, "yesterday", `error: --at "yesterday" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"` +
			"\nmcp: " + `at "yesterday" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"`},
		{missing, "2026-02-30", `error: --at "2026-02-30" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"` +
			"\nmcp: " + `at "2026-02-30" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"`},
		// A bare number is an event number (the kit's scripts write 7 or
		// 007), but eight digits that make a date were read as
		// evt-20260301 where the user meant the day: refused, naming both.
		{missing, "7", "7"},
		{missing, "007", "007"},
		{missing, "12345678", "12345678"},   // no date (month 56): an event number
		{missing, "20260230", "20260230"},   // no such day: an event number
		{missing, "020260301", "020260301"}, // nine digits: an event number
		{missing, "evt-20260301", "evt-20260301"},
		{root, "20260301", `error: --at "20260301" reads as a date or as an event number: write 2026-03-01 for the end of that day, or evt-20260301 for the event` +
			"\nmcp: " + `at "20260301" reads as a date or as an event number: write 2026-03-01 for the end of that day, or evt-20260301 for the event`},
		{missing, "19991231", `error: --at "19991231" reads as a date or as an event number: write 1999-12-31 for the end of that day, or evt-19991231 for the event` +
			"\nmcp: " + `at "19991231" reads as a date or as an event number: write 1999-12-31 for the end of that day, or evt-19991231 for the event`},
		{missing, "evt-0", `error: --at "evt-0" is neither an event ID (numbering starts at evt-001) nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"` +
			"\nmcp: " + `at "evt-0" is neither an event ID (numbering starts at evt-001) nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"`},
	} {
		got, err := ResolveAt(c.root, c.at)
		if err != nil {
			got = "error: " + err.Error() + "\nmcp: " + front.Message(err, front.MCP)
		}
		if got != c.want {
			t.Errorf("ResolveAt(%q):\ngot  %s\nwant %s", c.at, got, c.want)
		}
	}
}

// TestAtDateAsID checks that the commands given a date answer as given
// the ID it resolves to, error for error.
func TestAtDateAsID(t *testing.T) {
	log := "# Changelog\n\n## Event Log\n\n" + atEvent("evt-001", "2026-03-01 10:00") +
		atEvent("evt-002", "2026-03-02 10:00") + atEvent("evt-003", "2026-03-03 10:00")
	root := newRootWith(t, map[string][]byte{parse.LogFile: []byte(log)})
	str := func(v any, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for at, id := range map[string]string{"2026-03-02": "evt-002", "2026-03-01 10:00": "evt-001"} {
		for name, run := range map[string]func(at string) string{
			"show":       func(at string) string { return str(Show(root, at, "evt-001")) },
			"show later": func(at string) string { return str(Show(root, at, "evt-003")) },
			"log": func(at string) string {
				out, _, err := Log(root, LogFilter{At: at})
				return str(out, err)
			},
			"graph": func(at string) string {
				g, err := Graph(root, at, nil)
				if err != nil {
					return "error: " + err.Error()
				}
				return string(materialize.RenderGraph(g))
			},
			"snapshot": func(at string) string { return str(Snapshot(root, "api", at)) },
			"regen": func(at string) string {
				r, err := Regenerate(root, RegenOptions{At: at, Stdout: "graph"})
				if err != nil {
					return "error: " + err.Error()
				}
				return string(r.Output)
			},
		} {
			byDate, byID := run(at), run(id)
			if byDate != byID {
				t.Errorf("%s --at %q: differs from --at %s:\n%s\n%s", name, at, id, byDate, byID)
			}
			if strings.HasPrefix(byDate, "error: --at") && name != "show later" {
				t.Errorf("%s --at %q: %s", name, at, byDate)
			}
		}
	}
}
