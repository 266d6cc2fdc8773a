package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/words"
)

// copyExample copies examples/multi-agent into a temporary folder, so
// tests can append to it.
func copyExample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "..", "examples", "multi-agent")
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// connect serves root in memory and returns a Go SDK client session.
func connect(t *testing.T, root string) *mcp.ClientSession {
	t.Helper()
	return connectAs(t, root, "tester")
}

// connectAs is connect with the server's default agent (memsys mcp's
// --agent, else $MEMSYS_AGENT ...) set to agent.
func connectAs(t *testing.T, root, agent string) *mcp.ClientSession {
	t.Helper()
	return serve(t, New(Config{Root: root, Agent: agent, Now: func() string { return "2026-05-01 12:00" }, Version: "test"}))
}

// serve connects a Go SDK client to srv in memory.
func serve(t *testing.T, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its result; a protocol error fails.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
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

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

// Tools is every tool the server offers; TestTools fails when one is
// added without a test here.
var Tools = []string{"memsys_append", "memsys_archive", "memsys_context", "memsys_graph", "memsys_lint", "memsys_log", "memsys_recall", "memsys_regen", "memsys_show", "memsys_status"}

func TestTools(t *testing.T) {
	cs := connect(t, copyExample(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || strings.Contains(tool.Description, "\n") {
			t.Errorf("%s: want a one-line description, got %q", tool.Name, tool.Description)
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: want input and output schemas", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, Tools) {
		t.Errorf("tools %v, want %v", names, Tools)
	}
}

// TestLogOpenAndSuperseded: memsys_log has the CLI's --open and
// --superseded filters.
func TestLogOpenAndSuperseded(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	var lg LogOut
	structured(t, call(t, cs, "memsys_log", map[string]any{"open": true}), &lg)
	if len(lg.Events) != 0 {
		t.Fatalf("open before the blocker: %v", lg.Events)
	}
	call(t, cs, "memsys_append", map[string]any{"type": "blocker", "scope": "stripe", "summary": "Sandbox down",
		"details": []map[string]any{{"key": "blocked", "value": "stripe"}, {"key": "reason", "value": "outage"}}})
	structured(t, call(t, cs, "memsys_log", map[string]any{"open": true}), &lg)
	if len(lg.Events) != 1 || lg.Events[0].ID != "evt-020" || lg.Matched != 1 {
		t.Errorf("open after the blocker: %+v", lg)
	}
	call(t, cs, "memsys_append", map[string]any{"type": "fix", "scope": "stripe", "summary": "Sandbox back",
		"details": []map[string]any{{"key": "entity", "value": "stripe"}}, "refs": []string{"evt-020"}})
	call(t, cs, "memsys_append", map[string]any{"type": "fix", "scope": "stripe", "summary": "Sandbox back, the right way",
		"details": []map[string]any{{"key": "entity", "value": "stripe"}}, "refs": []string{"evt-020"}, "supersedes": []string{"evt-021"}})
	structured(t, call(t, cs, "memsys_log", map[string]any{"superseded": true}), &lg)
	want, _, err := memory.Log(root, memory.LogFilter{Superseded: true})
	if err != nil || len(want) != 1 || !slices.Equal(lg.Events, want) {
		t.Errorf("superseded: %v, want %v (%v)", lg.Events, want, err)
	}
}

// TestAppendInHasDraftFields: memsys_append takes every field of
// `memsys append --json`'s object, so an agent over MCP can write any
// event the CLI can (supersedes was once missing).
func TestAppendInHasDraftFields(t *testing.T) {
	fields := func(typ reflect.Type) []string {
		var names []string
		for f := range typ.Fields() {
			names = append(names, strings.Split(f.Tag.Get("json"), ",")[0])
		}
		return names
	}
	in := fields(reflect.TypeFor[AppendIn]())
	for _, name := range fields(reflect.TypeFor[memory.Draft]()) {
		if !slices.Contains(in, name) {
			t.Errorf("AppendIn has no %q, which append --json takes", name)
		}
	}
}

// TestArchive: memsys_archive runs the Archival Protocol with the
// project's thresholds; dry_run writes nothing; a run then regen leaves
// a memory that lints clean.
func TestArchive(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	var ar memory.ArchiveResult
	structured(t, call(t, cs, "memsys_archive", map[string]any{"dry_run": true}), &ar)
	if ar.Due || len(ar.Moved) != 0 || ar.Threshold != memory.DefaultThreshold {
		t.Fatalf("19 events, default threshold: %+v", ar)
	}
	if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(`{"archive": {"threshold": 10, "keep": 5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	res := call(t, cs, "memsys_archive", map[string]any{"dry_run": true})
	structured(t, res, &ar)
	after, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	// The dry run names the archive event the real run appends.
	if !ar.Due || !ar.DryRun || len(ar.Moved) == 0 || ar.Threshold != 10 || ar.Keep != 5 || ar.ArchiveEvent != "evt-020" ||
		!strings.HasPrefix(text(res), "would move ") || string(before) != string(after) {
		t.Fatalf("dry run: %+v %q", ar, text(res))
	}
	want := ar.Moved
	structured(t, call(t, cs, "memsys_archive", map[string]any{}), &ar)
	if ar.DryRun || !slices.Equal(ar.Moved, want) || ar.ArchiveEvent != "evt-020" {
		t.Fatalf("archive: %+v, want moved %v", ar, want)
	}
	var sh memory.ShowResult
	structured(t, call(t, cs, "memsys_show", map[string]any{"id": "evt-020"}), &sh)
	if sh.Type != "archive" || sh.Agent != "tester" {
		t.Errorf("archive event: %+v", sh.EventLine)
	}
	call(t, cs, "memsys_regen", map[string]any{})
	var li LintOut
	structured(t, call(t, cs, "memsys_lint", map[string]any{}), &li)
	if li.Summary.Events != 20 || li.Summary.Errors != 0 || li.Summary.Warnings != 0 {
		t.Errorf("lint after archive and regen: %+v", li)
	}
	// A second run has nothing left to move.
	structured(t, call(t, cs, "memsys_archive", map[string]any{}), &ar)
	if len(ar.Moved) != 0 {
		t.Errorf("second archive moved %v", ar.Moved)
	}
}

func TestCallEachTool(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)

	var st memory.StatusReport
	structured(t, call(t, cs, "memsys_status", map[string]any{}), &st)
	if st.LastEvent == nil || st.LastEvent.ID != "evt-019" || st.Stale || st.Tier != "full" {
		t.Errorf("status: %+v", st)
	}

	var sh memory.ShowResult
	structured(t, call(t, cs, "memsys_show", map[string]any{"id": "evt-7"}), &sh)
	if sh.ID != "evt-007" || !strings.HasPrefix(sh.Text, "### evt-007 |") {
		t.Errorf("show: %+v", sh)
	}

	var lg LogOut
	structured(t, call(t, cs, "memsys_log", map[string]any{"type": []string{"decision"}}), &lg)
	if len(lg.Events) != 2 || lg.Events[0].ID != "evt-001" {
		t.Errorf("log --type decision: %+v", lg.Events)
	}
	structured(t, call(t, cs, "memsys_log", map[string]any{"entity": "stripe"}), &lg)
	if len(lg.Events) == 0 {
		t.Errorf("log --entity stripe: none")
	}
	// A limit keeps the newest events and says how many matched.
	res := call(t, cs, "memsys_log", map[string]any{"limit": 2})
	structured(t, res, &lg)
	if len(lg.Events) != 2 || lg.Events[1].ID != "evt-019" || lg.Matched != 19 || !strings.HasPrefix(text(res), "the last 2 of 19 events") {
		t.Errorf("log limit 2: %d events, matched %d, text %q", len(lg.Events), lg.Matched, text(res))
	}

	var li LintOut
	structured(t, call(t, cs, "memsys_lint", map[string]any{}), &li)
	if li.Summary.Events != 19 || li.Summary.Errors != 0 || li.Diagnostics == nil {
		t.Errorf("lint: %+v", li)
	}

	var ctxOut ContextOut
	structured(t, call(t, cs, "memsys_context", map[string]any{}), &ctxOut)
	if ctxOut.Horizon != "evt-019" || !ctxOut.Fresh || !strings.Contains(ctxOut.Text, "evt-019") {
		t.Errorf("context: horizon %q fresh %v", ctxOut.Horizon, ctxOut.Fresh)
	}

	res = call(t, cs, "memsys_recall", map[string]any{"entities": []string{"Payments API"}, "budget": 200})
	if res.IsError || !strings.Contains(text(res), "## payments_api") {
		t.Errorf("recall: %s", text(res))
	}

	var g GraphOut
	structured(t, call(t, cs, "memsys_graph", map[string]any{"status": []string{"deprecated"}}), &g)
	if g.Graph == nil || len(g.Graph.Nodes) != 1 || g.Graph.Nodes[0].Name != "legacy_refund_script" {
		t.Errorf("graph --status deprecated: %+v", g.Graph)
	}
	res = call(t, cs, "memsys_graph", map[string]any{"format": "mermaid"})
	if !strings.HasPrefix(text(res), "flowchart LR") {
		t.Errorf("graph mermaid: %s", text(res))
	}

	var a memory.AppendResult
	structured(t, call(t, cs, "memsys_append", map[string]any{
		"type": "test", "scope": "payments_api", "summary": "Refund tests pass",
		"details": []map[string]any{{"key": "target", "value": "payments_api"}, {"key": "result", "value": "12 passed", "children": []map[string]any{{"key": "slowest", "value": "0.4 s"}}}},
		"refs":    []string{"evt-019"},
	}), &a)
	if a.ID != "evt-020" || a.Agent != "tester" || a.Time != "2026-05-01 12:00" {
		t.Errorf("append: %+v", a)
	}
	// An ISO 8601 time, with its "T", is the log's "YYYY-MM-DD HH:MM".
	var iso memory.AppendResult
	structured(t, call(t, cs, "memsys_append", map[string]any{
		"type": "fix", "scope": "payments_api", "summary": "Refund rounding", "time": "2026-05-01T12:30",
	}), &iso)
	if iso.ID != "evt-021" || iso.Time != "2026-05-01 12:30" {
		t.Errorf("append with a T time: %+v", iso)
	}
	// The derived files are now stale; context says so and still
	// answers with the regenerated text.
	structured(t, call(t, cs, "memsys_context", map[string]any{}), &ctxOut)
	if ctxOut.Horizon != "evt-021" || ctxOut.Fresh {
		t.Errorf("context after append: horizon %q fresh %v", ctxOut.Horizon, ctxOut.Fresh)
	}
	structured(t, call(t, cs, "memsys_lint", map[string]any{}), &li)
	if li.Summary.Errors != 2 || li.Diagnostics[0].Rule != "MS203" && li.Diagnostics[0].Rule != "MS202" {
		t.Errorf("lint with stale derived files: %+v", li)
	}
	var r RegenOut
	structured(t, call(t, cs, "memsys_regen", map[string]any{}), &r)
	if !slices.Equal(r.Written, []string{".memory/graph.md", ".memory/context.md"}) {
		t.Errorf("regen wrote %v", r.Written)
	}
	structured(t, call(t, cs, "memsys_regen", map[string]any{}), &r)
	if len(r.Written) != 0 {
		t.Errorf("second regen wrote %v", r.Written)
	}
}

// TestMalformedCalls: every bad call is an error result (or a protocol
// error for a call the schema rejects) with the CLI's message in the
// tool's words (TestErrorsNameParameters has every kind), and the
// server goes on serving.
func TestMalformedCalls(t *testing.T) {
	root := copyExample(t)
	before, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	cs := connect(t, root)
	for _, tc := range []struct {
		tool string
		args any
		want string
	}{
		{"memsys_append", map[string]any{"type": "bogus", "scope": "x", "summary": "y"}, `memsys: unknown event type "bogus": use one of`},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", "refs": []string{"evt-999"}}, `memsys: refs "evt-999" names no event in the log or the archive`},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "two\nlines"}, "spans several lines"},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", "details": []map[string]any{{"key": "closes", "value": "evt-004"}}}, `memsys: closes "evt-004" names a handoff, which opens no loop: close a blocker, escalation or commitment, or list evt-004 in refs instead`},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", "time": "yesterday"}, `is not "YYYY-MM-DD HH:MM"`},
		{"memsys_recall", map[string]any{"entities": []string{"paymnts_api"}}, `memsys: unknown entity "paymnts_api": no such node in the graph; nearest: "payments_api"`},
		{"memsys_recall", map[string]any{"entities": []string{}}, "recall needs at least one entity"},
		{"memsys_recall", map[string]any{"entities": []string{"stripe"}, "depth": 9}, "memsys: depth 9: use 0 to 5"},
		{"memsys_graph", map[string]any{"format": "dot!"}, `unknown format "dot!"`},
		{"memsys_graph", map[string]any{"status": []string{"done"}}, `memsys: status "done": unknown status`},
		{"memsys_graph", map[string]any{"at": "evt-500"}, `memsys: at "evt-500": no such event`},
		{"memsys_recall", map[string]any{"entities": "stripe"}, "entities"},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", "details": []map[string]any{{"key": "k"}}}, "value"},
		{"memsys_nope", map[string]any{}, "memsys_nope"},
		{"memsys_show", map[string]any{"id": "evt-999"}, `memsys: id "evt-999": no such event`},
		{"memsys_show", map[string]any{"id": "seven"}, `memsys: id "seven" is not an event ID: write evt-NNN`},
		{"memsys_show", map[string]any{}, "id"},
		{"memsys_log", map[string]any{"since": "last week"}, `memsys: since "last week" is not a date`},
		{"memsys_log", map[string]any{"entity": "nothing"}, `memsys: unknown entity "nothing": no such node in the graph`},
		{"memsys_log", map[string]any{"limit": -1}, `limit -1: must be at least 1`},
		// Leaving limit out gives the last 100, not every event as on the CLI.
		{"memsys_log", map[string]any{"limit": 0}, `memsys: limit 0: must be at least 1 (leave it out for the last 100, or set a larger limit for more)`},
		{"memsys_archive", map[string]any{"dry_run": "yes"}, "dry_run"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		msg := ""
		switch {
		case err != nil:
			msg = err.Error()
		case res.IsError:
			msg = text(res)
		default:
			t.Errorf("%s %v: succeeded, want an error", tc.tool, tc.args)
			continue
		}
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s %v: error %q, want it to contain %q", tc.tool, tc.args, msg, tc.want)
		}
	}
	after, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	if string(before) != string(after) {
		t.Error("a rejected call changed CHANGELOG.md")
	}
	// Still serving.
	if res := call(t, cs, "memsys_recall", map[string]any{"entities": []string{"stripe"}}); res.IsError {
		t.Errorf("after the bad calls: %s", text(res))
	}
}

func TestResources(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	if want := []string{"memsys://AGENTS.md", "memsys://context.md", "memsys://graph.md"}; !slices.Equal(uris, want) {
		t.Errorf("resources %v, want %v", uris, want)
	}
	for uri, rel := range map[string]string{"memsys://AGENTS.md": "AGENTS.md", "memsys://context.md": ".memory/context.md", "memsys://graph.md": ".memory/graph.md"} {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		want, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || rr.Contents[0].Text != string(want) {
			t.Errorf("%s: not the text of %s", uri, rel)
		}
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memsys://event/evt-3"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rr.Contents[0].Text, "### evt-003 |") {
		t.Errorf("event: %q", rr.Contents[0].Text)
	}
	for _, uri := range []string{"memsys://event/evt-404", "memsys://event/nope", "memsys://nothing"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("%s: want an error", uri)
		}
	}
}

// TestResourceUnreadable: a resource memsys cannot read (a folder where
// context.md or the log should be) is a JSON-RPC internal
// error carrying memsys's message; it used to carry code 0, which
// JSON-RPC does not define. A missing file stays "resource not found".
func TestResourceUnreadable(t *testing.T) {
	root := copyExample(t)
	ctx := context.Background()
	cs := connect(t, root)
	ctxFile := filepath.Join(root, ".memory", "context.md")
	if err := os.Remove(ctxFile); err != nil {
		t.Fatal(err)
	}
	_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "memsys://context.md"})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != mcp.CodeResourceNotFound {
		t.Errorf("missing context.md: %v, want code %d", err, mcp.CodeResourceNotFound)
	}
	if err := os.Mkdir(ctxFile, 0o755); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(root, "CHANGELOG.md")
	if err := os.Remove(logFile); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(logFile, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"memsys://context.md", "memsys://event/evt-001"} {
		_, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if !errors.As(err, &we) || we.Code != jsonrpc.CodeInternalError || !strings.HasPrefix(we.Message, "memsys: ") {
			t.Errorf("%s: %#v, want code %d and memsys's message", uri, err, jsonrpc.CodeInternalError)
		}
	}
}

// TestLogChangesUnderneath: another writer appends while the server
// runs; the next calls see the new event.
func TestLogChangesUnderneath(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	call(t, cs, "memsys_recall", map[string]any{"entities": []string{"stripe"}})
	if _, err := memory.Append(root, memory.Draft{Type: "modify", Scope: "stripe", Summary: "Pin the Stripe SDK", Agent: "other",
		Time: "2026-05-02 09:00", Details: []memory.DraftDetail{{Key: "entity", Value: "stripe"}, {Key: "changes", Value: "pinned"}}}, true, false); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Horizon  string
		Entities []struct {
			LastEvent struct{ ID string } `json:"last_event"`
		}
	}
	structured(t, call(t, cs, "memsys_recall", map[string]any{"entities": []string{"stripe"}}), &p)
	if p.Horizon != "evt-020" || p.Entities[0].LastEvent.ID != "evt-020" {
		t.Errorf("recall after another append: %+v", p)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "memsys://event/evt-020"})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "Pin the Stripe SDK") {
		t.Errorf("event resource after another append: %v", err)
	}
}

// TestRegenNothingWrittenIsEmptyList: when the derived files are current
// memsys_regen says written: [] (as memsys_append's regenerated), not
// null, which a client reading the documented list has to special-case.
func TestRegenNothingWrittenIsEmptyList(t *testing.T) {
	cs := connect(t, copyExample(t))
	// The second call answers from what the first learnt (the cache):
	// it said null where the first said [].
	for i := range 2 {
		res := call(t, cs, "memsys_regen", map[string]any{})
		if res.IsError {
			t.Fatal(text(res))
		}
		b, _ := json.Marshal(res.StructuredContent)
		if got, want := string(b), `{"written":[]}`; got != want {
			t.Errorf("call %d: memsys_regen on a current memory = %s, want %s", i+1, got, want)
		}
	}
}

// TestPanicIsToolError: a tool that panics (a bug) answers with a tool
// error of one line and the server goes on serving; without the guard
// the panic ended the server, with a Go stack trace on stderr.
func TestPanicIsToolError(t *testing.T) {
	srv := New(Config{Root: copyExample(t), Agent: "tester", Version: "test"})
	mcp.AddTool(srv, &mcp.Tool{Name: "boom"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		var m map[string]int
		m["x"] = 1 // assignment to entry in nil map
		return nil, nil, nil
	})
	cs := serve(t, srv)
	res := call(t, cs, "boom", map[string]any{})
	if got := text(res); !res.IsError || strings.Count(got, "\n") > 0 || !strings.HasPrefix(got, "memsys: internal error in boom: assignment to entry in nil map") {
		t.Errorf("boom = error %v, %q", res.IsError, got)
	}
	if res := call(t, cs, "memsys_status", map[string]any{}); res.IsError {
		t.Errorf("after the panic: %s", text(res))
	}
}

// TestBrokenConfig: memsys_status reports a .memsys.json it cannot read
// as memsys status does (one line, the file relative to the root), never
// the defaults in silence; the tools that read no configuration still
// answer.
func TestBrokenConfig(t *testing.T) {
	root := copyExample(t)
	if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte("{bad\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root)
	want := `memsys: .memsys.json:1: invalid character 'b': write valid JSON such as {"rules": {"MS117": "off"}}`
	for _, tool := range []string{"memsys_status", "memsys_regen", "memsys_context", "memsys_lint"} {
		res := call(t, cs, tool, map[string]any{})
		if !res.IsError || text(res) != want {
			t.Errorf("%s: error %v, text %q, want %q", tool, res.IsError, text(res), want)
		}
	}
	if res := call(t, cs, "memsys_log", map[string]any{}); res.IsError {
		t.Errorf("memsys_log: %s", text(res))
	}
	// An unknown rule is refused by every tool that reads the
	// configuration, as memsys lint refuses it, not read as the defaults.
	if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(`{"rules": {"MS999": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	// The advice marks the command as the CLI's: no tool lists the rules.
	want = `memsys: .memsys.json:1: unknown rule "MS999": use an ID or name that the CLI command "memsys lint --list-rules" prints`
	for _, tool := range []string{"memsys_status", "memsys_regen", "memsys_context", "memsys_lint", "memsys_archive"} {
		res := call(t, cs, tool, map[string]any{})
		if !res.IsError || text(res) != want {
			t.Errorf("unknown rule: %s: error %v, text %q, want %q", tool, res.IsError, text(res), want)
		}
	}
}

// TestOpenLoopsAgree: on the bundled examples, memsys_status's open
// loops (memsys status's count) is the number memsys loops lists, both
// when status counts a fresh context.md's Open Loops and when it
// replays (context.md stale after an append).
func TestOpenLoopsAgree(t *testing.T) {
	for _, ex := range []string{"auth", "multi-agent"} {
		root := t.TempDir()
		if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "..", "..", "examples", ex))); err != nil {
			t.Fatal(err)
		}
		cs := connect(t, root)
		check := func(when, from string, want int) {
			t.Helper()
			var st memory.StatusReport
			structured(t, call(t, cs, "memsys_status", map[string]any{}), &st)
			cli, err := memory.Status(root)
			if err != nil {
				t.Fatal(err)
			}
			loops, err := memory.Loops(root)
			if err != nil {
				t.Fatal(err)
			}
			if st.OpenLoops != want || cli.OpenLoops != want || len(loops.Loops) != want || st.LoopsFrom != from {
				t.Errorf("%s %s: memsys_status %d (from %s), status %d, loops %d; want %d from %s",
					ex, when, st.OpenLoops, st.LoopsFrom, cli.OpenLoops, len(loops.Loops), want, from)
			}
		}
		check("as shipped", ".memory/context.md", 0)
		for i, typ := range []string{"blocker", "escalation", "blocker"} {
			res := call(t, cs, "memsys_append", map[string]any{"type": typ, "scope": "qa", "summary": "open loop " + string(rune('a'+i)),
				"details": []map[string]any{{"key": "blocked_entity", "value": "qa"}, {"key": "requested_action", "value": "look"}}})
			if res.IsError {
				t.Fatalf("%s append: %s", ex, text(res))
			}
		}
		check("after appends (context.md stale)", "replay", 3)
		if res := call(t, cs, "memsys_regen", map[string]any{}); res.IsError {
			t.Fatalf("%s regen: %s", ex, text(res))
		}
		check("after regen", ".memory/context.md", 3)
	}
}

// TestToolAnnotations: every tool carries the MCP hints a host reads
// to decide whether to ask before a call, as the client sees them:
// read-only tools say so; writing tools say whether they only add
// (append, regen, lint's fix) or rewrite the log (archive) and whether a
// second identical call changes anything; no tool reaches an open world.
func TestToolAnnotations(t *testing.T) {
	type hints struct{ readOnly, destructive, idempotent bool }
	want := map[string]hints{
		"memsys_status":  {readOnly: true, idempotent: true},
		"memsys_show":    {readOnly: true, idempotent: true},
		"memsys_log":     {readOnly: true, idempotent: true},
		"memsys_context": {readOnly: true, idempotent: true},
		"memsys_recall":  {readOnly: true, idempotent: true},
		"memsys_graph":   {readOnly: true, idempotent: true},
		"memsys_lint":    {idempotent: true},
		"memsys_regen":   {idempotent: true},
		"memsys_append":  {},
		"memsys_archive": {destructive: true, idempotent: true},
	}
	cs := connect(t, copyExample(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(want) {
		t.Errorf("%d tools, want annotations checked for %d", len(res.Tools), len(want))
	}
	for _, tool := range res.Tools {
		a := tool.Annotations
		w, ok := want[tool.Name]
		switch {
		case !ok:
			t.Errorf("%s: no expected annotations: add it to this table", tool.Name)
		case a == nil:
			t.Errorf("%s: no annotations", tool.Name)
		case a.DestructiveHint == nil || a.OpenWorldHint == nil:
			t.Errorf("%s: destructiveHint %v, openWorldHint %v: want both set (the defaults are true)", tool.Name, a.DestructiveHint, a.OpenWorldHint)
		default:
			got := hints{readOnly: a.ReadOnlyHint, destructive: *a.DestructiveHint, idempotent: a.IdempotentHint}
			if got != w || *a.OpenWorldHint {
				t.Errorf("%s: %+v, openWorld %v; want %+v, openWorld false", tool.Name, got, *a.OpenWorldHint, w)
			}
		}
	}
}

// TestReadOnlyToolsWriteNothing holds the read-only tools to their
// annotation: on a stale memory (where memsys_context renders the
// context it would write), each leaves every file of the root as it
// was, and so do lint without fix and archive's dry run.
func TestReadOnlyToolsWriteNothing(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	call(t, cs, "memsys_append", map[string]any{"type": "test", "scope": "api", "summary": "stale now",
		"details": []map[string]any{{"key": "target", "value": "api"}, {"key": "result", "value": "pass"}}})
	files := func() map[string]string {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			out[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := files()
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"memsys_status", nil}, {"memsys_show", map[string]any{"id": "evt-1"}}, {"memsys_log", nil},
		{"memsys_context", nil}, {"memsys_recall", map[string]any{"entities": []string{"Payments API"}}}, {"memsys_graph", nil},
		{"memsys_lint", nil}, {"memsys_archive", map[string]any{"dry_run": true}},
	}
	for _, c := range calls {
		if c.args == nil {
			c.args = map[string]any{}
		}
		if res := call(t, cs, c.tool, c.args); res.IsError {
			t.Errorf("%s: %s", c.tool, text(res))
		}
		if !reflect.DeepEqual(files(), before) {
			t.Fatalf("%s changed the memory's files", c.tool)
		}
	}
}

// TestAppendSaysRecovered: an append that first removes the partial
// event an interrupted append left says so in its result, as memsys
// append says it on stderr (testscript append-torn, whose files this
// test uses); over MCP the agent had no word of the repair.
func TestAppendSaysRecovered(t *testing.T) {
	root := scriptFiles(t, "append-torn.txtar")
	want, err := os.ReadFile(filepath.Join(root, "want.md"))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root)
	args := map[string]any{"type": "fix", "scope": "api", "summary": "Fix the crash", "agent": "bob", "time": "2026-03-01 10:00"}
	res := call(t, cs, "memsys_append", args)
	if res.IsError {
		t.Fatal(text(res))
	}
	var got memory.AppendResult
	structured(t, res, &got)
	if wantMsg := "CHANGELOG.md: removed the partial event (49 of 123 bytes) an interrupted append left at the end"; got.ID != "evt-002" || got.Recovered != wantMsg {
		t.Errorf("memsys_append = %+v, want evt-002 and recovered %q", got, wantMsg)
	}
	if log, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md")); err != nil || !bytes.Equal(log, want) {
		t.Errorf("the log after the append:\n%s\nwant\n%s", log, want)
	}
	args["summary"], args["time"] = "Again", "2026-03-01 10:01"
	res = call(t, cs, "memsys_append", args)
	if b, _ := json.Marshal(res.StructuredContent); res.IsError || bytes.Contains(b, []byte("recovered")) {
		t.Errorf("a second append, with nothing to recover: %s %s", b, text(res))
	}
}

// TestRegenWarnings: memsys_regen gives the parse problems memsys regen
// prints on stderr (a malformed event is skipped and the files still
// written), at most ten, with their count and lint's rule ID; once the
// baseline file accepts them, none, as memsys_lint reports none.
func TestRegenWarnings(t *testing.T) {
	root := copyExample(t)
	f, err := os.OpenFile(filepath.Join(root, "CHANGELOG.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	var tail strings.Builder
	for i := range 12 {
		fmt.Fprintf(&tail, "\n### evt-%03d | 2026-13-45 99:99 | ada | fix\n\n**Scope**: api\n**Summary**: bad time %d\n\n**Refs**: none\n**Tags**: none\n\n---\n", 20+i, i)
	}
	if _, err := f.WriteString(tail.String()); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cs := connect(t, root)
	res := call(t, cs, "memsys_regen", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	var got RegenOut
	structured(t, res, &got)
	if got.Problems < 12 || len(got.Warnings) != maxRegenWarnings || !strings.HasPrefix(got.Warnings[0], "CHANGELOG.md:") {
		t.Errorf("memsys_regen on 12 malformed events = %+v, want at least 12 problems and the first %d as warnings", got, maxRegenWarnings)
	}
	if !strings.HasSuffix(got.Warnings[0], "[MS103]") {
		t.Errorf("warning %q does not end with lint's rule ID [MS103]", got.Warnings[0])
	}
	if _, err := memory.Lint(context.Background(), root, memory.LintOptions{WriteBaseline: true}); err != nil {
		t.Fatal(err)
	}
	res = call(t, cs, "memsys_regen", map[string]any{})
	got = RegenOut{}
	structured(t, res, &got)
	if res.IsError || got.Problems != 0 || len(got.Warnings) != 0 || got.Accepted < 12 {
		t.Errorf("memsys_regen after lint --write-baseline = %+v, want no problems or warnings, at least 12 accepted", got)
	}
}

// TestRegenKeepsHandKept: memsys_regen refuses, as memsys regen does, to
// replace a graph.md memsys did not write that holds a row no replay
// draws, in the tool's words, and replaces it with "force" (testscript
// regen-hand-kept, whose files this test uses).
func TestRegenKeepsHandKept(t *testing.T) {
	root := scriptFiles(t, "regen-hand-kept.txtar")
	graph := filepath.Join(root, ".memory", "graph.md")
	hand, _ := os.ReadFile(graph)
	cs := connect(t, root)
	res := call(t, cs, "memsys_regen", map[string]any{})
	msg := text(res)
	if !res.IsError || !strings.Contains(msg, "node billing") || !strings.Contains(msg, `memsys_regen with "force"`) || !strings.Contains(msg, `the CLI command "memsys adopt"`) || strings.Contains(msg, "--force") {
		t.Errorf("memsys_regen on a hand-kept graph = error %v, %q", res.IsError, msg)
	}
	if now, _ := os.ReadFile(graph); !bytes.Equal(now, hand) {
		t.Error("memsys_regen replaced the hand-kept graph.md")
	}
	res = call(t, cs, "memsys_regen", map[string]any{"force": true})
	if res.IsError {
		t.Fatal(text(res))
	}
	if now, _ := os.ReadFile(graph); bytes.Contains(now, []byte("billing")) {
		t.Error(`memsys_regen with "force" kept the hand-kept row`)
	}
}

// scriptFiles writes the files of testscript name into a new folder
// and returns it, so a test over MCP starts from the same memory as the
// command-line script.
func scriptFiles(t *testing.T, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "..", "testscripts", name))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, f := range ar.Files {
		p := filepath.Join(root, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestStatusClipsLongSummary: memsys_status quotes the last event's
// summary as memsys status does (words.Clip), in its text and in its
// structured result, so a 1 MB summary does not reach the agent whole
// twice over; memsys_show still gives it whole.
func TestStatusClipsLongSummary(t *testing.T) {
	root := copyExample(t)
	long := "Rotate keys " + strings.Repeat("x", 1<<20-64) // under the 1 MB line limit
	f, err := os.OpenFile(filepath.Join(root, "CHANGELOG.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n### evt-020 | 2026-04-08 09:00 | alice | fix\n\n**Scope**: auth\n**Summary**: %s\n", long)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, root)
	res := call(t, cs, "memsys_status", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	var st memory.StatusReport
	structured(t, res, &st)
	want := words.Clip(long)
	if st.LastEvent == nil || st.LastEvent.ID != "evt-020" || st.LastEvent.Summary != want {
		t.Errorf("structured last event: %q, want evt-020 with the summary %q", words.Clip(fmt.Sprint(st.LastEvent)), want)
	}
	if tx := text(res); !strings.Contains(tx, "| fix | "+want+"\n") || len(tx) > 4096 {
		t.Errorf("text: %d bytes, want the clipped summary %q", len(tx), want)
	}
	if b, err := json.Marshal(res.StructuredContent); err != nil || len(b) > 4096 {
		t.Errorf("structured result: %d bytes (%v)", len(b), err)
	}
	var sh memory.ShowResult
	structured(t, call(t, cs, "memsys_show", map[string]any{"id": "evt-020"}), &sh)
	if sh.Summary != long {
		t.Errorf("show: the summary is %d bytes, want %d", len(sh.Summary), len(long))
	}
}

// TestUnknownToolIsProtocolError: a call of a tool the server does not
// have is a JSON-RPC error naming it, as the MCP specification says and
// docs/agents.md promises, not a bug report: tidySchemaErrors read the
// SDK's nil result for it, and guard turned that panic into "internal
// error in memsys_nope: ... this is a bug in memsys".
func TestUnknownToolIsProtocolError(t *testing.T) {
	cs := connect(t, copyExample(t))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "memsys_nope", Arguments: map[string]any{}})
	if err == nil {
		t.Fatalf("unknown tool: result %q (isError %v), want a JSON-RPC error", text(res), res.IsError)
	}
	if msg := err.Error(); !strings.Contains(msg, `"memsys_nope"`) || strings.Contains(msg, "internal error") {
		t.Fatalf("unknown tool: error %q, want one naming the tool, not an internal error", msg)
	}
}

// TestStatusClipsLongHeading: a section after the Event Log whose
// heading is a megabyte long is quoted as memsys status's text line
// quotes it (words.Clip), in memsys_status's structured result as in
// its text; the structured result carried the heading whole.
func TestStatusClipsLongHeading(t *testing.T) {
	root := copyExample(t)
	long := "## Appendix " + strings.Repeat("y", 1<<19)
	appendFile(t, root, "CHANGELOG.md", "\n"+long+"\n")
	res := call(t, connect(t, root), "memsys_status", map[string]any{})
	if res.IsError {
		t.Fatal(text(res))
	}
	var st memory.StatusReport
	structured(t, res, &st)
	if st.AfterLog == nil || st.AfterLog.Heading != words.Clip(long) || !strings.Contains(text(res), fmt.Sprintf("section %q follows", words.Clip(long))) {
		t.Errorf("section after the log: %.200v, want the heading clipped as the text quotes it", st.AfterLog)
	}
	if b, err := json.Marshal(res.StructuredContent); err != nil || len(b) > 4096 {
		t.Errorf("structured result: %d bytes (%v)", len(b), err)
	}
}

// TestConfigErrorsAsCLI: with a .memsys.json memsys cannot use (broken
// JSON, an unknown rule), each tool refuses or answers as its command
// does: status, regen --stdout context, lint, archive and regen refuse
// with the file's line, show, log, graph, recall and append (which read
// no setting) answer. recall refused here once, but only because the
// example's graph.md is fresh and its seal was checked with the file's
// options: it answered once graph.md was stale (docs/lint.md lists it
// among the commands that work beside a broken file). The CLI's side is
// the testscripts config-broken, config-unknown-rule and
// recall-broken-config.
func TestConfigErrorsAsCLI(t *testing.T) {
	for _, c := range []struct{ name, cfg, want string }{
		{"broken JSON", "{\"archive\": {\"threshold\": 10,}\n", `memsys: .memsys.json:1: invalid character '}' looking for beginning of object key string: write valid JSON such as {"rules": {"MS117": "off"}}`},
		{"unknown rule", `{"rules": {"MS999": "off"}}`, `memsys: .memsys.json:1: unknown rule "MS999": use an ID or name that the CLI command "memsys lint --list-rules" prints`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := copyExample(t)
			if err := os.WriteFile(filepath.Join(root, ".memsys.json"), []byte(c.cfg), 0o644); err != nil {
				t.Fatal(err)
			}
			cs := connect(t, root)
			for _, s := range []struct {
				tool    string
				args    map[string]any
				refuses bool
			}{
				{"memsys_status", nil, true},
				{"memsys_context", nil, true},
				{"memsys_lint", nil, true},
				{"memsys_archive", map[string]any{"dry_run": true}, true},
				{"memsys_regen", nil, true},
				{"memsys_show", map[string]any{"id": "evt-1"}, false},
				{"memsys_log", map[string]any{"limit": 2}, false},
				{"memsys_graph", nil, false},
				{"memsys_recall", map[string]any{"entities": []string{"stripe"}}, false},
				{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y"}, false},
			} {
				res := call(t, cs, s.tool, s.args)
				if got := text(res); s.refuses && (!res.IsError || got != c.want) {
					t.Errorf("%s: error %v %q, want the error %q", s.tool, res.IsError, got, c.want)
				} else if !s.refuses && res.IsError {
					t.Errorf("%s: %s, want an answer: it reads no setting", s.tool, got)
				}
			}
		})
	}
}

// TestContextWarnsAsRegen: memsys_context, memsys regen --stdout context,
// says what that command prints on stderr beside the text: the malformed
// events the rendering skipped, as memsys_regen says them (problems,
// warnings in the agent's words). It said nothing, so an agent booting on
// a log with a conflict marker read a context.md without knowing events
// were left out. A clean log adds nothing.
func TestContextWarnsAsRegen(t *testing.T) {
	root := copyExample(t)
	cs := connect(t, root)
	res := call(t, cs, "memsys_context", nil)
	if b, _ := json.Marshal(res.StructuredContent); res.IsError || strings.Contains(string(b), `"problems"`) || strings.Contains(string(b), `"warnings"`) {
		t.Errorf("clean log: %.300s", b)
	}
	appendFile(t, root, "CHANGELOG.md", "\n<<<<<<< HEAD\n")
	var ctx ContextOut
	structured(t, call(t, cs, "memsys_context", nil), &ctx)
	var rg RegenOut
	structured(t, call(t, cs, "memsys_regen", nil), &rg)
	want := `CHANGELOG.md:297:1: unresolved merge conflict (git's "<<<<<<<" marker): finish the merge: the CLI command "memsys renumber --onto REV" resolves the log, or keep one side by hand and delete the markers [MS134]`
	if ctx.Problems != 2 || !slices.Contains(ctx.Warnings, want) || !slices.Equal(ctx.Warnings, rg.Warnings) || ctx.Problems != rg.Problems {
		t.Errorf("conflict: context %d %q; regen %d %q; want %q among them", ctx.Problems, ctx.Warnings, rg.Problems, rg.Warnings, want)
	}
}
