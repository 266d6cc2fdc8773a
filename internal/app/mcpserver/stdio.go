package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/memsys/memsys/internal/base/jsontext"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves cfg on stdin and stdout until stdin ends.
func ServeStdio(ctx context.Context, cfg Config) error {
	return Serve(ctx, cfg, Stdio(os.Stdin, os.Stdout))
}

// drainWait bounds how long the end of input waits for the answers.
const drainWait = 30 * time.Second

// Stdio is the stdio transport, with one difference from the SDK's: when
// the input ends, it first waits for the answers to every request read
// (up to drainWait). A host or a script that writes its requests and
// closes stdin still gets every response; the SDK alone closes the
// connection at end of input and drops the calls still running.
func Stdio(in io.ReadCloser, out io.Writer) mcp.Transport {
	return stdio(in, out, maxMessage)
}

// maxMessage is the longest input line served: the SDK's own limit. A
// longer line gets an error and is skipped, so the server keeps serving
// (the SDK ends the session at one) and holds at most this much of it.
const maxMessage = mcp.DefaultMaxLineLength

func stdio(in io.ReadCloser, out io.Writer, limit int) mcp.Transport {
	d := &drain{}
	w := &drainWriter{d: d, w: out}
	// The SDK's limit is set above ours, so that a line ours lets through
	// (the line, its newline, and what its decoder reads ahead) never
	// reaches the SDK's.
	return &mcp.IOTransport{Reader: &drainReader{d: d, r: in, w: w, limit: limit}, Writer: w, MaxLineLength: limit + 1<<20}
}

// drain counts requests read and not yet answered.
type drain struct {
	mu      sync.Mutex
	pending int
}

func (d *drain) add(n int) {
	d.mu.Lock()
	d.pending += n
	d.mu.Unlock()
}

func (d *drain) idle() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.pending <= 0
}

// lines splits the complete lines off buf and calls f on each.
func lines(buf *[]byte, p []byte, f func(line []byte)) {
	*buf = append(*buf, p...)
	for {
		i := bytes.IndexByte(*buf, '\n')
		if i < 0 {
			return
		}
		f((*buf)[:i])
		*buf = (*buf)[i+1:]
	}
}

// message reads the parts of a JSON-RPC message that tell a request
// (id and method) from a response (id, no method); anything else counts
// as neither.
func message(line []byte) (request, response bool) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return false, false
	}
	return m.Method != "", m.Method == ""
}

// count counts the requests and the responses in line: one message, or
// a batch of them (MCP 2025-03-26 has batches, and the SDK answers a
// batch with one), so that the drain waits for a batch's answers too.
func count(line []byte) (requests, responses int) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '[' {
		req, resp := message(line)
		return b2i(req), b2i(resp)
	}
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) != nil {
		return 0, 0
	}
	for _, m := range batch {
		req, resp := message(m)
		requests, responses = requests+b2i(req), responses+b2i(resp)
	}
	return requests, responses
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// batchesUntil is the first MCP version without JSON-RPC batches.
const batchesUntil = "2025-06-18"

// initializeVersion returns the protocol version an initialize request
// line asks for, and false for any other line.
func initializeVersion(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"initialize"`)) {
		return "", false // cheap: most lines are not
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil || m.Method != "initialize" {
		return "", false
	}
	return m.Params.ProtocolVersion, true
}

// batchesAllowed reports whether a session whose client asked for
// version (at initialize) may send batches: the SDK serves the version
// asked for when it supports it, else its latest, and from 2025-06-18
// on it ends the whole session at a batch.
func batchesAllowed(version string) bool {
	return version < batchesUntil && slices.Contains(mcp.SupportedProtocolVersions(), version)
}

// batchRefused is the reply to a batch in a session without batches:
// an error for each request in it, by id, so that a client waiting for
// them is answered (one error with a null id when it holds none).
func batchRefused(batch []json.RawMessage) []byte {
	const msg = "invalid request: MCP " + batchesUntil + " and later have no JSON-RPC batches: send one message per line"
	var out []byte
	for _, m := range batch {
		var r struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal(m, &r) != nil || r.Method == nil || len(r.ID) == 0 || string(r.ID) == "null" {
			continue
		}
		out = append(out, errorReply(r.ID, -32600, msg)...)
	}
	if out == nil {
		out = errorReply(nil, -32600, msg)
	}
	return out
}

type drainReader struct {
	d   *drain
	r   io.ReadCloser
	w   *drainWriter // where a line that is no JSON-RPC message gets its error
	buf []byte       // read, not yet a whole line
	out []byte       // whole lines checked, not yet handed to the SDK
	err error        // the input's error (io.EOF at its end), once seen

	// initialized and version: whether an initialize request went by,
	// and the protocol version it asked for, which decides whether a
	// batch is served.
	initialized bool
	version     string

	limit  int             // longest line served, in bytes
	skip   bool            // in a line longer than limit, dropped up to its end
	skipID json.RawMessage // that line's id, when its first bytes name one
}

// Read hands the SDK whole lines only, and only lines that are JSON-RPC
// 2.0 messages: the SDK ends the session, and drops every call still
// running, at the first line it cannot decode, so one bad line from a
// host would kill the server. Such a line gets its JSON-RPC error here
// instead, and the session goes on.
func (r *drainReader) Read(p []byte) (int, error) {
	for len(r.out) == 0 && r.err == nil {
		n, err := r.r.Read(p)
		r.feed(p[:n])
		if err != nil {
			r.endLine()
			r.buf, r.err = nil, err
		}
	}
	if len(r.out) > 0 {
		n := copy(p, r.out)
		r.out = r.out[n:]
		return n, nil
	}
	if r.err == io.EOF {
		for start := time.Now(); !r.d.idle() && time.Since(start) < drainWait; {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return 0, r.err
}

// feed takes the next bytes of input: lines, or a part of one.
func (r *drainReader) feed(p []byte) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		part := p
		if i >= 0 {
			part = p[:i]
		}
		if !r.skip {
			if len(r.buf)+len(part) > r.limit {
				r.skip, r.skipID = true, leadingID(append(r.buf, part...))
				r.buf = nil
			} else {
				r.buf = append(r.buf, part...)
			}
		}
		if i < 0 {
			return
		}
		r.endLine()
		p = p[i+1:]
	}
}

// endLine handles the line read so far, at its newline or the end of input.
func (r *drainReader) endLine() {
	if r.skip {
		r.w.reply(errorReply(r.skipID, -32600, fmt.Sprintf("invalid request: the message is longer than %d bytes: send it in smaller calls", r.limit)))
		r.skip, r.skipID = false, nil
		return
	}
	r.line(r.buf)
	r.buf = r.buf[:0]
}

// leadingID is the id of the JSON-RPC object that line begins, when it
// comes before the first value that is an object or an array (as
// clients write it: jsonrpc, id, method, params); nil otherwise.
func leadingID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil || len(v) == 0 || v[0] == '{' || v[0] == '[' {
			return nil
		}
		if key == "id" {
			if v[0] == '"' || v[0] == '-' || (v[0] >= '0' && v[0] <= '9') {
				return v
			}
			return nil
		}
	}
}

// line queues one input line for the SDK, or answers it with an error.
func (r *drainReader) line(l []byte) {
	l = bytes.TrimSpace(bytes.TrimPrefix(l, []byte("\ufeff")))
	if len(l) == 0 {
		return
	}
	if reply := rejected(l); reply != nil {
		r.w.reply(reply)
		return
	}
	if msg := jsontext.Problem(l); msg != "" {
		// Go's JSON decoder would put U+FFFD in place of the bad bytes
		// or the half character, and an append would write that into
		// the log in silence.
		r.w.reply(refuse(l, -32700, "the message "+msg))
		return
	}
	if tooDeep(l) {
		// The SDK would end the session at it.
		r.w.reply(refuse(l, -32600, fmt.Sprintf("the message nests objects and lists more than %d levels deep: send flatter arguments (details nest a few levels)", maxDepth)))
		return
	}
	if v, ok := initializeVersion(l); ok {
		r.initialized, r.version = true, v
	}
	if l[0] == '[' && r.initialized && !batchesAllowed(r.version) {
		// The SDK would end the session at it, dropping every call.
		var batch []json.RawMessage
		json.Unmarshal(l, &batch) //nolint:errcheck // rejected checked it
		r.w.reply(batchRefused(batch))
		return
	}
	if req, _ := count(l); req > 0 {
		r.d.add(req)
	}
	r.out = append(append(r.out, l...), '\n')
}

// rejected returns the JSON-RPC error response for a line that is not a
// JSON-RPC 2.0 message (nil for one that is): -32700 when it is not
// JSON, -32600 when it is JSON but no message, with the request's id
// when it has a usable one.
func rejected(l []byte) []byte {
	if !json.Valid(l) {
		return errorReply(nil, -32700, "parse error: the line is not JSON: send one JSON-RPC 2.0 message per line")
	}
	if l[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(l, &batch) != nil || len(batch) == 0 {
			return errorReply(nil, -32600, "invalid request: an empty or malformed batch")
		}
		for _, m := range batch {
			if reply := rejected(bytes.TrimSpace(m)); reply != nil {
				return reply
			}
		}
		return nil
	}
	var m struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
	}
	if l[0] != '{' || json.Unmarshal(l, &m) != nil {
		return errorReply(nil, -32600, "invalid request: a JSON-RPC message is a JSON object")
	}
	var id json.RawMessage
	if len(m.ID) > 0 && (m.ID[0] == '"' || m.ID[0] == '-' || (m.ID[0] >= '0' && m.ID[0] <= '9')) {
		id = m.ID
	}
	if m.JSONRPC == nil || *m.JSONRPC != "2.0" {
		return errorReply(id, -32600, `invalid request: "jsonrpc" must be "2.0"`)
	}
	if len(m.ID) > 0 && id == nil && string(m.ID) != "null" {
		// The SDK ends the session at an id of another type.
		return errorReply(nil, -32600, `invalid request: "id" must be a string, a number or null`)
	}
	if m.Method == nil && len(m.ID) == 0 {
		return errorReply(nil, -32600, `invalid request: a message has a "method" or an "id"`)
	}
	return nil
}

// errorReply is a JSON-RPC error response line; a nil id is null.
func errorReply(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	return append(b, '\n')
}

func (r *drainReader) Close() error { return r.r.Close() }

type drainWriter struct {
	d   *drain
	w   io.Writer
	mu  sync.Mutex // the SDK's messages and reply's errors, one at a time
	buf []byte
}

func (w *drainWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	lines(&w.buf, p[:n], func(l []byte) {
		if _, resp := count(l); resp > 0 {
			w.d.add(-resp)
		}
	})
	return n, err
}

// reply writes an error response of the reader's own, between the SDK's
// messages; it is not counted as an answer to a request the SDK read.
func (w *drainWriter) reply(line []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.w.Write(line) //nolint:errcheck // a broken output ends the session at the SDK's next write
}

func (w *drainWriter) Close() error { return nil }

// maxDepth is how deep the SDK decodes a message's objects and lists
// (its internal/json's defaultMaxDepth): it ends the session at a line
// nested deeper.
const maxDepth = 1000

// tooDeep reports whether line nests objects and lists deeper than
// maxDepth, counted as the SDK counts them.
func tooDeep(line []byte) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range line {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case b == '"':
			inString = !inString
		case inString:
		case b == '{' || b == '[':
			if depth++; depth > maxDepth {
				return true
			}
		case (b == '}' || b == ']') && depth > 0:
			depth--
		}
	}
	return false
}

// refuse answers a line the reader refuses with msg: a tool call gets
// a tool error, as every other bad argument does; another request the
// JSON-RPC error code with its id; a notification nothing. In a batch
// each request is answered so, none served.
func refuse(l []byte, code int, msg string) []byte {
	msgs := []json.RawMessage{l}
	if l[0] == '[' {
		json.Unmarshal(l, &msgs) //nolint:errcheck // rejected checked it
	}
	var out []byte
	for _, m := range msgs {
		var r struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(m, &r) != nil || r.Method == "" || len(r.ID) == 0 || string(r.ID) == "null" {
			continue
		}
		if r.Method != "tools/call" {
			kind := "invalid request: "
			if code == -32700 {
				kind = "parse error: "
			}
			out = append(out, errorReply(r.ID, code, kind+msg)...)
			continue
		}
		b, _ := json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  any             `json:"result"`
		}{"2.0", r.ID, &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "memsys: " + msg}}}})
		out = append(append(out, b...), '\n')
	}
	return out
}
