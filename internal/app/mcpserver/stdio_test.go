package mcpserver

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestStdioAnswersBeforeClosing: requests written before the input ends
// are all answered, in a session whose last call is still running when
// stdin closes.
func TestStdioAnswersBeforeClosing(t *testing.T) {
	root := copyExample(t)
	in := io.NopCloser(strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsys_lint","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memsys_recall","arguments":{"entities":["stripe"]}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memsys_context","arguments":{}}}`,
	}, "\n") + "\n"))
	var out bytes.Buffer
	if err := Serve(context.Background(), Config{Root: root, Agent: "t"}, Stdio(in, &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatal(err)
	}
	for _, id := range []string{`"id":1,`, `"id":2,`, `"id":3,`, `"id":4,`} {
		if !strings.Contains(out.String(), id) {
			t.Errorf("no answer with %s in:\n%s", id, out.String())
		}
	}
}
