package mcpserver

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
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

// TestStdioBadLineKeepsServing: a line that is not a JSON-RPC 2.0
// message gets a JSON-RPC error and the session goes on; the SDK alone
// ended the server at the first such line (exit 2), dropping the calls
// before and after it.
func TestStdioBadLineKeepsServing(t *testing.T) {
	for _, tc := range []struct{ name, line, want string }{
		{"not JSON", `this is not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`},
		{"torn object", `{"jsonrpc":"2.0","id":9,"method":"tools/`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,`},
		{"number", `42`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
		{"empty object", `{}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
		{"empty batch", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,`},
		{"wrong version", `{"jsonrpc":"1.0","id":7,"method":"ping"}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,`},
		// An id that is no string, number or null: the SDK ended the
		// session ("parse error: invalid ID type map[string]interface {}").
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be a string, a number or null"}}`},
		{"list id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be`},
		{"boolean id in a batch", `[{"jsonrpc":"2.0","id":true,"method":"ping"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: \"id\" must be`},
		// A batch in a 2025-06-18 session: the SDK ended the session at
		// it (exit 2, "JSON-RPC batching is not supported").
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"six","method":"tools/list"}]`, `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"invalid request: MCP 2025-06-18 and later have no JSON-RPC batches: send one message per line"}}
{"jsonrpc":"2.0","id":"six","error":{"code":-32600,`},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"notifications/x"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: MCP 2025-06-18 and later have no JSON-RPC batches`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyExample(t)
			in := io.NopCloser(strings.NewReader(strings.Join([]string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsys_status","arguments":{}}}`,
				tc.line,
				`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memsys_lint","arguments":{}}}`,
			}, "\n") + "\n"))
			var out bytes.Buffer
			if err := Serve(context.Background(), Config{Root: root, Agent: "t"}, Stdio(in, &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
				t.Fatalf("the session ended with %v; output:\n%s", err, out.String())
			}
			for _, want := range []string{`"id":1,`, `"id":2,`, `"id":3,`, tc.want} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("no %s in:\n%s", want, out.String())
				}
			}
		})
	}
}

// TestStdioBatchOlderProtocol: MCP 2025-03-26 has JSON-RPC batches, and
// a session that negotiated it gets its batch served, not refused.
func TestStdioBatchOlderProtocol(t *testing.T) {
	root := copyExample(t)
	in := io.NopCloser(strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memsys_status","arguments":{}}}]`,
	}, "\n") + "\n"))
	var out bytes.Buffer
	if err := Serve(context.Background(), Config{Root: root, Agent: "t"}, Stdio(in, &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("the session ended with %v; output:\n%s", err, out.String())
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result"`, `"id":3,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
}

// TestStdioLongLineKeepsServing: a message longer than the limit gets an
// error (with its id when the id comes before params) and the session
// goes on; the SDK alone ended the server at one (exit 2, "inbound
// JSON-RPC frame exceeded the configured maximum line length").
func TestStdioLongLineKeepsServing(t *testing.T) {
	root := copyExample(t)
	big := strings.Repeat("x", 5000)
	in := io.NopCloser(strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsys_recall","arguments":{"entities":["` + big + `"]}}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"memsys_recall","arguments":{"entities":["` + big + `"]}},"id":"late"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memsys_lint","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memsys_recall","arguments":{"entities":["` + big,
	}, "\n")))
	var out bytes.Buffer
	if err := Serve(context.Background(), Config{Root: root, Agent: "t"}, stdio(in, &out, 1024)); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("the session ended with %v; output:\n%s", err, out.String())
	}
	for _, want := range []string{
		`"id":1,"result"`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: the message is longer than 1024 bytes: send it in smaller calls"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the message is longer than 1024 bytes`,
		`"id":3,"result"`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32600,`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), big) {
		t.Errorf("a skipped message reached a tool:\n%s", out.String())
	}
}

func TestLeadingID(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"b`, `7`},
		{`{"id":"a-1","jsonrpc":"2.0"`, `"a-1"`},
		{`{"jsonrpc":"2.0","method":"x","params":{"a":"b`, ``},
		{`{"jsonrpc":"2.0","id":null`, ``},
		{`{"jsonrpc":"2.0","id":{"x":1}`, ``},
		{`[{"id":1}`, ``},
		{`not json`, ``},
	} {
		if got := string(leadingID([]byte(tc.line))); got != tc.want {
			t.Errorf("leadingID(%s) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestStdioBOM: a byte order mark before the first message (Windows
// tools write one) is not part of it: the initialize is answered.
func TestStdioBOM(t *testing.T) {
	root := copyExample(t)
	in := io.NopCloser(strings.NewReader("\ufeff" + strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsys_status","arguments":{}}}`,
	}, "\r\n") + "\r\n"))
	var out bytes.Buffer
	if err := Serve(context.Background(), Config{Root: root, Agent: "t"}, Stdio(in, &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("the session ended with %v; output:\n%s", err, out.String())
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), `"error"`) {
		t.Errorf("an error in:\n%s", out.String())
	}
}

// TestStdioNotUTF8: a message whose bytes are not UTF-8 (JSON text is
// UTF-8) is refused, not decoded with U+FFFD in place of the bad bytes:
// memsys_append wrote "bad \ufffd x" into the log for a summary the CLI's
// --summary refuses. A tool call gets a tool error saying what to do,
// another request a JSON-RPC error; the session goes on.
func TestStdioNotUTF8(t *testing.T) {
	root := copyExample(t)
	before, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := serveLines(t, root,
		"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"memsys_append\",\"arguments\":{\"type\":\"fix\",\"scope\":\"s\",\"summary\":\"bad \xff x\"}}}",
		"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"memsys://event/evt-0\xc0\xaf\"}}",
		"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"a\":\"\xfe\"}}",
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"memsys_append","arguments":{"type":"fix","scope":"s","summary":"cut \ud83d"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memsys_status","arguments":{}}}`,
	)
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"memsys: the message is not valid UTF-8 (byte 0xff at offset 132): send UTF-8 text (convert it from its encoding, e.g. Latin-1)"}],"isError":true}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"parse error: the message is not valid UTF-8 (byte 0xc0 at offset 87): send UTF-8 text (convert it from its encoding, e.g. Latin-1)"}}`,
		`"id":4,"result"`,
		`{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"memsys: the message holds \\ud83d at offset 132, half of a UTF-16 surrogate pair (a string cut inside a character?): send whole characters"}],"isError":true}}`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "\n"); n != 5 {
		t.Errorf("%d replies, want 5 (none to the notification):\n%s", n, out.String())
	}
	after, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the refused append was written")
	}
}

// TestStdioTooDeep: a message nested deeper than the SDK decodes (1000
// levels: details nested a few hundred bullets deep) gets an error, a
// tool error for a tool call, and the session goes on. The SDK alone
// ended the session at it ("unmarshaling jsonrpc message: json:
// exceeded maximum nesting depth of 1000", exit 2), dropping every call.
func TestStdioTooDeep(t *testing.T) {
	root := copyExample(t)
	deep := `{"key":"leaf","value":"v"}`
	for range 600 {
		deep = `{"key":"k","value":"v","children":[` + deep + `]}`
	}
	out := serveLines(t, root,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memsys_append","arguments":{"type":"fix","scope":"s","summary":"x","details":[`+deep+`]}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":`+strings.Repeat("[", 1001)+strings.Repeat("]", 1001)+`}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memsys_status","arguments":{}}}`,
	)
	for _, want := range []string{
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"memsys: the message nests objects and lists more than 1000 levels deep: send flatter arguments (details nest a few levels)"}],"isError":true}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"invalid request: the message nests objects and lists more than 1000 levels deep`,
		`"id":4,"result"`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
}

// serveLines serves root on stdio for a session that initializes and
// then sends lines, one message each, and returns what the server
// wrote; it fails the test if the session ended early.
func serveLines(t *testing.T, root string, lines ...string) *bytes.Buffer {
	t.Helper()
	in := io.NopCloser(strings.NewReader(strings.Join(append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, lines...), "\n") + "\n"))
	var out bytes.Buffer
	if err := Serve(context.Background(), Config{Root: root, Agent: "t", Now: func() string { return "2026-05-01 12:00" }}, Stdio(in, &out)); err != nil && !strings.Contains(err.Error(), "EOF") {
		t.Fatalf("the session ended with %v; output:\n%s", err, out.String())
	}
	return &out
}
