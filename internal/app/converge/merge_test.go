package converge

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestRewriteIDs(t *testing.T) {
	to := map[int]int{3: 7, 4: 12}
	for _, c := range []struct{ in, want string }{
		{"### evt-003 | x", "### evt-007 | x"},
		{"**Refs**: evt-001, evt-003, evt-004", "**Refs**: evt-001, evt-007, evt-012"},
		{"- note: see evt-3 and EVT-004.", "- note: see evt-007 and evt-012."},
		{"- path: my-evt-003 evt-003a evt-0030 _evt-003", "- path: my-evt-003 evt-003a evt-0030 _evt-003"},
		{"evt-", "evt-"},
		{"evt-0003", "evt-0007"}, // a wider ID keeps its width
	} {
		if got := string(rewriteIDs([]byte(c.in), to, 3)); got != c.want {
			t.Errorf("rewriteIDs(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMergeEditedConflict: an ancestor event edited on one side while
// the other appends stops the merge, names the event, and marks only
// that event.
func TestMergeEditedConflict(t *testing.T) {
	anc := appended(nil, "base", 3)
	ancLog := render(genHead, anc)
	edit := func(b []byte) []byte {
		return bytes.Replace(b, []byte("**Summary**: base2\n"), []byte("**Summary**: base2 rewritten\n"), 1)
	}
	del := func(b []byte) []byte {
		i, j := bytes.Index(b, []byte("### evt-002")), bytes.Index(b, []byte("### evt-003"))
		return append(append([]byte(nil), b[:i]...), b[j:]...)
	}
	theirs := render(genHead, appended(anc, "theirs", 2))
	ours := render(genHead, appended(anc, "ours", 1))
	for _, c := range []struct {
		name  string
		o, th []byte
		want  string
	}{
		{"ours edits", edit(ancLog), theirs, "evt-002 on ours differs from the base's: committed events are immutable"},
		{"theirs edits", ours, edit(theirs), "evt-002 on theirs differs from the base's: committed events are immutable"},
		{"both edit", edit(ours), edit(theirs), "evt-002 differs from the base's on both ours and theirs"},
		{"ours deletes", del(ancLog), theirs, "evt-002 of the base is not on ours"},
		{"theirs deletes, ours edits", edit(ours), del(theirs), "evt-002 of the base is not on theirs and differs on ours"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: ancLog, Ours: c.o, Theirs: c.th, Text: gitText(t)})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Conflicts) != 1 {
				t.Fatalf("conflicts %v, want one", got.Conflicts)
			}
			line := got.Conflicts[0].String("CHANGELOG.md")
			if !strings.HasPrefix(line, fmt.Sprintf("CHANGELOG.md:%d: %s", got.Conflicts[0].Line, c.want)) || got.Conflicts[0].Event != "evt-002" {
				t.Fatalf("conflict %q, want %q", line, c.want)
			}
			// The markers enclose evt-002 only, at the line reported.
			data := string(got.Data)
			lines := strings.Split(data, "\n")
			if at := got.Conflicts[0].Line; !strings.HasPrefix(lines[at-1], "<<<<<<< ours") {
				t.Fatalf("line %d is %q, want the conflict's opening marker\n%s", at, lines[at-1], data)
			}
			if n := strings.Count(data, "<<<<<<<"); n != 1 {
				t.Fatalf("%d conflict blocks, want 1", n)
			}
			block := data[strings.Index(data, "<<<<<<<"):strings.Index(data, ">>>>>>>")]
			if strings.Contains(block, "### evt-001") || strings.Contains(block, "### evt-003") || !strings.Contains(block, "### evt-002") {
				t.Fatalf("the conflict block holds more or less than evt-002:\n%s", block)
			}
			// Nothing else is lost: every appended event is still there.
			for _, l := range []string{"theirs1", "theirs2", "base1", "base3"} {
				if !strings.Contains(data, "**Summary**: "+l+"\n") {
					t.Fatalf("%q lost\n%s", l, data)
				}
			}
		})
	}
}

// TestMergeCherryPick: theirs' event already on ours under another ID
// (a cherry-pick, refs rewritten by the first merge) is written once.
func TestMergeCherryPick(t *testing.T) {
	text := gitText(t)
	anc := appended(nil, "base", 2)
	feature := appended(anc, "f", 2) // f1 -> base2, f2 -> f1
	mainLog := appended(anc, "m", 1) // m1
	// cherry-pick the feature's two events onto main
	picked, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: render(genHead, mainLog), Theirs: render(genHead, feature), Text: text})
	if err != nil || len(picked.Conflicts) > 0 {
		t.Fatal(err, picked.Conflicts)
	}
	// the feature goes on with one more event, then merges into main
	more := appended(feature, "g", 1)
	got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(genHead, anc), Ours: picked.Data, Theirs: render(genHead, more), Text: text})
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, got, mainLog, mainLog, more)
	if len(got.Dropped) != 2 || got.Dropped[0].To != "evt-004" || got.Dropped[1].To != "evt-005" {
		t.Fatalf("dropped %v, want f1 and f2 as evt-004 and evt-005", got.Dropped)
	}
}

// TestMergeText: the changelog above the event log merges as git's line
// merge does; a conflict there is reported, not resolved.
func TestMergeText(t *testing.T) {
	text := gitText(t)
	anc := appended(nil, "base", 1)
	head := "# Changelog\n\nintro\n\n## Unreleased\n\n- one\n\n## Event Log\n\n"
	oh := strings.Replace(head, "intro", "intro, edited", 1)
	th := strings.Replace(head, "- one\n", "- one\n- two\n", 1)
	got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: render(head, anc), Ours: render(oh, appended(anc, "o", 1)), Theirs: render(th, appended(anc, "t", 1)), Text: text})
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, got, appended(anc, "o", 1), appended(anc, "o", 1), appended(anc, "t", 1))
	if !bytes.HasPrefix(got.Data, []byte(strings.Replace(th, "intro", "intro, edited", 1))) {
		t.Fatalf("text above the log not merged:\n%s", got.Data)
	}
	got, err = Merge(Input{Path: "CHANGELOG.md", Ancestor: render(head, anc), Ours: render(oh, anc), Theirs: render(strings.Replace(head, "intro", "other", 1), anc), Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Conflicts) != 1 || !strings.Contains(got.Conflicts[0].Message, "text before the event log conflicts") {
		t.Fatalf("conflicts %v, want the text conflict", got.Conflicts)
	}
}

// TestMergeMalformed: a log the driver cannot read as records merges as
// text, with a conflict that says why.
func TestMergeMalformed(t *testing.T) {
	anc := render(genHead, appended(nil, "base", 1))
	bad := append(append([]byte(nil), render(genHead, appended(nil, "base", 2))...), "\n---\n\n### evt-0x2 | 2025-01-01 10:00 | a | create\n"...)
	got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: anc, Ours: bad, Theirs: render(genHead, appended(appended(nil, "base", 1), "t", 1)), Text: gitText(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !got.TextOnly || len(got.Conflicts) != 1 || !strings.Contains(got.Conflicts[0].Message, "cannot be read as event records") {
		t.Fatalf("got %+v", got.Conflicts)
	}
}

// TestMergeArchive: the archive takes the same merge; events only move
// into it, so two sides that archived different amounts agree on the
// events both moved and keep the extra ones under their own IDs.
func TestMergeArchive(t *testing.T) {
	const archHead = "# Changelog archive\n\n## Archive: evt-001 through evt-002 | Archived 2025-01-01\n\n"
	all := appended(nil, "base", 5)
	anc, ours, theirs := render(archHead, all[:2]), render(archHead, all[:4]), render(archHead, all[:3])
	got, err := Merge(Input{Path: "changelog-archive.md", Archive: true, Ancestor: anc, Ours: ours, Theirs: theirs, Text: gitText(t)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Conflicts) > 0 || string(got.Data) != string(ours) {
		t.Fatalf("conflicts %v; data\n%s", got.Conflicts, got.Data)
	}
	if len(got.Dropped) != 1 || got.Dropped[0] != (Move{From: "evt-003", To: "evt-003"}) {
		t.Errorf("dropped %v, want evt-003 once", got.Dropped)
	}
	// the other way round the extra event of theirs follows ours'
	got, err = Merge(Input{Path: "changelog-archive.md", Archive: true, Ancestor: anc, Ours: theirs, Theirs: ours, Text: gitText(t)})
	if err != nil || len(got.Conflicts) > 0 || string(got.Data) != string(ours) {
		t.Fatalf("reverse: %v %v\n%s", err, got.Conflicts, got.Data)
	}
}

// TestMergeInheritedDuplicates: a hand-kept log with a committed
// duplicate ID (two evt-002, MS107) merges by record: each copy pairs
// with the copy at the same place on each side, theirs' new events are
// renumbered as usual, and an edit to a copy is still a conflict. A
// duplicate a side adds itself is still merged as text.
func TestMergeInheritedDuplicates(t *testing.T) {
	ev := func(id, summary string) string {
		return "### " + id + " | 2025-01-01 10:00 | a | test\n\n**Scope**: s\n**Summary**: " + summary + "\n\n---\n\n"
	}
	head := "# Changelog\n\n## Event Log\n\n"
	anc := head + ev("evt-001", "one") + ev("evt-002", "two") + ev("evt-002", "two again") + ev("evt-003", "three")
	twins := head + ev("evt-001", "one") + ev("evt-002", "same") + ev("evt-002", "same") + ev("evt-003", "three")
	cases := []struct {
		name              string
		anc, ours, theirs string
		want              string // merged log; "" when a conflict is wanted
		conflict          string
		textOnly          bool
	}{
		{name: "both appended", anc: anc, ours: anc + ev("evt-004", "ours"), theirs: anc + ev("evt-004", "theirs"),
			want: anc + ev("evt-004", "ours") + strings.TrimSuffix(ev("evt-005", "theirs"), "\n---\n\n")},
		{name: "identical copies", anc: twins, ours: twins + ev("evt-004", "ours"), theirs: twins + ev("evt-004", "theirs"),
			want: twins + ev("evt-004", "ours") + strings.TrimSuffix(ev("evt-005", "theirs"), "\n---\n\n")},
		{name: "second copy edited", anc: anc, ours: strings.Replace(anc, "two again", "two, edited", 1), theirs: anc + ev("evt-004", "theirs"),
			conflict: "evt-002 on ours differs from the base's"},
		{name: "new duplicate", anc: anc, ours: anc + ev("evt-004", "ours"), theirs: anc + ev("evt-004", "t1") + ev("evt-004", "t2"),
			conflict: "evt-004 appears twice", textOnly: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: []byte(c.anc), Ours: []byte(c.ours), Theirs: []byte(c.theirs), Text: gitText(t)})
			if err != nil {
				t.Fatal(err)
			}
			if got.TextOnly != c.textOnly {
				t.Fatalf("TextOnly %v, want %v: %v", got.TextOnly, c.textOnly, got.Conflicts)
			}
			if c.conflict == "" {
				if len(got.Conflicts) > 0 || strings.TrimRight(string(got.Data), "\n-") != strings.TrimRight(c.want, "\n-") {
					t.Fatalf("conflicts %v\ngot:\n%s\nwant:\n%s", got.Conflicts, got.Data, c.want)
				}
				return
			}
			if len(got.Conflicts) != 1 || !strings.Contains(got.Conflicts[0].Message, c.conflict) {
				t.Fatalf("conflicts %v, want one with %q", got.Conflicts, c.conflict)
			}
		})
	}
}

// TestMergeArchivedOnOneSide: events one side moved to its archive
// leave the merged log whichever side that is. Archived on theirs, ours'
// copies were kept, so the merge (with theirs' archive, which git takes
// as it is) held them twice; Result.Archived lists them for the
// derived files' driver.
func TestMergeArchivedOnOneSide(t *testing.T) {
	anc := appended(nil, "base", 3)
	ancLog := render(genHead, anc)
	archived := func(b []byte) []byte {
		i, j := bytes.Index(b, []byte("### evt-001")), bytes.Index(b, []byte("### evt-003"))
		return append(append(append([]byte(nil), b[:i]...), "<!-- memsys: evt-001 through evt-002 archived to changelog-archive.md -->\n\n"...), b[j:]...)
	}
	appender := render(genHead, appended(anc, "new", 1))
	archiver := archived(render(genHead, appended(anc, "arch", 1)))
	for _, c := range []struct {
		name      string
		o, th     []byte
		nArchived int
	}{
		{"ours archived", archiver, appender, 0},
		{"theirs archived", appender, archiver, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: ancLog, Ours: c.o, Theirs: c.th, Text: gitText(t)})
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Conflicts) != 0 {
				t.Fatalf("conflicts %v", got.Conflicts)
			}
			data := string(got.Data)
			for _, l := range []string{"base1", "base2"} {
				if strings.Contains(data, "**Summary**: "+l+"\n") {
					t.Errorf("archived %q still in the log\n%s", l, data)
				}
			}
			for _, l := range []string{"base3", "new1", "arch1"} {
				if !strings.Contains(data, "**Summary**: "+l+"\n") {
					t.Errorf("%q lost\n%s", l, data)
				}
			}
			if len(got.Archived) != c.nArchived {
				t.Fatalf("Archived holds %d events, want %d", len(got.Archived), c.nArchived)
			}
			for i, b := range got.Archived {
				if want := fmt.Sprintf("**Summary**: base%d\n", i+1); !bytes.Contains(b, []byte(want)) {
					t.Errorf("Archived[%d] is not base%d:\n%s", i, i+1, b)
				}
			}
		})
	}
}

// TestMergeReplayedKeepsNumber: a rebase of a branch that merged main
// (git drops the merge and replays the branch's own commits after
// main's) moves main's event before the branch's, so an event that
// named it keeps its own number with its ref rewritten. Replaying the
// next commit, the ancestor holds that event with the old ref and HEAD
// with the new one under the same number: it is the same event (the
// ancestor's IDs mapped to HEAD's give HEAD's text), not an edit, and
// the rebase stopped on it. An edit of the ref that no renumbering
// explains still conflicts.
func TestMergeReplayedKeepsNumber(t *testing.T) {
	ev := func(id, summary, refs string) string {
		return "### " + id + " | 2025-01-01 10:00 | a | test\n\n**Scope**: s\n**Summary**: " + summary +
			"\n\n**Details**:\n- note: after " + refs + "\n\n**Refs**: " + refs + "\n\n---\n\n"
	}
	const head = "# Changelog\n\n## Event Log\n\n"
	// The branch after merging main (m1 renumbered after e1), then e2.
	anc := head + ev("evt-001", "c", "none") + ev("evt-002", "e1", "evt-001") + ev("evt-003", "m1", "evt-001") + ev("evt-004", "e2", "evt-003")
	// Rebased onto main: m1 first, e1 replayed after it, e2 keeps evt-004.
	ours := head + ev("evt-001", "c", "none") + ev("evt-002", "m1", "evt-001") + ev("evt-003", "e1", "evt-001") + ev("evt-004", "e2", "evt-002")
	// The next commit to replay: e3 after e2.
	theirs := anc + ev("evt-005", "e3", "evt-004")
	for _, c := range []struct {
		name, ours, want string
	}{
		{"replayed", ours, ours + ev("evt-005", "e3", "evt-004")},
		// e2's ref edited on HEAD to name e1, which no renumbering
		// explains: a conflict.
		{"edited", strings.Replace(ours, "**Refs**: evt-002", "**Refs**: evt-003", 1), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: []byte(anc), Ours: []byte(c.ours), Theirs: []byte(theirs), Text: gitText(t)})
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if len(got.Conflicts) != 1 || got.Conflicts[0].Event != "evt-004" {
					t.Fatalf("conflicts %v, want one on evt-004\n%s", got.Conflicts, got.Data)
				}
				return
			}
			if len(got.Conflicts) > 0 || strings.TrimRight(string(got.Data), "\n-") != strings.TrimRight(c.want, "\n-") {
				t.Fatalf("conflicts %v\ngot:\n%s\nwant:\n%s", got.Conflicts, got.Data, c.want)
			}
		})
	}
}

// TestMergeUnterminatedLastLine: the ancestor's log does not end its
// last line (an editor dropped the final newline); a side that appends
// ends it, which changes no event. The driver called that an edit of
// the ancestor's last event on the appending side ("evt-002 differs
// from the base's on both ours and theirs") and stopped the merge on a
// conflict; a side that only edited the text above the log, its last
// line still open, had theirs' events written right after it, the
// separator's "---" then underlining that line as a heading.
func TestMergeUnterminatedLastLine(t *testing.T) {
	text := gitText(t)
	anc := appended(nil, "base", 2)
	open := func(b []byte) []byte { return bytes.TrimSuffix(b, []byte("\n")) }
	ancLog := open(render(genHead, anc))
	for _, nl := range []string{"\n", "\r\n"} {
		crlf := func(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte(nl)) }
		theirs := appended(anc, "t", 2)
		ours := appended(anc, "o", 1)
		got, err := Merge(Input{Path: "CHANGELOG.md", Ancestor: crlf(ancLog), Ours: crlf(render(genHead, ours)), Theirs: crlf(render(genHead, theirs)), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		checkMerged(t, Result{Data: bytes.ReplaceAll(got.Data, []byte("\r\n"), []byte("\n")), Conflicts: got.Conflicts}, ours, ours, theirs)

		// Ours only edited the text above the log: its last line is
		// still open when theirs' events follow it.
		head := strings.Replace(genHead, "# Changelog", "# Changelog of the project", 1)
		got, err = Merge(Input{Path: "CHANGELOG.md", Ancestor: crlf(ancLog), Ours: crlf(open(render(head, anc))), Theirs: crlf(render(genHead, theirs)), Text: text})
		if err != nil {
			t.Fatal(err)
		}
		checkMerged(t, Result{Data: bytes.ReplaceAll(got.Data, []byte("\r\n"), []byte("\n")), Conflicts: got.Conflicts}, anc, anc, theirs)
		if want := "**Tags**: t" + nl + nl + "---" + nl + nl + "### evt-003"; !bytes.Contains(got.Data, []byte(want)) {
			t.Errorf("evt-002's last line is not ended before the separator (want %q):\n%s", want, got.Data)
		}
		if nl == "\r\n" && bytes.Count(got.Data, []byte("\n")) != bytes.Count(got.Data, []byte("\r\n")) {
			t.Errorf("a CRLF merge wrote a bare LF:\n%q", got.Data)
		}
	}
}
