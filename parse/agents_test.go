package parse

import (
	"strings"
	"testing"
)

var agentsCases = []struct {
	src             string
	heading, marker bool
	between         string // src[Begin:End], "-" when Begin is -1
}{
	{"## Memory System Protocol\n", true, false, "-"},
	{"# x\n\n### memory system protocol ##\n", true, false, "-"},
	{"```\n## Memory System Protocol\n```\n", false, false, "-"},
	{"Memory System Protocol\n", false, false, "-"},
	{"    ## Memory System Protocol\n", false, false, "-"},
	{"##Memory System Protocol\n", false, false, "-"},
	{"~~~~\n~~~\n## Memory System Protocol\n~~~~\n## Memory System Protocol\n", true, false, "-"},
	{"# A\n<!-- memsys:protocol:begin -->\nrules\n<!-- memsys:protocol:end -->\nafter\n", false, true, "rules\n"},
	{"<!-- memsys:protocol:begin -->\r\n## Memory System Protocol\r\n<!-- memsys:protocol:end -->\r\n", true, true, "## Memory System Protocol\r\n"},
	{"<!-- memsys:protocol:begin -->\n<!-- memsys:protocol:end -->\n", false, true, ""},
	{"<!-- memsys:protocol:begin -->\nrules, no end\n", false, true, "-"},
	{"<!-- memsys:protocol:begin -->", false, true, "-"},
	{"<!-- memsys:protocol:end -->\n<!-- memsys:protocol:begin -->\nx\n", false, true, "-"},
	{"<!-- memsys:protocol:begin -->\nx <!-- memsys:protocol:end -->\n", false, true, ""},
}

func TestFindAgentsProtocol(t *testing.T) {
	for _, tc := range agentsCases {
		p := FindAgentsProtocol([]byte(tc.src))
		between := "-"
		if p.Begin >= 0 {
			between = tc.src[p.Begin:p.End]
		}
		if p.Heading != tc.heading || p.Marker != tc.marker || between != tc.between {
			t.Errorf("FindAgentsProtocol(%q) = %+v (between %q), want heading %v, marker %v, between %q", tc.src, p, between, tc.heading, tc.marker, tc.between)
		}
	}
}

// TestProtocolNamesMemsys: the section runs from its heading to the
// next heading of its level or above, subsections included.
func TestProtocolNamesMemsys(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"## Memory System Protocol\nBoot: `memsys status`.\n", true},
		{"## Memory System Protocol\r\nRun MemSys lint.\r\n", true},
		{"## Memory System Protocol\nAppend by hand.\n\n## Tools\nmemsys lints the log.\n", false},
		{"## Memory System Protocol\nAppend by hand.\n### Checks\nmemsys lint\n## Tools\n", true},
		{"# The memsys project\n\n## Memory System Protocol\nAppend by hand.\n", false},
		{"Memory System Protocol\n======\nby hand\n\nTools\n-----\nmemsys\n", true},
		{"Memory System Protocol\n----\nby hand\n\nTools\n-----\nmemsys\n", false},
		{"## Memory System Protocol\n```\n## not a heading\n```\nmemsys\n", true},
		{"No section, but memsys.\n", false},
	} {
		if got := FindAgentsProtocol([]byte(tc.src)).NamesMemsys; got != tc.want {
			t.Errorf("FindAgentsProtocol(%q).NamesMemsys = %v, want %v", tc.src, got, tc.want)
		}
	}
}

func FuzzFindAgentsProtocol(f *testing.F) {
	for _, tc := range agentsCases {
		f.Add(tc.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := FindAgentsProtocol([]byte(src))
		if (p.Begin < 0) != (p.End < 0) || p.Begin > p.End || p.End > len(src) {
			t.Fatalf("%q: %+v", src, p)
		}
		if p.NamesMemsys && (!p.Heading || !strings.Contains(strings.ToLower(src), "memsys")) {
			t.Fatalf("%q: %+v: names memsys without a section that does", src, p)
		}
		if p.Begin >= 0 && (!p.Marker || !strings.Contains(src[p.End:], ProtocolEnd)) {
			t.Fatalf("%q: %+v: no end marker after End", src, p)
		}
	})
}
