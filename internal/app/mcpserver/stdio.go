package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"
	"time"

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
	d := &drain{}
	return &mcp.IOTransport{Reader: &drainReader{d: d, r: in}, Writer: &drainWriter{d: d, w: out}}
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

type drainReader struct {
	d   *drain
	r   io.ReadCloser
	buf []byte
}

func (r *drainReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	lines(&r.buf, p[:n], func(l []byte) {
		if req, _ := message(l); req {
			r.d.add(1)
		}
	})
	if err == io.EOF {
		if len(bytes.TrimSpace(r.buf)) > 0 {
			if req, _ := message(r.buf); req {
				r.d.add(1)
			}
			r.buf = nil
		}
		for start := time.Now(); !r.d.idle() && time.Since(start) < drainWait; {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return n, err
}

func (r *drainReader) Close() error { return r.r.Close() }

type drainWriter struct {
	d   *drain
	w   io.Writer
	buf []byte
}

func (w *drainWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	lines(&w.buf, p[:n], func(l []byte) {
		if _, resp := message(l); resp {
			w.d.add(-1)
		}
	})
	return n, err
}

func (w *drainWriter) Close() error { return nil }
