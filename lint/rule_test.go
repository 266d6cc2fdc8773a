package lint

import "testing"

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
