package front

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

var inAt = Input{Flag: "--at", Param: "at"}

func TestErrorf(t *testing.T) {
	inner := Errorf("%s %q: no such event: %s lists the events", inAt.Name(), "evt-9", Log.Word())
	wrapped := Errorf("show: %w; or drop %s", inner, inAt.Ref())
	for _, tc := range []struct {
		err      error
		cli, mcp string
	}{
		{inner,
			`--at "evt-9": no such event: memsys log lists the events`,
			`at "evt-9": no such event: memsys_log lists the events`},
		// A wrapped error is worded for the same front as its wrapper.
		{wrapped,
			`show: --at "evt-9": no such event: memsys log lists the events; or drop --at`,
			`show: at "evt-9": no such event: memsys_log lists the events; or drop the "at" parameter`},
		// A command no tool does is named as the command line's.
		{Errorf("finish the merge (%s resolves the log)", Renumber.With("--onto REV").Word()),
			`finish the merge (memsys renumber --onto REV resolves the log)`,
			`finish the merge (the CLI command "memsys renumber --onto REV" resolves the log)`},
		// Not a Speller: the text as it is, for every front.
		{fmt.Errorf("plain: %w", inner),
			`plain: --at "evt-9": no such event: memsys log lists the events`,
			`plain: --at "evt-9": no such event: memsys log lists the events`},
		// Verbs other than %s format as fmt does.
		{Errorf("%s %d: use 0 to %d", Input{"--depth", "depth"}.Name(), 9, 5), "--depth 9: use 0 to 5", "depth 9: use 0 to 5"},
	} {
		if got := tc.err.Error(); got != tc.cli {
			t.Errorf("Error() = %q, want %q", got, tc.cli)
		}
		if got := Message(tc.err, CLI); got != tc.cli {
			t.Errorf("Message(CLI) = %q, want %q", got, tc.cli)
		}
		if got := Message(tc.err, MCP); got != tc.mcp {
			t.Errorf("Message(MCP) = %q, want %q", got, tc.mcp)
		}
	}
}

// TestErrorfIsCLIText: Error() is exactly fmt.Errorf's text with the
// command line's words, so the CLI's messages do not change.
func TestErrorfIsCLIText(t *testing.T) {
	got := Errorf("missing event type: pass %s, one of %s", Input{"--type", "type"}.Ref(), "a, b").Error()
	want := fmt.Errorf("missing event type: pass --type, one of %s", "a, b").Error()
	if got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

// TestErrorfWraps: %w wraps as fmt.Errorf does, whichever front words
// the message, so errors.Is still finds fs.ErrNotExist.
func TestErrorfWraps(t *testing.T) {
	err := Errorf("CHANGELOG.md: no such file: run %s%w", Init.Word(), fs.ErrNotExist)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("errors.Is(err, fs.ErrNotExist) = false")
	}
	if !errors.Is(Errorf("outer: %w", err), fs.ErrNotExist) {
		t.Error("through a second Errorf: errors.Is = false")
	}
	if got, want := Message(err, MCP), `CHANGELOG.md: no such file: run the CLI command "memsys init"file does not exist`; got != want {
		t.Errorf("Message(MCP) = %q, want %q", got, want)
	}
	if err := Errorf("no wrap %s", Log.Word()); len(err.(*Error).Unwrap()) != 0 {
		t.Errorf("Unwrap of an error that wraps nothing: %v", err.(*Error).Unwrap())
	}
}

// TestText: output that advises is worded like an error: the command
// line's text is fmt.Sprintf's, and over MCP each Word, Text and error
// argument is the tool's (a command with a parameter names it).
func TestText(t *testing.T) {
	dryRun := Input{Flag: "--dry-run", Param: "dry_run"}
	for _, tc := range []struct {
		text     Text
		cli, mcp string
	}{
		{Sprintf("open loops: %d: %s lists them", 2, Loops.Word()),
			"open loops: 2: memsys loops lists them",
			`open loops: 2: memsys_log with "open" lists them`},
		{Sprintf("run %s (%s names them)", Archive.Word(), Archive.Flag(dryRun).Short()),
			"run memsys archive (archive --dry-run names them)",
			`run memsys_archive (memsys_archive with "dry_run" names them)`},
		// A Text inside a Text, and an error, in the same front's words.
		{Sprintf("stale: %s; %s", Sprintf("run %s", Regen.Word()), Errorf("fix the log (%s)", Lint.Word())),
			"stale: run memsys regen; fix the log (memsys lint)",
			"stale: run memsys_regen; fix the log (memsys_lint)"},
		{Sprintf("%s first", Adopt.Word()), "memsys adopt first", `the CLI command "memsys adopt" first`},
		{Sprintf("%d%%", 5), "5%", "5%"},
	} {
		if got := tc.text.String(); got != tc.cli {
			t.Errorf("String() = %q, want %q", got, tc.cli)
		}
		if got := tc.text.For(CLI); got != tc.cli {
			t.Errorf("For(CLI) = %q, want %q", got, tc.cli)
		}
		if got := tc.text.For(MCP); got != tc.mcp {
			t.Errorf("For(MCP) = %q, want %q", got, tc.mcp)
		}
		var b strings.Builder
		Fprintf(&b, MCP, "%s", tc.text)
		if b.String() != tc.mcp {
			t.Errorf("Fprintf(MCP) = %q, want %q", b.String(), tc.mcp)
		}
	}
}

// TestCommandShort: Short leaves out the program's name on the command
// line only; a tool's name is whole. lint --fix is how memsys has
// always said it.
func TestCommandShort(t *testing.T) {
	got := Lint.Flag(Input{Flag: "--fix", Param: "fix"}).Short()
	if want := (Word{CLI: "lint --fix", MCP: `memsys_lint with "fix"`}); got != want {
		t.Errorf("Short = %+v, want %+v", got, want)
	}
	if got := Renumber.With("--onto REV").Short(); got.CLI != "renumber --onto REV" || got.MCP != `the CLI command "memsys renumber --onto REV"` {
		t.Errorf("Short of a CLI-only command = %+v", got)
	}
}

// TestJSONFront: an event read as a JSON object names its keys where the
// command line names flags (which cannot be combined with --json), and
// otherwise speaks the command line's words: commands stay commands.
func TestJSONFront(t *testing.T) {
	scope := Input{Flag: "--scope", Param: "scope"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Errorf("missing scope: pass %s with the area", scope.Ref()), `missing scope: pass the "scope" key with the area`},
		{Errorf("%s %q is not a time", Input{"--time", "time"}.Name(), "noon"), `time "noon" is not a time`},
		{Errorf("%s lists the events", Log.Word()), `memsys log lists the events`},
		{Errorf("fix it (%s)", missingWord), `fix it (--agent or set MEMSYS_AGENT)`},
	} {
		if got := Message(tc.err, JSON); got != tc.want {
			t.Errorf("Message(JSON) = %q, want %q", got, tc.want)
		}
	}
}

// missingWord is a phrase spelled for two fronts only: the JSON front
// takes the command line's.
var missingWord = Word{CLI: "--agent or set MEMSYS_AGENT", MCP: `the "agent" parameter`}
