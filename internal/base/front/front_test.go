package front

import (
	"errors"
	"fmt"
	"io/fs"
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
