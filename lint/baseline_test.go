package lint

import (
	"testing"

	"github.com/memsys/memsys/internal/base/diag"
)

func TestBaseline(t *testing.T) {
	at := func(line int, rule, evt, msg string) diag.Diagnostic {
		return diag.Diagnostic{Rule: rule, Severity: diag.Error, Range: diag.Range{File: "CHANGELOG.md", Line: line}, Event: evt, Message: msg}
	}
	old := diag.Diagnostics{
		at(40, "MS104", "evt-008", "evt-008 refers to itself (line 40)"),
		at(12, "MS111", "evt-002", `timestamp "2025-01-02" has no time of day`),
		at(30, "MS111", "evt-005", `timestamp "2025-01-05" has no time of day`),
		at(50, "MS301", "evt-009", "evt-009 was edited"),
	}
	b, err := ReadBaseline(BaselineFile, NewBaseline(old).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Findings) != 3 {
		t.Fatalf("baseline holds %d findings, want 3 (no MS3xx)", len(b.Findings))
	}
	// Ten lines were added above: the same findings, shifted; evt-005's
	// timestamp was fixed; a new finding appeared.
	now := diag.Diagnostics{
		at(50, "MS104", "evt-008", "evt-008 refers to itself (line 50)"),
		at(22, "MS111", "evt-002", `timestamp "2025-01-02" has no time of day`),
		at(90, "MS104", "evt-012", "evt-012 refers to itself (line 90)"),
	}
	kept, suppressed, stale := b.Apply(now)
	if suppressed != 2 || len(kept) != 1 || kept[0].Event != "evt-012" {
		t.Errorf("kept %v, suppressed %d", kept, suppressed)
	}
	if len(stale) != 1 || stale[0].Rule != "MS208" || stale[0].Event != "evt-005" {
		t.Errorf("stale %v", stale)
	}
	if _, err := ReadBaseline(BaselineFile, []byte(`{"version": 2}`)); err == nil {
		t.Error("version 2 read without error")
	}
}

func TestMarkBaseline(t *testing.T) {
	ds := diag.Diagnostics{
		{Rule: "MS104", Severity: diag.Error, Event: "evt-008"},
		{Rule: "MS104", Severity: diag.Error, Event: "evt-014"},
		{Rule: "MS301", Severity: diag.Error, Event: "evt-008"},
		{Rule: "MS204", Severity: diag.Error},
	}
	MarkBaseline(ds, func(e string) bool { return e == "evt-008" })
	got := []bool{ds[0].Baseline, ds[1].Baseline, ds[2].Baseline, ds[3].Baseline}
	if !got[0] || got[1] || got[2] || got[3] {
		t.Errorf("baseline marks %v", got)
	}
	if e, _ := ds.Count(); e != 3 || ds.Notes() != 1 {
		t.Errorf("count %d errors, %d notes", e, ds.Notes())
	}
}

// TestFingerprintArchived: memsys archive moves an event from the log
// to the archive; a finding accepted on it keeps its fingerprint. A
// finding on no event (the file itself) does not.
func TestFingerprintArchived(t *testing.T) {
	d := func(file, evt string) diag.Diagnostic {
		return diag.Diagnostic{Rule: "MS104", Range: diag.Range{File: file, Line: 9}, Event: evt, Message: "m"}
	}
	for _, archive := range []string{"changelog-archive.md", "CHANGELOG-archive.md"} {
		if Fingerprint(d(archive, "evt-002")) != Fingerprint(d("CHANGELOG.md", "evt-002")) {
			t.Errorf("%s: an archived event's finding has a new fingerprint", archive)
		}
		if Fingerprint(d("svc/"+archive, "evt-002")) == Fingerprint(d("CHANGELOG.md", "evt-002")) {
			t.Errorf("svc/%s: the folder was dropped", archive)
		}
		if Fingerprint(d(archive, "")) == Fingerprint(d("CHANGELOG.md", "")) {
			t.Errorf("%s: a finding on the file itself matched the log's", archive)
		}
	}
}

// TestFingerprintQuotedPosition: a duplicate ID's finding quotes where
// the other copy is, "line 61" in the same file and
// "changelog-archive.md:63" once memsys archive moved that copy; the
// baseline entry written before the move must still accept it, and an
// entry written with the older fingerprint too.
func TestFingerprintQuotedPosition(t *testing.T) {
	d := func(msg string) diag.Diagnostic {
		return diag.Diagnostic{Rule: "MS107", Severity: diag.Error, Range: diag.Range{File: "CHANGELOG.md", Line: 7}, Event: "evt-005", Message: msg}
	}
	inLog := d("evt-005 is already used at line 61: renumber this event to the next free ID")
	for _, msg := range []string{
		"evt-005 is already used at changelog-archive.md:63: renumber this event to the next free ID",
		"evt-005 is already used at CHANGELOG-archive.md:63: renumber this event to the next free ID",
		"evt-005 is already used at CHANGELOG.md:12: renumber this event to the next free ID",
	} {
		if Fingerprint(d(msg)) != Fingerprint(inLog) {
			t.Errorf("%q: a new fingerprint once the other copy moved", msg)
		}
		if kept, n, stale := NewBaseline(diag.Diagnostics{inLog}).Apply(diag.Diagnostics{d(msg)}); len(kept) != 0 || n != 1 || len(stale) != 0 {
			t.Errorf("%q: baseline of the finding before the move kept %d, accepted %d, stale %d", msg, len(kept), n, len(stale))
		}
		// A baseline written with the fingerprint before this change.
		old := Baseline{Version: 1, Findings: []BaselineEntry{{Rule: "MS107", File: "CHANGELOG.md", Event: "evt-005", Message: msg, Fingerprint: fingerprint(d(msg), false)}}}
		if kept, n, stale := old.Apply(diag.Diagnostics{d(msg)}); len(kept) != 0 || n != 1 || len(stale) != 0 {
			t.Errorf("%q: older baseline entry kept %d, accepted %d, stale %d", msg, len(kept), n, len(stale))
		}
	}
	other := d("evt-005 is already used at docs/notes.md:63: renumber this event to the next free ID")
	if Fingerprint(other) == Fingerprint(inLog) {
		t.Error("a position in a file that is no memory file counted as a line")
	}
}

// TestBaselineFilter: Filter drops what Apply drops (one finding per
// entry, never an append-only rule's) and judges no entry stale: the
// caller (regen's warnings) holds only some of lint's findings.
func TestBaselineFilter(t *testing.T) {
	at := func(line int, rule, evt, msg string) diag.Diagnostic {
		return diag.Diagnostic{Rule: rule, Severity: diag.Warning, Range: diag.Range{File: "CHANGELOG.md", Line: line}, Event: evt, Message: msg}
	}
	dateOnly := at(12, "MS111", "evt-002", `timestamp "2025-01-02" has no time of day`)
	b := NewBaseline(diag.Diagnostics{dateOnly, at(40, "MS104", "evt-008", "evt-008 refers to itself (line 40)")})
	now := diag.Diagnostics{
		at(22, "MS111", "evt-002", `timestamp "2025-01-02" has no time of day`), // shifted: accepted
		dateOnly, // the same finding twice: one entry hides one
		at(30, "MS111", "evt-005", `timestamp "2025-01-05" has no time of day`),
	}
	kept, suppressed := b.Filter(now)
	if suppressed != 1 || len(kept) != 2 || kept[0].Range.Line != 12 || kept[1].Event != "evt-005" {
		t.Errorf("Filter kept %v, suppressed %d; want the second evt-002 finding and evt-005's, 1 suppressed", kept, suppressed)
	}
	applied, n, _ := b.Apply(now)
	if n != suppressed || len(applied) != len(kept) {
		t.Errorf("Apply kept %d and suppressed %d, Filter %d and %d", len(applied), n, len(kept), suppressed)
	}
}

// TestFingerprintCounts: a counting rule's finding (Rule.Counts) keeps
// its fingerprint as the count grows, so an append does not turn the
// baselined "the log has 81 events" into a new finding and its entry
// stale; another rule's numbers still tell findings apart.
func TestFingerprintCounts(t *testing.T) {
	d := func(rule, evt, msg string) diag.Diagnostic {
		return diag.Diagnostic{Rule: rule, Range: diag.Range{File: "CHANGELOG.md", Line: 3}, Event: evt, Message: msg}
	}
	if Fingerprint(d("MS117", "", "CHANGELOG.md has 81 events, more than 50: run memsys archive")) != Fingerprint(d("MS117", "", "CHANGELOG.md has 82 events, more than 50: run memsys archive")) {
		t.Error("MS117: one more event gave a new fingerprint")
	}
	if Fingerprint(d("MS128", "evt-010", "evt-010 (commitment) has been open 40 days, over 30: close it")) != Fingerprint(d("MS128", "evt-010", "evt-010 (commitment) has been open 41 days, over 30: close it")) {
		t.Error("MS128: one more day gave a new fingerprint")
	}
	if Fingerprint(d("MS128", "evt-010", "evt-010 (commitment) has been open 40 days, over 30: close it")) == Fingerprint(d("MS128", "evt-011", "evt-011 (commitment) has been open 40 days, over 30: close it")) {
		t.Error("MS128: two loops share a fingerprint")
	}
	if Fingerprint(d("MS104", "evt-008", "evt-008 refers to evt-009")) == Fingerprint(d("MS104", "evt-008", "evt-008 refers to evt-007")) {
		t.Error("MS104: a rule that counts nothing lost its numbers")
	}
}

// TestFingerprintLegacyWording: MS132's corrected article keeps the
// fingerprint a baseline written with "a escalation" holds, and only
// that wording maps: another key still fingerprints apart.
func TestFingerprintLegacyWording(t *testing.T) {
	d := func(msg string) diag.Diagnostic {
		return diag.Diagnostic{Rule: "MS132", Range: diag.Range{File: "CHANGELOG.md", Line: 27}, Event: "evt-002", Message: msg}
	}
	const tail = ` event uses, so replay ignores it: use one of reason, requested_action, or "- note: ..."`
	old, now := d(`detail "urgency" is not a key a escalation`+tail), d(`detail "urgency" is not a key an escalation`+tail)
	if Fingerprint(old) != Fingerprint(now) {
		t.Error("MS132: the corrected article gave the finding a new fingerprint")
	}
	if Fingerprint(now) == Fingerprint(d(`detail "priority" is not a key an escalation`+tail)) {
		t.Error("MS132: two keys share a fingerprint")
	}
	b := NewBaseline(diag.Diagnostics{old})
	if kept, suppressed, _ := b.Apply(diag.Diagnostics{now}); len(kept) != 0 || suppressed != 1 {
		t.Errorf("a baseline of the old wording kept %d findings, suppressed %d; want 0, 1", len(kept), suppressed)
	}
}
