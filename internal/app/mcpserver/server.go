package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/app/recall"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Config is what the server needs from the command line.
type Config struct {
	Root    string        // the memory root, found as for every command
	Agent   string        // agent for appends that name none (--agent, $MEMSYS_AGENT, ...)
	Now     func() string // "YYYY-MM-DD HH:MM" for appends without a time
	Version string
}

// New returns a server with memsys's tools and resources for cfg.Root.
func New(cfg Config) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "memsys", Version: cfg.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Capabilities: &mcp.ServerCapabilities{},
	})
	h := &handlers{cfg: cfg}
	h.tools(s)
	h.resources(s)
	s.AddReceivingMiddleware(guard, tidySchemaErrors, checkArguments)
	return s
}

// guard turns a panic in a handler (a bug) into an error of one line:
// a tool error for a tool, a JSON-RPC error otherwise. The SDK does not
// recover, so one panicking call ended the server for every agent on it.
// Locks are released by the defers the panic runs on its way out.
func guard(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			what := method
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				what = r.Params.Name
			}
			msg := strings.Join(strings.Fields(fmt.Sprint(p)), " ")
			msg = fmt.Sprintf("memsys: internal error in %s: %s: this is a bug in memsys, please report it", what, msg)
			if method == "tools/call" {
				res, err = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: msg}}}, nil
				return
			}
			res, err = nil, errors.New(msg)
		}()
		return next(ctx, method, req)
	}
}

// tidySchemaErrors rewrites what the SDK's argument validation says of
// a null where the schema wants another type: the jsonschema package
// prints the null as "<invalid reflect.Value>", a Go internal, not the
// value the agent sent. It also quotes the value sent whole (a 1 MB
// string where a number belongs came back as a 1 MB error): each long
// run of it is clipped as the CLI clips its flag parser's messages
// (words.ClipFields), so the error stays one short line.
func tidySchemaErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		// A call the SDK refuses (an unknown tool) is a nil
		// *CallToolResult beside its error.
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			for _, c := range r.Content {
				if tc, ok := c.(*mcp.TextContent); ok && strings.HasPrefix(tc.Text, "validating ") {
					tc.Text = words.ClipFields(strings.ReplaceAll(tc.Text, "<invalid reflect.Value>", "null"))
				}
			}
		}
		return res, err
	}
}

// Serve runs the server on t until the client disconnects.
func Serve(ctx context.Context, cfg Config, t mcp.Transport) error {
	return New(cfg).Run(ctx, t)
}

const instructions = `memsys keeps this project's memory: CHANGELOG.md is the append-only event log, .memory/graph.md and .memory/context.md are derived from it.
Boot: memsys_status, then memsys_context. Before touching something: memsys_recall with its name. One memsys_append per action (decision, create, modify, fix, test, ...). When memsys_status says archival is due: memsys_archive, then memsys_regen. Shutdown: memsys_append (e.g. a handoff) with regen=true, or memsys_regen.`

type handlers struct{ cfg Config }

// toolErr turns an application error into the tool error result: the
// CLI's one-line message in an agent's words (front.MCP: the tool's
// parameters where the CLI names flags, tools where it names commands),
// prefixed as the CLI prints it, with a configuration file shown
// relative to the root the server serves (the -C that memsys mcp
// passes), as memsys -C ROOT would print it.
func (h *handlers) toolErr(err error) error {
	return fmt.Errorf("memsys: %s", strings.TrimPrefix(workspace.DisplayErrorFor(h.cfg.Root, err, front.MCP), "memsys: "))
}

// ContextOut is memsys_context's result.
type ContextOut struct {
	Horizon string `json:"horizon" jsonschema:"the last event the text reflects, empty for an empty log"`
	Fresh   bool   `json:"fresh" jsonschema:"true when .memory/context.md on disk is this text; false when it was stale or missing and this text was regenerated in memory"`
	Text    string `json:"text" jsonschema:"context.md"`
	// Problems, Warnings and Accepted are memsys_regen's: what memsys
	// regen --stdout context prints on stderr beside the text, the
	// malformed events the rendering skipped.
	Problems int      `json:"problems,omitempty" jsonschema:"how many parse problems the history has that memsys_lint reports (malformed events the text leaves out); memsys_lint lists them all"`
	Warnings []string `json:"warnings,omitempty" jsonschema:"the first problems (at most 10), each file:line:col: message [rule ID]"`
	Accepted int      `json:"accepted,omitempty" jsonschema:"how many more parse problems .memsys-baseline.json accepts: memsys_lint does not report them either"`
}

// RecallIn is memsys_recall's input.
type RecallIn struct {
	Entities []string `json:"entities" jsonschema:"graph node names you are about to touch; matched ignoring case, spaces, '-' and '_'"`
	Depth    *int     `json:"depth,omitempty" jsonschema:"neighbours up to this many edges away (default 1, at most 5)"`
	Budget   *int     `json:"budget,omitempty" jsonschema:"word budget of the pack (default 1500)"`
}

// ArchiveIn is memsys_archive's input: the thresholds are the
// project's (.memsys.json, else the Archival Protocol's 50 and 20), not
// the caller's.
type ArchiveIn struct {
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"report the boundary, what would move and the archive event it would append; write nothing"`
	Agent  string `json:"agent,omitempty" jsonschema:"agent of the archive event (default: the server's --agent or $MEMSYS_AGENT)"`
}

// RegenOut is memsys_regen's result.
type RegenOut struct {
	Written []string `json:"written" jsonschema:"derived files rewritten; empty when they were current"`
	// Problems and Warnings are what memsys regen prints on stderr:
	// regen skips a malformed event the same way every time and still
	// writes, so they are warnings, not an error. Like regen's, they
	// leave out what memsys_lint does not report either: the findings
	// the baseline file accepts (Accepted counts them).
	Problems int      `json:"problems,omitempty" jsonschema:"how many parse problems the history has that memsys_lint reports (malformed events regen skipped); memsys_lint lists them all"`
	Warnings []string `json:"warnings,omitempty" jsonschema:"the first problems (at most 10), each file:line:col: message [rule ID]"`
	Accepted int      `json:"accepted,omitempty" jsonschema:"how many more parse problems .memsys-baseline.json accepts: memsys_lint does not report them either"`
}

// maxRegenWarnings caps RegenOut.Warnings, as memsys regen caps the
// warnings it prints.
const maxRegenWarnings = 10

// GraphIn is memsys_graph's input.
type GraphIn struct {
	Format string   `json:"format,omitempty" jsonschema:"json (default), mermaid, md or dot"`
	Status []string `json:"status,omitempty" jsonschema:"only nodes with these statuses: active, blocked, completed, deprecated, planned"`
	At     string   `json:"at,omitempty" jsonschema:"the graph as of this event ID, e.g. evt-042, or this date (YYYY-MM-DD: the end of that day) or time (YYYY-MM-DD HH:MM): the history up to the first event dated after it"`
}

// GraphOut is memsys_graph's result: Graph for json, Text otherwise.
type GraphOut struct {
	Format string               `json:"format"`
	Graph  *memory.GraphJSONDoc `json:"graph,omitempty"`
	Text   string               `json:"text,omitempty"`
}

// AppendIn is memsys_append's input: `memsys append --json`'s object
// plus regen.
type AppendIn struct {
	Type    string `json:"type"` // described by appendSchema
	Scope   string `json:"scope" jsonschema:"the area the event affects"`
	Summary string `json:"summary" jsonschema:"one self-contained line"`
	Agent   string `json:"agent,omitempty" jsonschema:"your agent name (default: the server's --agent or $MEMSYS_AGENT)"`
	Time    string `json:"time,omitempty" jsonschema:"YYYY-MM-DD HH:MM (default: now, UTC)"`
	// Details takes both shapes append --json takes (detailsSchema).
	Details memory.DraftDetails `json:"details,omitempty"`
	Refs    []string            `json:"refs,omitempty" jsonschema:"IDs of earlier events this one follows from"`
	Tags    []string            `json:"tags,omitempty" jsonschema:"labels to find the event by, each one word (no comma)"`
	// Supersedes corrects earlier events: they leave the derived files.
	Supersedes []string `json:"supersedes,omitempty" jsonschema:"IDs of earlier events this one corrects: they leave graph.md and context.md but stay in the log"`
	Regen      bool     `json:"regen,omitempty" jsonschema:"also regenerate graph.md and context.md under the same lock"`
}

// ShowIn is memsys_show's input.
type ShowIn struct {
	ID string `json:"id" jsonschema:"the event ID, e.g. evt-042"`
	At string `json:"at,omitempty" jsonschema:"read the memory as of this event ID, or this date (YYYY-MM-DD: the end of that day) or time (YYYY-MM-DD HH:MM): the history up to the first event dated after it"`
}

// LogIn is memsys_log's input: the CLI's filters, combined with AND.
type LogIn struct {
	Entity string   `json:"entity,omitempty" jsonschema:"only events that touched this graph node (its full history)"`
	Type   []string `json:"type,omitempty" jsonschema:"only events of these types"`
	Agent  string   `json:"agent,omitempty" jsonschema:"only events by this agent"`
	Since  string   `json:"since,omitempty" jsonschema:"only events at or after YYYY-MM-DD or YYYY-MM-DD HH:MM"`
	Until  string   `json:"until,omitempty" jsonschema:"only events at or before this date (a date includes the whole day)"`
	RefsTo string   `json:"refs_to,omitempty" jsonschema:"only events whose Refs, Supersedes or a closes detail name this event ID"`
	At     string   `json:"at,omitempty" jsonschema:"read the memory as of this event ID, or this date (YYYY-MM-DD: the end of that day) or time (YYYY-MM-DD HH:MM): the history up to the first event dated after it"`
	Open   bool     `json:"open,omitempty" jsonschema:"only open loops: blockers, escalations and commitments no later event closed"`
	// Superseded lists the events a later event supersedes.
	Superseded bool `json:"superseded,omitempty" jsonschema:"only events that a later event supersedes"`
	Limit      *int `json:"limit,omitempty" jsonschema:"only the last N events that pass the filters, still oldest first (default 100)"`
}

// DefaultLogLimit is how many events memsys_log returns when the call
// sets no limit: the whole log of a long history would fill an agent's
// context window, and the newest events are the ones it asks for.
const DefaultLogLimit = 100

// LogOut is memsys_log's result.
type LogOut struct {
	Events []memory.EventLine `json:"events"`
	// Matched counts the events that passed the filters, before the
	// limit: more than len(Events) means older ones were left out.
	Matched int `json:"matched"`
}

// The tools' annotations (MCP ToolAnnotations), the hints a host reads
// to decide whether to ask the user before a call. Every tool's world is
// the memory root: none reaches an open world (OpenWorldHint false).
// Rewriting the derived files (.memory/graph.md and context.md, which
// memsys writes from the log and nobody edits) counts as additive: the
// same bytes come back from the log at any time. Archive is destructive:
// it takes events out of CHANGELOG.md, verified and kept in the archive,
// but the log is rewritten, not appended to. docs/agents.md has the table;
// TestToolAnnotations checks it.
const (
	additive, destructive = false, true
	idempotent, repeated  = true, false
)

// readOnly annotates a tool that never writes. Reading again changes
// nothing, so it is idempotent too.
func readOnly() *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}
}

// writes annotates a tool that writes in the memory root.
func writes(destructive, idempotent bool) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{DestructiveHint: new(destructive), IdempotentHint: idempotent, OpenWorldHint: new(false)}
}

func (h *handlers) tools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_status", Annotations: readOnly(),
		Description: "Boot check: tier, event counts, last event, whether graph.md and context.md are fresh, whether archival is due."},
		h.status)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_show", Annotations: readOnly(),
		Description:  "One event by ID: its text, fields, what it changed in the graph, and the events that refer to it.",
		OutputSchema: schemaFor[memory.ShowResult]()},
		h.show)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_log", Annotations: readOnly(),
		Description: "Events oldest first, one line each, filtered by entity, type, agent, date range or refs (as memsys log)."},
		h.log)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_lint", Annotations: writes(additive, idempotent),
		Description: "Check the memory against every lint rule; findings as data (rule, severity, file, line, message). Not an error when findings exist."},
		h.lint)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_context", Annotations: readOnly(),
		Description: "Read .memory/context.md, what matters now; regenerated in memory if stale. Call at boot after memsys_status."},
		h.context)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_recall", Annotations: readOnly(),
		Description: "Before touching entities: their state, provenance, neighbours, open blockers, decisions and recent events, within a word budget."},
		h.recall)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_graph", Annotations: readOnly(),
		Description: "The knowledge graph replayed from the log, as JSON, Mermaid, graph.md markdown or DOT, optionally filtered by node status."},
		h.graph)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_append", Annotations: writes(additive, repeated),
		Description: "Append one event to CHANGELOG.md (next ID, validated, under the lock); regen=true also rewrites the derived files.",
		InputSchema: appendSchema()},
		h.append)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_archive", Annotations: writes(destructive, idempotent),
		Description: "The Archival Protocol, when memsys_status says archival is due (best at a milestone): move the events before the boundary to changelog-archive.md, verified byte for byte, and append the archive event. Then call memsys_regen. dry_run=true only reports."},
		h.archive)
	mcp.AddTool(s, &mcp.Tool{Name: "memsys_regen", Annotations: writes(additive, idempotent),
		Description: "Rewrite .memory/graph.md and .memory/context.md from the log, under the lock. Call at shutdown."},
		h.regen)
}

func (h *handlers) status(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, *memory.StatusReport, error) {
	r, err := memory.Status(h.cfg.Root)
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	// The text and the structured result both advise tools, not the
	// CLI's commands and flags (TestResultsNameTools).
	var b strings.Builder
	r.WriteText(&b, front.MCP)
	return textResult(b.String()), r.For(front.MCP), nil
}

// atSent refuses an "at" sent blank, as memsys_log and the CLI's --at
// refuse it: the decoded argument cannot tell "" from a key left out,
// and would read as the whole history. The arguments are read as sent.
func atSent(req *mcp.CallToolRequest) error {
	if req == nil || req.Params == nil {
		return nil
	}
	var sent struct {
		At *string `json:"at"`
	}
	if json.Unmarshal(req.Params.Arguments, &sent) != nil || sent.At == nil {
		return nil
	}
	return memory.CheckAtGiven(*sent.At)
}

func (h *handlers) show(ctx context.Context, req *mcp.CallToolRequest, in ShowIn) (*mcp.CallToolResult, *memory.ShowResult, error) {
	if err := atSent(req); err != nil {
		return nil, nil, h.toolErr(err)
	}
	r, err := memory.Show(h.cfg.Root, in.At, in.ID)
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	// memsys show's text, not the event's alone: it says whether the
	// event is superseded and its loop open or closed.
	var b strings.Builder
	r.WriteText(&b, front.MCP)
	return textResult(b.String()), r, nil
}

// logEvents answers memsys_log: from the end of the log, with the count
// of matches over the whole history, whenever that is provably Log's
// answer (memory.LogCounted). A variable so that TestLogFastSame can
// compare the result with the whole path's.
var logEvents = memory.LogCounted

func (h *handlers) log(ctx context.Context, req *mcp.CallToolRequest, in LogIn) (*mcp.CallToolResult, LogOut, error) {
	limit := DefaultLogLimit
	if in.Limit != nil {
		if limit = *in.Limit; limit < 1 {
			return nil, LogOut{}, h.toolErr(memory.ErrLimit("limit", limit, fmt.Sprintf("the last %d, or set a larger limit for more", DefaultLogLimit)))
		}
	}
	f := memory.LogFilter{Entity: in.Entity, Types: in.Type, Agent: in.Agent,
		Since: in.Since, Until: in.Until, RefsTo: in.RefsTo, At: in.At, Open: in.Open, Superseded: in.Superseded, Limit: limit}
	// A filter sent empty ("agent": "") is refused as memsys log refuses
	// --agent '': the decoded LogIn cannot tell it from one left out, so
	// the keys are read from the arguments as sent.
	var sent map[string]json.RawMessage
	json.Unmarshal(req.Params.Arguments, &sent)
	if err := f.Check(func(in front.Input) bool { _, ok := sent[in.Param]; return ok }); err != nil {
		return nil, LogOut{}, h.toolErr(err)
	}
	evs, matched, err := logEvents(h.cfg.Root, f)
	if err != nil {
		return nil, LogOut{}, h.toolErr(err)
	}
	out := LogOut{Events: evs, Matched: matched}
	var b strings.Builder
	if matched > len(evs) {
		fmt.Fprintf(&b, "the last %d of %d events (set limit for more)\n", len(evs), matched)
	}
	for _, l := range out.Events {
		b.WriteString(l.String() + "\n")
	}
	return textResult(b.String()), out, nil
}

func (h *handlers) context(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, ContextOut, error) {
	// What memsys regen --stdout context prints.
	r, err := memory.Regenerate(h.cfg.Root, memory.RegenOptions{Stdout: "context"})
	if err != nil {
		return nil, ContextOut{}, h.toolErr(err)
	}
	h0, _ := materialize.FindHorizon(r.Output)
	out := ContextOut{Horizon: h0, Text: string(r.Output)}
	out.Problems, out.Warnings, out.Accepted = regenWarnings(r)
	// Fresh as status and lint call it: a CRLF checkout (git autocrlf)
	// of the file regen wrote is that file, not a hand edit.
	cur, err := workspace.ReadFile(h.cfg.Root, parse.ContextFile)
	out.Fresh = err == nil && bytes.Equal(bytes.ReplaceAll(cur, []byte("\r\n"), []byte("\n")), r.Output)
	return textResult(out.Text), out, nil
}

func (h *handlers) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallIn) (*mcp.CallToolResult, *recall.Pack, error) {
	q := recall.Query{Entities: in.Entities, Depth: recall.DefaultDepth, Budget: recall.DefaultBudget}
	if in.Depth != nil {
		q.Depth = *in.Depth
	}
	if in.Budget != nil {
		q.Budget = *in.Budget
	}
	p, err := recall.Recall(h.cfg.Root, q)
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	return textResult(string(recall.Markdown(p))), p, nil
}

func (h *handlers) graph(ctx context.Context, req *mcp.CallToolRequest, in GraphIn) (*mcp.CallToolResult, GraphOut, error) {
	if err := atSent(req); err != nil {
		return nil, GraphOut{}, h.toolErr(err)
	}
	format := in.Format
	if format == "" {
		format = "json"
	}
	if !slices.Contains([]string{"json", "mermaid", "md", "dot"}, format) {
		return nil, GraphOut{}, h.toolErr(fmt.Errorf("unknown format %q: use json, mermaid, md or dot", words.Clip(format)))
	}
	g, err := memory.Graph(h.cfg.Root, in.At, in.Status)
	if err != nil {
		return nil, GraphOut{}, h.toolErr(err)
	}
	out := GraphOut{Format: format}
	switch format {
	case "json":
		doc := memory.GraphJSON(g)
		out.Graph = &doc
		return nil, out, nil
	case "mermaid":
		out.Text = string(memory.Mermaid(g))
	case "dot":
		out.Text = string(memory.DOT(g))
	default:
		out.Text = string(materialize.RenderGraph(g))
	}
	return textResult(out.Text), out, nil
}

func (h *handlers) append(ctx context.Context, req *mcp.CallToolRequest, in AppendIn) (*mcp.CallToolResult, memory.AppendResult, error) {
	// The SDK hands the handler the arguments re-encoded from a map,
	// keys sorted: details sent as an object are read again from the
	// arguments as sent, so their bullets keep the agent's order (and
	// a number its digits), as append --json writes them.
	var sent struct {
		Details memory.DraftDetails `json:"details"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &sent); err == nil {
		in.Details = sent.Details
	}
	d := memory.Draft{Type: in.Type, Scope: in.Scope, Summary: in.Summary, Agent: in.Agent, Time: in.Time,
		Details: in.Details, Refs: in.Refs, Tags: in.Tags, Supersedes: in.Supersedes}
	if strings.TrimSpace(d.Agent) == "" {
		d.Agent = h.cfg.Agent
	}
	if strings.TrimSpace(d.Time) == "" && h.cfg.Now != nil {
		d.Time = h.cfg.Now()
	}
	res, err := memory.Append(h.cfg.Root, d, in.Regen, true)
	if err != nil {
		return nil, memory.AppendResult{}, h.toolErr(err)
	}
	return nil, res, nil
}

func (h *handlers) archive(ctx context.Context, _ *mcp.CallToolRequest, in ArchiveIn) (*mcp.CallToolResult, *memory.ArchiveResult, error) {
	threshold, keep, err := memory.ArchiveLimits(h.cfg.Root)
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	agent := in.Agent
	if strings.TrimSpace(agent) == "" {
		agent = h.cfg.Agent
	}
	r, err := memory.Archive(h.cfg.Root, memory.ArchiveOptions{Threshold: threshold, Keep: keep, DryRun: in.DryRun, Agent: agent})
	if err != nil {
		return nil, nil, h.toolErr(err)
	}
	var b strings.Builder
	r.WriteText(&b, front.MCP)
	return textResult(b.String()), r, nil
}

// RegenIn is memsys_regen's input.
type RegenIn struct {
	Force bool `json:"force,omitempty" jsonschema:"replace a graph.md or context.md that memsys did not write even when it holds what no replay of the log produces, dropping it; without it such a file is kept and the call fails naming what it holds (memsys adopt, a CLI command, records it as events first)"`
}

func (h *handlers) regen(ctx context.Context, _ *mcp.CallToolRequest, in RegenIn) (*mcp.CallToolResult, RegenOut, error) {
	// What memsys regen does, under the same lock.
	r, err := memory.Regenerate(h.cfg.Root, memory.RegenOptions{Force: in.Force})
	if err != nil {
		return nil, RegenOut{}, h.toolErr(err)
	}
	out := RegenOut{Written: r.Wrote}
	out.Problems, out.Warnings, out.Accepted = regenWarnings(r)
	return nil, out, nil
}

// regenWarnings is what memsys regen prints on stderr about r's history:
// how many parse problems lint reports, the first maxRegenWarnings of
// them in the agent's words (as memsys_lint gives the same findings),
// and how many the baseline accepts.
func regenWarnings(r *memory.RegenResult) (problems int, warnings []string, accepted int) {
	for _, p := range r.Problems[:min(len(r.Problems), maxRegenWarnings)] {
		msg := p.Message
		if p.MCP != "" {
			msg = p.MCP
		}
		w := p.Range.String() + ": " + msg
		if p.Rule != "" {
			w += " [" + p.Rule + "]"
		}
		warnings = append(warnings, w)
	}
	return len(r.Problems), warnings, r.Accepted
}

// textResult carries a markdown text as the tool's readable content;
// the structured result goes beside it.
func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}
