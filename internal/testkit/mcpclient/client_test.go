package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tools is every tool `memsys mcp` offers.
var tools = []string{"memsys_append", "memsys_archive", "memsys_context", "memsys_graph", "memsys_lint", "memsys_log", "memsys_recall", "memsys_regen", "memsys_show", "memsys_status"}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// memsysBin builds memsys and memsys-mcp once for the package's tests
// and returns memsys's path.
func memsysBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "memsys-mcpclient-")
		if err != nil {
			buildErr = err
			return
		}
		// Both programs into one folder, as go install .../cmd/...
		// leaves them: memsys mcp finds memsys-mcp beside itself.
		binPath = filepath.Join(dir, "memsys")
		for _, pkg := range []string{"memsys", "memsys-mcp"} {
			out, err := exec.Command("go", "build", "-o", filepath.Join(dir, pkg), "../../../cmd/"+pkg).CombinedOutput()
			if err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, out)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// copyExample copies examples/multi-agent into a temporary folder.
func copyExample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "examples", "multi-agent")
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestTypeScriptClient runs client.mjs: the official TypeScript SDK's
// Client against the built binary over stdio. Without node_modules it
// skips locally and fails in CI ($CI set), where .ci/run installs them.
func TestTypeScriptClient(t *testing.T) {
	if _, err := os.Stat(filepath.Join("node_modules", "@modelcontextprotocol", "sdk")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node_modules missing in CI: run npm ci in internal/testkit/mcpclient (.ci/run does): %v", err)
		}
		t.Skip("node_modules missing: run npm ci in internal/testkit/mcpclient")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node not found in CI")
		}
		t.Skip("node not found")
	}
	cmd := exec.Command(node, "client.mjs")
	cmd.Env = append(os.Environ(), "MEMSYS_BIN="+memsysBin(t), "MEMSYS_ROOT="+copyExample(t), "MEMSYS_TOOLS="+strings.Join(tools, ","))
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil || !bytes.HasSuffix(bytes.TrimSpace(out), []byte("PASS")) {
		t.Fatalf("client.mjs: %v", err)
	}
}

// connect starts `memsys -C root mcp` and connects the Go SDK's client.
func connect(t *testing.T, root string) (*mcp.ClientSession, *exec.Cmd) {
	t.Helper()
	cmd := exec.Command(memsysBin(t), "-C", root, "mcp", "--agent", "go-client")
	cmd.Stderr = os.Stderr
	c := mcp.NewClient(&mcp.Implementation{Name: "go-stdio-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, cmd
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// TestGoClientStdio: the Go SDK's client over stdio against the binary.
func TestGoClientStdio(t *testing.T) {
	root := copyExample(t)
	cs, _ := connect(t, root)
	ctx := context.Background()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range lt.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, tools) {
		t.Fatalf("tools %v, want %v", names, tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsys_append", Arguments: map[string]any{"type": "test", "scope": "payments_api", "summary": "Stdio works", "details": []map[string]any{{"key": "target", "value": "payments_api"}, {"key": "result", "value": "ok"}}}})
	if err != nil || res.IsError {
		t.Fatalf("append: %v %s", err, text(res))
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsys_append", Arguments: map[string]any{"type": "nope", "scope": "s", "summary": "x"}})
	if err != nil || !res.IsError || !strings.Contains(text(res), `unknown event type "nope"`) {
		t.Fatalf("bad append: %v %s", err, text(res))
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memsys://event/evt-020"})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "go-client | test") {
		t.Fatalf("event resource: %v", err)
	}
}

// rssKB reads the resident set size of process pid (Linux).
func rssKB(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Skipf("cannot read the server's memory: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			n, _ := strconv.Atoi(strings.Fields(l)[1])
			return n
		}
	}
	t.Skip("no VmRSS")
	return 0
}

// TestThousandCalls: 1,000 calls in one server process, reads and
// appends mixed, while a second process appends through the CLI. Every
// append must be in the log exactly once, the log must lint clean after
// a final regen, and the server's resident memory must stay flat: the
// last sample may not exceed the one after the first 200 calls by more
// than half.
func TestThousandCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc")
	}
	root := copyExample(t)
	cs, cmd := connect(t, root)
	ctx := context.Background()
	bin := memsysBin(t)

	const cliAppends = 100
	done := make(chan error, 1)
	go func() {
		for i := range cliAppends {
			out, err := exec.Command(bin, "-C", root, "append", "--agent", "cli", "--type", "test", "--scope", "payments_api",
				"--summary", fmt.Sprintf("cli append %d", i), "--detail", "target=payments_api", "--detail", "result=ok").CombinedOutput()
			if err != nil {
				done <- fmt.Errorf("cli append %d: %v: %s", i, err, out)
				return
			}
		}
		done <- nil
	}()

	var samples []int
	mcpAppends := 0
	start := time.Now()
	for i := range 1000 {
		var p mcp.CallToolParams
		switch i % 5 {
		case 0:
			p = mcp.CallToolParams{Name: "memsys_append", Arguments: map[string]any{"type": "modify", "scope": "payments_api",
				"summary": fmt.Sprintf("mcp append %d", mcpAppends), "details": []map[string]any{{"key": "entity", "value": "payments_api"}, {"key": "changes", "value": strconv.Itoa(i)}}}}
			mcpAppends++
		case 1:
			p = mcp.CallToolParams{Name: "memsys_recall", Arguments: map[string]any{"entities": []string{"payments_api"}}}
		case 2:
			p = mcp.CallToolParams{Name: "memsys_context", Arguments: map[string]any{}}
		case 3:
			p = mcp.CallToolParams{Name: "memsys_graph", Arguments: map[string]any{"status": []string{"active"}}}
		case 4:
			if i%10 == 4 {
				p = mcp.CallToolParams{Name: "memsys_recall", Arguments: map[string]any{"entities": []string{"no such thing"}}}
			} else {
				p = mcp.CallToolParams{Name: "memsys_graph", Arguments: map[string]any{"format": "mermaid"}}
			}
		}
		res, err := cs.CallTool(ctx, &p)
		if err != nil {
			t.Fatalf("call %d %s: %v", i, p.Name, err)
		}
		if res.IsError != (p.Name == "memsys_recall" && i%10 == 4) {
			t.Fatalf("call %d %s: isError %v: %s", i, p.Name, res.IsError, text(res))
		}
		if (i+1)%200 == 0 {
			samples = append(samples, rssKB(t, cmd.Process.Pid))
		}
	}
	elapsed := time.Since(start)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "memsys_regen", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("regen: %v", err)
	}
	t.Logf("1000 calls in %v; server RSS after each 200 calls (KB): %v", elapsed.Round(time.Millisecond), samples)

	if out, err := exec.Command(bin, "-C", root, "lint").CombinedOutput(); err != nil {
		t.Fatalf("lint after 1000 calls: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "-C", root, "export").Output()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, l := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r struct{ Content string }
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		seen[r.Content]++
	}
	for i := range mcpAppends {
		if n := seen[fmt.Sprintf("mcp append %d", i)]; n != 1 {
			t.Errorf("mcp append %d is in the log %d times", i, n)
		}
	}
	for i := range cliAppends {
		if n := seen[fmt.Sprintf("cli append %d", i)]; n != 1 {
			t.Errorf("cli append %d is in the log %d times", i, n)
		}
	}
	if first, last := samples[0], samples[len(samples)-1]; last > first*3/2 {
		t.Errorf("server memory grew from %d KB to %d KB over 800 calls", first, last)
	}
}
