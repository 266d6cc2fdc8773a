package memory

import "testing"

func TestIgnoreLock(t *testing.T) {
	cases := []struct {
		in, want string
		added    bool
	}{
		{"", "# memsys's lock file (memsys init)\n/.memsys.lock\n", true},
		{"bin/", "bin/\n# memsys's lock file (memsys init)\n/.memsys.lock\n", true},
		{"bin/\r\n.memsys.lock\r\n", "bin/\r\n.memsys.lock\r\n", false},
		{"/.memsys.lock\n", "/.memsys.lock\n", false},
		{"bin/\r\n", "bin/\r\n# memsys's lock file (memsys init)\r\n/.memsys.lock\r\n", true},
	}
	for _, c := range cases {
		got, added := IgnoreLock([]byte(c.in))
		if string(got) != c.want || added != c.added {
			t.Errorf("IgnoreLock(%q) = %q, %v; want %q, %v", c.in, got, added, c.want, c.added)
		}
	}
}
