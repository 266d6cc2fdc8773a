package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestNumberOutOfRange: a number no Go int (or float64) holds is a tool
// error in memsys's words, naming the parameter and what to do. The SDK
// said `json: cannot unmarshal number 100000000000000000000} overflows
// into Go struct field mcpserver.LogIn.limit of type int`: Go's type
// names, a stray brace, and no advice.
func TestNumberOutOfRange(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	for _, tc := range []struct{ tool, args, want string }{
		{"memsys_log", `{"limit": 100000000000000000000}`, `memsys: limit 100000000000000000000 is out of range: `},
		{"memsys_log", `{"limit": -1e19}`, `memsys: limit -1e19 is out of range: `},
		{"memsys_recall", `{"entities": ["stripe"], "budget": 99999999999999999999}`, `memsys: budget 99999999999999999999 is out of range: `},
		{"memsys_recall", `{"entities": ["stripe"], "depth": 1e400}`, `memsys: depth 1e400 is out of range: `},
		{"memsys_append", `{"type": "fix", "scope": "x", "summary": "y", "details": {"n": 1e999}}`, `memsys: details.n 1e999 is out of range: `},
	} {
		res := call(t, cs, tc.tool, json.RawMessage(tc.args))
		msg := text(res)
		if !res.IsError || !strings.HasPrefix(msg, tc.want) || strings.Contains(msg, "Go ") || strings.Contains(msg, "\n") {
			t.Errorf("%s %s: %q, want one line starting %q", tc.tool, tc.args, msg, tc.want)
		}
	}
	// In range, the same parameters still work.
	if res := call(t, cs, "memsys_log", json.RawMessage(`{"limit": 1e3}`)); res.IsError {
		t.Errorf("limit 1e3: %s", text(res))
	}
	if res := call(t, cs, "memsys_recall", json.RawMessage(`{"entities": ["stripe"], "budget": 999999999999999999}`)); res.IsError {
		t.Errorf("budget of 18 digits: %s", text(res))
	}
}

// TestArgumentsNotObject: "arguments" that are not an object get an
// error in memsys's words; the SDK said `validating "arguments":
// unmarshaling arguments: json: cannot unmarshal "\"x\"" into Go value
// of type map[string]interface {}`. Left out or null, they are {}.
func TestArgumentsNotObject(t *testing.T) {
	cs := connect(t, copyExample(t))
	for _, tc := range []struct{ args, want string }{
		{`"x"`, `memsys: "arguments" is a JSON string, not an object: send the tool's parameters as an object, e.g. {}`},
		{`[1]`, `memsys: "arguments" is a JSON list, not an object: `},
		{`7`, `memsys: "arguments" is a JSON number, not an object: `},
		{`true`, `memsys: "arguments" is a JSON boolean, not an object: `},
	} {
		res := call(t, cs, "memsys_status", json.RawMessage(tc.args))
		if msg := text(res); !res.IsError || !strings.HasPrefix(msg, tc.want) {
			t.Errorf("arguments %s: %q, want it to start %q", tc.args, msg, tc.want)
		}
	}
	if res := call(t, cs, "memsys_status", json.RawMessage(`null`)); res.IsError {
		t.Errorf("arguments null: %s", text(res))
	}
}
