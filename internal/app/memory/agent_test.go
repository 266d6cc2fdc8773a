package memory

import "testing"

// TestCheckDefaultAgent: the name DefaultAgent would pick is checked,
// and the error names where it came from; a good --agent hides a bad
// $MEMSYS_AGENT, as DefaultAgent ignores it then.
func TestCheckDefaultAgent(t *testing.T) {
	for _, tc := range []struct{ flag, env, user, want string }{
		{"a|b", "", "", `--agent "a|b" contains '|' or a line break: use a plain name`},
		{"", "x\ny", "", `$MEMSYS_AGENT "x\ny" contains '|' or a line break: use a plain name`},
		{"", "", "u|v", `$USER "u|v" contains '|' or a line break: use a plain name`},
		{"good", "x|y", "", ""},
		{"  ", "ok", "u|v", ""},
		{"", "", "", ""},
	} {
		t.Setenv("MEMSYS_AGENT", tc.env)
		t.Setenv("USER", tc.user)
		got := ""
		if err := CheckDefaultAgent(tc.flag); err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckDefaultAgent(%q) with MEMSYS_AGENT=%q USER=%q: %q, want %q", tc.flag, tc.env, tc.user, got, tc.want)
		}
	}
}
