package ledger

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// encodeRecord is what export wrote before it appended its lines by
// hand: encoding/json's line for ToRecord(e). TestRecordJSON and
// FuzzRecordJSON hold appendRecord to it byte for byte.
func encodeRecord(t testing.TB, e *parse.Event) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	r := ToRecord(e)
	if err := enc.Encode(&r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// recordLogs are logs whose every event appendRecord must write as
// encoding/json does: the generated history, and events with what JSON
// escapes (quotes, backslashes, controls, invalid UTF-8, U+2028/9, HTML
// characters it must not escape), nested details, extra fields, no
// refs or tags.
var recordLogs = []string{
	string(loggen.Generate(300, 1)),
	"# Changelog\n\n## Event Log\n\n" +
		"### evt-001 | 2024-01-02 03:04 | a\"gent\\ | create\n\n" +
		"**Scope**: <b>&amp;</b>, `x`\n**Summary**: tab\there \x01\x1f\x7f \xff\xfe caf\u00e9 \u2028\u2029 \u2027 \U0001F600\n" +
		"**Owner**: \"me\"\n**Extra Key**: value\n\n" +
		"**Details**:\n- entity: a\n  - child: b \"q\"\n    - grandchild: c\n- bare bullet\n\n" +
		"**Refs**: none\n**Tags**: none\n\n---\n\n" +
		"### evt-002 | 2024-01-02 03:05 | agent | decision\n\n**Summary**: only a summary\n",
}

// TestRecordJSON: appendRecord writes every event of recordLogs as
// encoding/json wrote its Record.
func TestRecordJSON(t *testing.T) {
	for _, src := range recordLogs {
		log := parse.Parse(parse.LogFile, []byte(src))
		if len(log.Events) == 0 {
			t.Fatal("no events in a test log")
		}
		for i := range log.Events {
			e := &log.Events[i]
			if got, want := appendRecord(nil, e), encodeRecord(t, e); !bytes.Equal(got, want) {
				t.Errorf("%s:\n got %s\nwant %s", e.ID, got, want)
			}
		}
	}
}

// TestIsCarried: isCarried agrees with parse.SameKey against each of
// carried, for the ways a key is written.
func TestIsCarried(t *testing.T) {
	for _, k := range []string{"Scope", " SUMMARY ", "Details", "refs", "Tags", "Tag", "Ref", "References", "Owner",
		"sum-mary", "Sco pe", "scope\t", "Scöpe", "ＳＣＯＰＥ", "", "Supersedes", "Summary of it", "tag s", "Scope\u00a0"} {
		want := slices.ContainsFunc(carried, func(c string) bool { return parse.SameKey(k, c) })
		if got := isCarried(k); got != want {
			t.Errorf("isCarried(%q) = %v, want %v", k, got, want)
		}
	}
}

// FuzzRecordJSON: for any log, appendRecord writes each event as
// encoding/json writes its Record, and appendString any string as
// encoding/json quotes it.
func FuzzRecordJSON(f *testing.F) {
	for _, src := range recordLogs[1:] {
		f.Add([]byte(src))
	}
	f.Add([]byte(" Sum-Mary\t"))
	f.Add([]byte("### evt-001 | 2024-01-01 00:00 | a | b\n\n**Summary**: \"\\\x00\u2028\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(string(src)); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if got := appendString(nil, string(src)); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", src, got, want)
		}
		if got, want := isCarried(string(src)), slices.ContainsFunc(carried, func(c string) bool { return parse.SameKey(string(src), c) }); got != want {
			t.Fatalf("isCarried(%q) = %v, want %v", src, got, want)
		}
		log := parse.Parse(parse.LogFile, src)
		for i := range log.Events {
			e := &log.Events[i]
			if got, want := appendRecord(nil, e), encodeRecord(t, e); !bytes.Equal(got, want) {
				t.Fatalf("%s:\n got %s\nwant %s", e.ID, got, want)
			}
		}
	})
}
