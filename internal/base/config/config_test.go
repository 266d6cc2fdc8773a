package config

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{\n  \"rulez\": {}\n}", `c.json:2: unknown key "rulez" in the configuration: use one of "tier", "rules", "archive", "context", "loops" (see docs/lint.md)`},
		{"{\"archive\": {\n\"threshold\": 50,\n  \"kept\": 3}}", `c.json:3: unknown key "kept" in "archive": use one of "threshold", "keep" (see docs/lint.md)`},
		{"{\"context\": {\"words\": \"many\"}}", `c.json:1: context.words must be a whole number`},
		{"{\"context\": {\"windowHours\": -1}}", `c.json:1: context.windowHours must be a whole number of at least 1, not -1`},
		// 0 read as the renderer's default window (48 hours, 20 events).
		{"{\"context\": {\"windowHours\": 0}}", `c.json:1: context.windowHours must be a whole number of at least 1, not 0`},
		{"{\"context\": {\"windowEvents\": 0}}", `c.json:1: context.windowEvents must be a whole number of at least 1, not 0`},
		{"{\"archive\": {\"threshold\": 1073741825}}", `c.json:1: archive.threshold must be a whole number of at most 1073741824, not 1073741825`},
		{"{\"archive\": {\"threshold\": 99999999999999999999999}}", `c.json:1: archive.threshold must be a whole number of at most 1073741824, not 99999999999999999999999`},
		{"{\"archive\": {\"threshold\": -99999999999999999999999}}", `c.json:1: archive.threshold must be a whole number of at least 2, not -99999999999999999999999`},
		{"{\"archive\": {\"threshold\": 1e3}}", `c.json:1: archive.threshold must be a whole number of at least 2, not 1e3`},
		// Duplicate keys in a section, as at the top level: encoding/json
		// kept the last silently.
		{"{\"archive\": {\"threshold\": 5,\n \"threshold\": 60}}", `c.json:2: key "threshold" appears twice in "archive": keep one`},
		{"{\"context\": {\"words\": 5, \"words\": 60}}", `c.json:1: key "words" appears twice in "context": keep one`},
		{"{\"context\": {\"words\": 1.5}}", `c.json:1: context.words must be a whole number of at least 1, not 1.5`},
		{"{\"context\": {\"decayP3Days\": 0}}", `c.json:1: context.decayP3Days must be a whole number of at least 1, not 0`},
		{"{\"loops\": {\"maxAge\": 3}}", `c.json:1: unknown key "maxAge" in "loops": use one of "maxAgeDays" (see docs/lint.md)`},
		{"{\n\"rules\": {\"MS101\": \"fatal\"}}", `c.json:2: rule "MS101": unknown severity "fatal": use error, warning or off`},
		{"{\"rules\": {\"MS101\": 1}}", `c.json:1: rule "MS101" must be set to "error", "warning" or "off"`},
		{"{\"rules\": []}", `c.json:1: "rules" must be an object: write {...}`},
		{"[]", `c.json:1: the configuration must be an object: write {...}`},
		{"{\"tier\": \"huge\"}", `c.json:1: "tier" must be one of "mvp", "core" or "full" (lower case), not "huge"`},
		{"{\"tier\": \"FULL\"}", `c.json:1: "tier" must be one of "mvp", "core" or "full" (lower case), not "FULL"`},
		{"{\"tier\": 3}", `c.json:1: "tier" must be one of "mvp", "core" or "full" (lower case), not a string`},
		{"{\"archive\": {\"threshold\": 10, \"keep\": 10}}", `c.json:1: archive.keep (10) must be less than archive.threshold (10): lower archive.keep or raise archive.threshold`},
		{"{\"tier\": \"mvp\", \"tier\": \"core\"}", `c.json:1: key "tier" appears twice: keep one`},
		{"{\n\n\"tier\": \"mvp\",,}", `c.json:3: invalid character ',' looking for beginning of object key string: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{\"tier\": \"mvp\"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{} {}", `c.json:1: unexpected data after the top-level object: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"\xff\xfe{\x00}\x00", `c.json:1: the file is UTF-16 (byte-order mark 0xff 0xfe), which memsys does not read: re-save it as UTF-8`},
		{"\xfe\xff\x00{\x00}", `c.json:1: the file is UTF-16 (byte-order mark 0xfe 0xff), which memsys does not read: re-save it as UTF-8`},
	}
	cases = append(cases, struct{ src, want string }{
		`{"rules":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}",
		`c.json:1: objects or arrays nested over 32 deep, deeper than any key takes: write valid JSON such as {"rules": {"MS117": "off"}}`,
	})
	for _, tc := range cases {
		_, err := Parse("c.json", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tc.src, err, tc.want)
		}
	}
}

// TestParseBOM: an editor that saves UTF-8 with a byte order mark
// (Notepad, some VS Code settings) writes a .memsys.json memsys reads
// like any other, as it reads such a CHANGELOG.md; line numbers of
// errors are unchanged.
func TestParseBOM(t *testing.T) {
	c, err := Parse("c.json", []byte("\ufeff{\"tier\": \"core\"}\r\n"))
	if err != nil || c.Tier != "core" {
		t.Fatalf("got %+v, %v; want tier core, no error", c, err)
	}
	_, err = Parse("c.json", []byte("\ufeff{\n\"tier\": \"huge\"}"))
	if want := `c.json:2: "tier" must be one of "mvp", "core" or "full" (lower case), not "huge"`; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %s", err, want)
	}
}

// TestCheckCount: a flag standing for an archive count is judged as the
// file's key is, in the same words: each value the file refuses is
// refused under the flag's name, and each it takes is taken.
func TestCheckCount(t *testing.T) {
	for _, tc := range []struct {
		key, flag string
		min       int64
		n         int64
	}{
		{"threshold", "--threshold", MinArchiveThreshold, 0},
		{"threshold", "--threshold", MinArchiveThreshold, 1},
		{"threshold", "--threshold", MinArchiveThreshold, -1},
		{"threshold", "--threshold", MinArchiveThreshold, 2},
		{"threshold", "--threshold", MinArchiveThreshold, 1 << 30},
		{"threshold", "--threshold", MinArchiveThreshold, 1<<30 + 1},
		{"keep", "--keep", MinArchiveKeep, 0},
		{"keep", "--keep", MinArchiveKeep, 1},
	} {
		// The other count is set so that keep < threshold holds (the
		// file's rule between the two, which the flags do not share),
		// and only n is judged.
		src := fmt.Sprintf(`{"archive": {"threshold": %d, "keep": 1}}`, tc.n)
		if tc.key == "keep" {
			src = fmt.Sprintf(`{"archive": {"threshold": 1073741824, "keep": %d}}`, tc.n)
		}
		_, ferr := Parse("c.json", []byte(src))
		cerr := CheckCount(tc.flag, tc.n, tc.min)
		if (ferr == nil) != (cerr == nil) {
			t.Errorf("%s %d: file error %v, flag error %v: want both or neither", tc.key, tc.n, ferr, cerr)
			continue
		}
		if ferr != nil {
			want := strings.Replace(ferr.Error(), "c.json:1: archive."+tc.key, tc.flag, 1)
			if cerr.Error() != want {
				t.Errorf("%s %d: flag error %q, want the file's words %q", tc.key, tc.n, cerr, want)
			}
		}
	}
}

// TestCheckKeep: keep must be below the threshold, in the file and on
// the command line alike, each named as the user set it.
func TestCheckKeep(t *testing.T) {
	for _, tc := range []struct {
		keepName      string
		keep          int64
		thresholdName string
		threshold     int64
		want          string
	}{
		{"--keep", 19, "--threshold", 20, ""},
		{"--keep", 20, "--threshold", 20, "--keep (20) must be less than --threshold (20): lower --keep or raise --threshold"},
		{"--keep", 30, "archive.threshold", 25, "--keep (30) must be less than archive.threshold (25): lower --keep or raise archive.threshold"},
		{"archive.keep", 20, "--threshold", 5, "archive.keep (20) must be less than --threshold (5): lower archive.keep or raise --threshold"},
		{"archive.keep", 1, "archive.threshold", 2, ""},
	} {
		err := CheckKeep(tc.keepName, tc.keep, tc.thresholdName, tc.threshold)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckKeep(%s %d, %s %d):\ngot  %q\nwant %q", tc.keepName, tc.keep, tc.thresholdName, tc.threshold, got, tc.want)
		}
	}
}
