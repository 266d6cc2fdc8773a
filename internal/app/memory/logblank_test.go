package memory

import (
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/internal/base/front"
)

// TestLogFilterBlank: a filter given with nothing but blanks is refused
// in each front end's words (the flag on the command line, the
// parameter over MCP), before the history is read; given says which
// filters were given empty, and without it Log, LogLines and LogCounted
// still refuse a blank one rather than match nothing.
func TestLogFilterBlank(t *testing.T) {
	root := filepath.Join("..", "..", "..", "examples", "multi-agent")
	all := func(front.Input) bool { return true }
	for _, c := range []struct {
		f        LogFilter
		given    func(front.Input) bool
		cli, mcp string // "" for no error
	}{
		{LogFilter{}, nil, "", ""},
		{LogFilter{}, all, `entity "" is empty: name a node of the graph`, `entity "" is empty: name a node of the graph`},
		{LogFilter{Entity: "stripe", Types: []string{"fix"}, Agent: "a", Since: "2026-01-01", Until: "2026-12-31", RefsTo: "evt-1", At: "evt-9"}, all, "", ""},
		{LogFilter{Agent: " "}, nil, "--agent is empty (an unset variable?): give it a value, or leave the flag out", "agent is empty: give it a value, or leave the parameter out"},
		{LogFilter{Types: []string{"", " "}}, nil, "--type is empty (an unset variable?): give it a value, or leave the flag out", "type is empty: give it a value, or leave the parameter out"},
		{LogFilter{Types: []string{"fix", ""}}, nil, "", ""},
		{LogFilter{Entity: "_"}, nil, `entity "_" is empty: name a node of the graph`, `entity "_" is empty: name a node of the graph`},
		{LogFilter{RefsTo: "\t"}, nil, "--refs-to is empty (an unset variable?): give it a value, or leave the flag out", "refs_to is empty: give it a value, or leave the parameter out"},
		{LogFilter{Entity: "stripe"}, func(in front.Input) bool { return in.Param == "at" }, "--at is empty (an unset variable?): give it a value, or leave the flag out", "at is empty: give it a value, or leave the parameter out"},
	} {
		err := c.f.Check(c.given)
		var cli, mcp string
		if err != nil {
			cli, mcp = err.Error(), front.Message(err, front.MCP)
		}
		if cli != c.cli || mcp != c.mcp {
			t.Errorf("%+v: got\n%q\n%q\nwant\n%q\n%q", c.f, cli, mcp, c.cli, c.mcp)
		}
		if c.given != nil || c.cli == "" {
			continue
		}
		c.f.Limit = 5 // LogLines and LogCounted would answer from the end of the log
		if _, _, err := Log(root, c.f); err == nil || err.Error() != c.cli {
			t.Errorf("Log %+v: %v, want %q", c.f, err, c.cli)
		}
		if _, err := LogLines(root, c.f); err == nil || err.Error() != c.cli {
			t.Errorf("LogLines %+v: %v, want %q", c.f, err, c.cli)
		}
		if _, _, err := LogCounted(root, c.f); err == nil || err.Error() != c.cli {
			t.Errorf("LogCounted %+v: %v, want %q", c.f, err, c.cli)
		}
	}
}
