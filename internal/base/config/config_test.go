package config

import (
	"testing"
)

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"{\n  \"rulez\": {}\n}", `c.json:2: unknown key "rulez" in the configuration: use one of "tier", "rules", "archive", "context" (see docs/lint.md)`},
		{"{\"archive\": {\n\"threshold\": 50,\n  \"kept\": 3}}", `c.json:3: unknown key "kept" in "archive": use one of "threshold", "keep" (see docs/lint.md)`},
		{"{\"context\": {\"words\": \"many\"}}", `c.json:1: context.words must be a whole number`},
		{"{\"context\": {\"windowHours\": -1}}", `c.json:1: context.windowHours must be a whole number of at least 0, not -1`},
		{"{\"context\": {\"words\": 1.5}}", `c.json:1: context.words must be a whole number of at least 1, not 1.5`},
		{"{\n\"rules\": {\"MS101\": \"fatal\"}}", `c.json:2: rule "MS101": unknown severity "fatal": use error, warning or off`},
		{"{\"rules\": {\"MS101\": 1}}", `c.json:1: rule "MS101" must be set to "error", "warning" or "off"`},
		{"{\"rules\": []}", `c.json:1: "rules" must be an object: write {...}`},
		{"[]", `c.json:1: the configuration must be an object: write {...}`},
		{"{\"tier\": \"huge\"}", `c.json:1: "tier" must be one of "mvp", "core" or "full"`},
		{"{\"archive\": {\"threshold\": 10, \"keep\": 10}}", `c.json:1: archive.keep (10) must be less than archive.threshold (10): lower keep or raise threshold`},
		{"{\"tier\": \"mvp\", \"tier\": \"core\"}", `c.json:1: key "tier" appears twice: keep one`},
		{"{\n\n\"tier\": \"mvp\",,}", `c.json:3: invalid character ',' looking for beginning of object key string: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{\"tier\": \"mvp\"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"{} {}", `c.json:1: unexpected data after the top-level object: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"", `c.json:1: unexpected end of file: write valid JSON such as {"rules": {"MS117": "off"}}`},
	}
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
