package lint

import (
	"testing"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
)

func TestRuleIDAndNameChecks(t *testing.T) {
	ids := []struct {
		id string
		ok bool
	}{
		{"MS101", true}, {"MS999", true}, {"MS011", false}, {"MS1010", false},
		{"MS10", false}, {"ms101", false}, {"MS1a1", false}, {"", false},
	}
	for _, c := range ids {
		if got := isRuleID(c.id); got != c.ok {
			t.Errorf("isRuleID(%q) = %v, want %v", c.id, got, c.ok)
		}
	}
	names := []struct {
		name string
		ok   bool
	}{
		{"missing-log", true}, {"a", true}, {"ref2-missing", true}, {"x-1", true},
		{"", false}, {"Missing-log", false}, {"1abc", false}, {"a--b", false},
		{"a-", false}, {"-a", false}, {"a_b", false}, {"a b", false},
	}
	for _, c := range names {
		if got := isKebab(c.name); got != c.ok {
			t.Errorf("isKebab(%q) = %v, want %v", c.name, got, c.ok)
		}
	}
}

// TestNewRuleSetTwice: one rule set twice in .memsys.json, as its ID and
// its name or in two cases, is refused at the second line (the later
// used to win silently, whichever the team meant); --rule still
// overrides the file.
func TestNewRuleSetTwice(t *testing.T) {
	cases := []struct {
		src  string
		want string
	}{
		{"{\"rules\": {\n\"MS112\": \"off\",\n\"detail-keys\": \"error\"}}", `c.json:3: rule "detail-keys" is MS112, which line 2 sets already as "MS112", to off: keep one`},
		{"{\"rules\": {\"MS112\": \"off\", \"ms112\": \"warning\"}}", `c.json:1: rule "ms112" is MS112, which line 1 sets already as "MS112", to off: keep one`},
		// Two settings that agree are what the team meant either way.
		{"{\"rules\": {\"MS112\": \"off\", \"ms112\": \"off\", \"detail-keys\": \"none\"}}", ""},
		{"{\"rules\": {\"MS112\": \"off\", \"MS113\": \"error\"}}", ""},
	}
	for _, tc := range cases {
		cfg, err := config.Parse("c.json", []byte(tc.src))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		_, err = New(cfg)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q:\ngot  %s\nwant %s", tc.src, got, tc.want)
		}
	}
	cfg, _ := config.Parse("c.json", []byte(`{"rules": {"MS112": "off"}}`))
	l, err := New(cfg, config.RuleSetting{Rule: "detail-keys", Severity: diag.Error})
	if err != nil || l.Severity("MS112") != diag.Error {
		t.Fatalf("--rule over the file: %v, severity %v; want error", err, l.Severity("MS112"))
	}
}
