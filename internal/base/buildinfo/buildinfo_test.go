package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestDescribe(t *testing.T) {
	cases := []struct {
		main     string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.0", nil, "v1.2.0"},
		{"v0.0.0-20261123085000-abcdef123456", []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef1234567890"}}, "v0.0.0-20261123085000-abcdef123456"},
		{"(devel)", []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef1234567890"}, {Key: "vcs.modified", Value: "true"}}, "(devel) abcdef123456+dirty"},
		{"", nil, "(devel)"},
	}
	for _, c := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Version: c.main}, Settings: c.settings}
		if got := describe(bi); got != c.want {
			t.Errorf("describe(%q) = %q, want %q", c.main, got, c.want)
		}
	}
}
