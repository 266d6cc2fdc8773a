package mcpserver

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/memsys/memsys/internal/base/front"
)

// cliOnly matches a command the message marks as the command line's
// (front.CLICommand): its flags are the shell's, not a tool's. In a
// structured result encoded as JSON its quotes are escaped.
var cliOnly = regexp.MustCompile(`the CLI command \\?"[^"\\]*\\?"`)

// cliWords are what an MCP error must not say outside such a mark: a
// flag (--at) or a command spelled for the shell (memsys log) where a
// tool (memsys_log) is meant.
var cliWords = regexp.MustCompile(`--[a-z]|\bmemsys [a-z]`)

// TestErrorsNameParameters drives every tool through the real server
// with each kind of bad input its core function refuses and checks the
// error an agent reads: it names the tool's own parameter (param, which
// must be in the tool's input schema) where the CLI names a flag, a
// tool where the CLI names a command, and no flag at all except inside
// a command marked as the CLI's. The CLI's words for the same errors
// are the testscripts'.
func TestErrorsNameParameters(t *testing.T) {
	root := copyExample(t)
	// An example whose log has a conflict marker, one without an Event
	// Log section, one with an event ID the parser refuses (archive
	// wants a clean log), one that lost its log after the server found
	// it, and one whose server has no agent to fall back on.
	conflict := copyExample(t)
	appendFile(t, conflict, "CHANGELOG.md", "\n<<<<<<< HEAD\n")
	noLog := copyExample(t)
	if err := os.WriteFile(filepath.Join(noLog, "CHANGELOG.md"), []byte("# Changelog\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	badID := copyExample(t)
	appendFile(t, badID, "CHANGELOG.md", "\n---\n\n### evt-0x1 | 2026-05-01 12:00 | a | fix\n\n**Scope**: x\n**Summary**: y\n\n**Refs**: none\n**Tags**: none\n")
	// One whose log has evt-003 before evt-002: archive refuses it.
	badOrder := copyExample(t)
	swapIDs(t, badOrder, "evt-002", "evt-003")
	if err := os.WriteFile(filepath.Join(badOrder, ".memsys.json"), []byte(`{"archive": {"threshold": 10, "keep": 5}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := copyExample(t)
	noRegen := copyExample(t) // graph.md is a folder: the append's regen fails
	if err := os.Remove(filepath.Join(noRegen, ".memory", "graph.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(noRegen, ".memory", "graph.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	// One whose baseline file is damaged: lint cannot say which
	// findings are new.
	badBaseline := copyExample(t)
	if err := os.WriteFile(filepath.Join(badBaseline, ".memsys-baseline.json"), []byte("{\n  \"version\": 1,\n  \"findings\": [\n    {\"rule\": 7}\n  ]\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// One whose .memsys.json sets a rule memsys does not have: lint
	// refuses it, advising the CLI command that lists the rules.
	badRule := copyExample(t)
	if err := os.WriteFile(filepath.Join(badRule, ".memsys.json"), []byte(`{"rules": {"MS999": "off"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	noAgent := copyExample(t)
	archiveDue := []byte(`{"archive": {"threshold": 10, "keep": 5}}`)
	if err := os.WriteFile(filepath.Join(noAgent, ".memsys.json"), archiveDue, 0o644); err != nil {
		t.Fatal(err)
	}
	sessions := map[string]*mcp.ClientSession{
		root: connect(t, root), conflict: connect(t, conflict), noLog: connect(t, noLog), badID: connect(t, badID), badOrder: connect(t, badOrder),
		gone: connect(t, gone), noRegen: connect(t, noRegen), noAgent: connectAs(t, noAgent, ""), badBaseline: connect(t, badBaseline),
		badRule: connect(t, badRule),
	}
	if err := os.Remove(filepath.Join(gone, "CHANGELOG.md")); err != nil {
		t.Fatal(err)
	}
	fix := func(args map[string]any) map[string]any {
		out := map[string]any{"type": "fix", "scope": "x", "summary": "y"}
		for k, v := range args {
			out[k] = v
		}
		return out
	}
	for _, tc := range []struct {
		root  string
		tool  string
		args  map[string]any
		param string // the parameter the error is about ("": none, the tool's state)
		want  string
	}{
		{badBaseline, "memsys_lint", nil, "", `.memsys-baseline.json:4: `},
		{badBaseline, "memsys_lint", nil, "", `: rewrite it with the CLI command "memsys lint --write-baseline"`},
		{badRule, "memsys_lint", nil, "", `memsys: .memsys.json:1: unknown rule "MS999": use an ID or name that the CLI command "memsys lint --list-rules" prints`},
		{root, "memsys_append", fix(map[string]any{"type": ""}), "type", `missing event type: pass the "type" parameter, one of decision,`},
		{root, "memsys_append", fix(map[string]any{"type": "bogus"}), "type", `unknown event type "bogus"`},
		{root, "memsys_append", fix(map[string]any{"scope": " "}), "scope", `missing scope: pass the "scope" parameter with the area`},
		{root, "memsys_append", fix(map[string]any{"summary": ""}), "summary", `missing summary: pass the "summary" parameter with a one-line`},
		{noAgent, "memsys_append", fix(nil), "agent", `missing agent: pass the "agent" parameter`},
		{root, "memsys_append", fix(map[string]any{"agent": "a|b"}), "agent", `agent "a|b" contains '|'`},
		{root, "memsys_append", fix(map[string]any{"summary": "two\nlines"}), "details", `summary "two\nlines" spans several lines: keep it on one line and put the rest in the "details" parameter`},
		{root, "memsys_append", fix(map[string]any{"time": "yesterday"}), "time", `time "yesterday" is not "YYYY-MM-DD HH:MM"`},
		{root, "memsys_append", fix(map[string]any{"time": "2026-05-01"}), "time", `time "2026-05-01" has no time of day`},
		{root, "memsys_append", fix(map[string]any{"refs": []string{"evt-999"}}), "refs", `refs "evt-999" names no event in the log or the archive`},
		{root, "memsys_append", fix(map[string]any{"refs": []string{"seven"}}), "refs", `refs "seven" is not an event ID`},
		{root, "memsys_append", fix(map[string]any{"supersedes": []string{"evt-999"}}), "supersedes", `supersedes "evt-999" names no event`},
		{root, "memsys_append", fix(map[string]any{"tags": []string{"a,b"}}), "tags", `tag "a,b" contains a comma`},
		{root, "memsys_append", fix(map[string]any{"summary": "a\x00b"}), "summary", `summary "a\x00b" contains the control character U+0000: remove it`},
		{conflict, "memsys_append", fix(nil), "", `(the CLI command "memsys renumber --onto REV" resolves the log)`},
		{noLog, "memsys_append", fix(nil), "", `add the line "## Event Log" at the end of the file`},
		{gone, "memsys_append", fix(nil), "", `run the CLI command "memsys init" to create the memory, or start the server in the memory's folder`},
		{noRegen, "memsys_append", fix(map[string]any{"regen": true}), "", `was appended; regenerating the derived files failed: `},
		{noRegen, "memsys_lint", map[string]any{"fix": true}, "fix", `memsys: memsys_lint with "fix": .memory/graph.md: is a directory`},
		{gone, "memsys_status", nil, "", `run the CLI command "memsys init"`},
		{gone, "memsys_regen", nil, "", `run the CLI command "memsys init"`},
		{gone, "memsys_context", nil, "", `run the CLI command "memsys init"`},

		{root, "memsys_show", map[string]any{"id": "seven"}, "id", `id "seven" is not an event ID: write evt-NNN`},
		{root, "memsys_show", map[string]any{"id": "evt-0"}, "id", `id "evt-0" is not an event ID: numbering starts at evt-001`},
		{root, "memsys_show", map[string]any{"id": "evt-99999999999"}, "id", `id "evt-99999999999" is not an event ID: it has 11 digits, at most 9 are allowed`},
		{root, "memsys_append", fix(map[string]any{"refs": []string{"evt-000"}}), "refs", `refs "evt-000" is not an event ID: numbering starts at evt-001`},
		{root, "memsys_show", map[string]any{"id": "evt-999"}, "id", `id "evt-999": no such event in CHANGELOG.md or the archive: memsys_log lists the events`},
		{root, "memsys_show", map[string]any{"id": "evt-1", "at": "x"}, "at", `at "x" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"`},
		{root, "memsys_show", map[string]any{"id": "evt-1", "at": "evt-500"}, "at", `at "evt-500": no such event`},
		{root, "memsys_show", map[string]any{"id": "evt-9", "at": "evt-5"}, "at", `id "evt-9" comes after at evt-005: name an event up to evt-005, or drop the "at" parameter`},

		{root, "memsys_log", map[string]any{"at": "evt-500"}, "at", `at "evt-500": no such event`},
		{root, "memsys_log", map[string]any{"type": []string{"bogus"}}, "type", `type "bogus": unknown event type`},
		{root, "memsys_log", map[string]any{"since": "last week"}, "since", `since "last week" is not a date`},
		{root, "memsys_log", map[string]any{"until": "soon"}, "until", `until "soon" is not a date`},
		{root, "memsys_log", map[string]any{"entity": "nothing"}, "entity", `unknown entity "nothing": no such node in the graph: memsys_graph lists the nodes`},
		// The same misspelt name, the same sentence from both tools
		// (materialize.UnknownEntity).
		{root, "memsys_log", map[string]any{"entity": "paymnts_api"}, "entity", `unknown entity "paymnts_api": no such node in the graph; nearest: "payments_api": memsys_graph lists the nodes`},
		{root, "memsys_log", map[string]any{"refs_to": "x"}, "refs_to", `refs_to "x" is not an event ID`},
		{root, "memsys_log", map[string]any{"refs_to": "evt-9", "at": "evt-5"}, "refs_to", `refs_to "evt-9" comes after at evt-005: name an event up to evt-005, or drop the "at" parameter`},
		{root, "memsys_log", map[string]any{"limit": 0}, "limit", `limit 0: must be at least 1`},
		{root, "memsys_log", map[string]any{"agent": ""}, "agent", `agent is empty: give it a value, or leave the parameter out`},
		{root, "memsys_log", map[string]any{"type": []string{" "}}, "type", `type is empty: give it a value, or leave the parameter out`},

		{root, "memsys_graph", map[string]any{"status": []string{"done"}}, "status", `status "done": unknown status`},
		{root, "memsys_graph", map[string]any{"at": "x"}, "at", `at "x" is neither an event ID nor a date: write evt-NNN, YYYY-MM-DD or "YYYY-MM-DD HH:MM"`},
		{root, "memsys_graph", map[string]any{"at": "evt-500"}, "at", `at "evt-500": no such event`},
		{root, "memsys_graph", map[string]any{"format": "svg"}, "format", `unknown format "svg"`},

		{root, "memsys_recall", map[string]any{"entities": []string{}}, "entities", `recall needs at least one entity, e.g. memsys_recall with "entities": ["auth_module"]`},
		{root, "memsys_recall", map[string]any{"entities": []string{" "}}, "entities", `entity " " is empty`},
		{root, "memsys_recall", map[string]any{"entities": []string{"paymnts_api"}}, "entities", `unknown entity "paymnts_api": no such node in the graph; nearest: "payments_api": memsys_graph lists the nodes`},
		{root, "memsys_recall", map[string]any{"entities": []string{"stripe"}, "depth": 9}, "depth", `depth 9: use 0 to 5`},
		{root, "memsys_recall", map[string]any{"entities": []string{"stripe"}, "budget": 0}, "budget", `budget 0: give a positive number of words`},

		{noAgent, "memsys_archive", map[string]any{}, "agent", `missing agent: pass the "agent" parameter`},
		{noAgent, "memsys_archive", map[string]any{"agent": "a|b"}, "agent", `agent "a|b" contains '|'`},
		{badID, "memsys_archive", map[string]any{}, "", `fix the log (memsys_lint) before archiving`},
		{badOrder, "memsys_archive", map[string]any{"dry_run": true}, "", `evt-002 comes after evt-003 (line 26), and archive takes the events at the top of the log as the oldest: move evt-002 back to its place in ascending ID order (lint: MS109), then run memsys_archive again`},
		{badOrder, "memsys_archive", map[string]any{}, "", `then run memsys_archive again`},
	} {
		name := tc.tool + " " + filepath.Base(tc.root)
		cs := sessions[tc.root]
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Errorf("%s %v: protocol error %v, want a tool error", name, tc.args, err)
			continue
		}
		msg := text(res)
		if !res.IsError {
			t.Errorf("%s %v: succeeded, want an error: %s", name, tc.args, msg)
			continue
		}
		if testing.Verbose() {
			t.Logf("%s: %s", name, msg)
		}
		if !strings.HasPrefix(msg, "memsys: ") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s %v:\n got %q\nwant it to contain %q", name, tc.args, msg, tc.want)
		}
		if w := cliWords.FindString(cliOnly.ReplaceAllString(msg, "")); w != "" {
			t.Errorf("%s %v: %q says %q, the command line's words", name, tc.args, msg, w)
		}
		if tc.param != "" && !hasParam(t, cs, tc.tool, tc.param) {
			t.Errorf("%s: no parameter %q, which the error names", tc.tool, tc.param)
		}
	}
	for _, r := range []string{root, conflict, noAgent} {
		if b, _ := os.ReadFile(filepath.Join(r, "CHANGELOG.md")); strings.Contains(string(b), "**Summary**: y\n") {
			t.Errorf("%s: a refused append was written", r)
		}
	}
}

// hasParam reports whether tool's input schema has the property param.
func hasParam(t *testing.T, cs *mcp.ClientSession, tool, param string) bool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range res.Tools {
		if x.Name != tool {
			continue
		}
		props, _ := x.InputSchema.(map[string]any)["properties"].(map[string]any)
		_, ok := props[param]
		return ok
	}
	return false
}

// swapIDs swaps the IDs of the headings of events a and b in root's
// log, which puts them out of order.
func swapIDs(t *testing.T, root, a, b string) {
	t.Helper()
	p := filepath.Join(root, "CHANGELOG.md")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("### "+a+" |", "### "+b+" |", "### "+b+" |", "### "+a+" |")
	if err := os.WriteFile(p, []byte(r.Replace(string(src))), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, root, name, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(root, name), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestFrontCommandsAreTools: every tool that front's commands name in
// advice is one this server offers, and every parameter they name with
// it (memsys loops is memsys_log with "open") one that tool takes, so an
// agent told "memsys_log lists the events" can call it. front.Commands
// is every command advice names, errors and results alike.
func TestFrontCommandsAreTools(t *testing.T) {
	cs := connect(t, copyExample(t))
	for _, c := range front.Commands {
		if c.Tool == "" {
			if c.Param != "" {
				t.Errorf("%s: parameter %q without a tool", c.CLI, c.Param)
			}
			continue
		}
		if !slices.Contains(Tools, c.Tool) {
			t.Errorf("%s: advice names tool %q, which the server does not offer", c.CLI, c.Tool)
		} else if c.Param != "" && !hasParam(t, cs, c.Tool, c.Param) {
			t.Errorf("%s: advice names %s with %q, which it does not take", c.CLI, c.Tool, c.Param)
		}
	}
	if !slices.ContainsFunc(front.Commands, func(c front.Command) bool { return c.Param != "" }) {
		t.Error("no command with a parameter: the check above checks none")
	}
}

// TestSchemaErrorNamesNull: a parameter sent as null where the schema
// wants a string is refused by the SDK, whose message said
// `<invalid reflect.Value> has type "null"`, a Go internal, not the
// value the agent sent.
func TestSchemaErrorNamesNull(t *testing.T) {
	cs := connect(t, copyExample(t))
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"memsys_append", map[string]any{"type": nil, "scope": "x", "summary": "y"}, `/properties/type: type: null has type "null", want "string"`},
		{"memsys_show", map[string]any{"id": "evt-001", "at": nil}, `/properties/at: type: null has type "null", want "string"`},
	} {
		res := call(t, cs, tc.tool, tc.args)
		msg := text(res)
		if !res.IsError || !strings.Contains(msg, tc.want) || strings.Contains(msg, "reflect") || strings.Contains(msg, "\n") {
			t.Errorf("%s %v: %q, want one line with %q", tc.tool, tc.args, msg, tc.want)
		}
	}
}

// TestSchemaErrorsClipped: an argument the SDK's validation refuses is
// quoted back as an excerpt (words.ClipFields, as the CLI clips its
// flag parser's messages): a 1 MB string where a number, a list or
// nothing belongs came back whole in the error, a megabyte into the
// agent's context.
func TestSchemaErrorsClipped(t *testing.T) {
	cs := connect(t, copyExample(t))
	big := strings.Repeat("x", 1<<20)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"memsys_log", map[string]any{"limit": big}, `has type "string", want one of "null, integer"`},
		{"memsys_recall", map[string]any{"entities": []string{"stripe"}, "depth": big}, `has type "string", want one of "null, integer"`},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", "tags": big}, `has type "string", want one of "null, array"`},
		{"memsys_append", map[string]any{"type": "fix", "scope": "x", "summary": "y", big: 1}, `unexpected additional properties`},
	} {
		res := call(t, cs, c.tool, c.args)
		msg := text(res)
		if !res.IsError || len(msg) > 400 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "xxx…") {
			t.Errorf("%s: error %v, %d bytes: %.200q, want a short line with %q and the value clipped", c.tool, res.IsError, len(msg), msg, c.want)
		}
	}
}

// TestAppendRefusalsWriteNothing: each log memsys append refuses to add
// to (a torn last event, no "## Event Log" section, a section after the
// last event, a conflict marker), and a draft it refuses (an unknown
// type), memsys_append refuses with append's advice, as a tool error,
// and leaves every file as it was, the derived files included when the
// call asks for regen.
func TestAppendRefusalsWriteNothing(t *testing.T) {
	for _, c := range []struct {
		name, tail string // what the log ends in
		replace    bool   // the log is tail alone
		args       map[string]any
		want       string
	}{
		{"torn", "\n---\n\n### evt-020 | 2026-04-08 09:00 | a | fix\n\n**Scope**: co", false, nil,
			`memsys: CHANGELOG.md:299: the last event is cut short: the file ends mid-line ("**Scope**: co") and it has no **Summary**, as an append interrupted by a crash or power loss leaves it: delete it (line 299 to the end of the file) or complete it, then append again`},
		{"no Event Log", "# Changelog\n\nrelease notes\n", true, nil,
			`memsys: CHANGELOG.md: no "## Event Log" section: add the line "## Event Log" at the end of the file (events are read only below it), then run this again`},
		{"appendix", "\n## Appendix\n\nnotes\n", false, nil,
			`memsys: CHANGELOG.md:297: section "## Appendix" follows the Event Log: move it above "## Event Log" so events can be appended at the end`},
		{"conflict", "\n<<<<<<< HEAD\n", false, nil,
			`memsys: CHANGELOG.md:297: unresolved merge conflict marker: an event appended now would land inside the conflict: finish the merge first (the CLI command "memsys renumber --onto REV" resolves the log), then append`},
		{"bad type", "", false, map[string]any{"type": "deploy"}, `memsys: unknown event type "deploy": use one of decision, create,`},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := copyExample(t)
			if c.replace {
				if err := os.WriteFile(filepath.Join(root, "CHANGELOG.md"), []byte(c.tail), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if c.tail != "" {
				appendFile(t, root, "CHANGELOG.md", c.tail)
			}
			before := os.DirFS(root)
			want := map[string][]byte{}
			for _, f := range []string{"CHANGELOG.md", ".memory/graph.md", ".memory/context.md"} {
				b, err := fs.ReadFile(before, f)
				if err != nil {
					t.Fatal(err)
				}
				want[f] = b
			}
			args := map[string]any{"type": "fix", "scope": "x", "summary": "y", "regen": true}
			for k, v := range c.args {
				args[k] = v
			}
			res := call(t, connect(t, root), "memsys_append", args)
			if msg := text(res); !res.IsError || !strings.HasPrefix(msg, c.want) {
				t.Errorf("error %v %q, want the error %q", res.IsError, msg, c.want)
			}
			for f, b := range want {
				if got, err := os.ReadFile(filepath.Join(root, f)); err != nil || string(got) != string(b) {
					t.Errorf("%s changed (%v)", f, err)
				}
			}
		})
	}
}
