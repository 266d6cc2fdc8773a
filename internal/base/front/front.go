package front

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Front is who reads a message: a person or script at the command
// line, or an agent calling an MCP tool.
type Front int

const (
	// CLI is memsys's command line: flags and commands.
	CLI Front = iota
	// MCP is memsys-mcp: tool parameters and tool names.
	MCP
	// JSON is the command line reading an event as a JSON object
	// (memsys append --json -): an input is a key of the object, since
	// the flags cannot be combined with --json; advice still names
	// commands as the command line does.
	JSON
)

// Word is a piece of a message that each front end spells its own way.
// In a format its %s (String) is the command line's spelling, so an
// error's Error() text is the CLI's. JSON is empty but for an input
// (the key that carries it); the JSON front otherwise speaks the CLI's
// words.
type Word struct{ CLI, MCP, JSON string }

// String is the command line's spelling.
func (w Word) String() string { return w.CLI }

// For is w as front f spells it.
func (w Word) For(f Front) string {
	switch {
	case f == MCP:
		return w.MCP
	case f == JSON && w.JSON != "":
		return w.JSON
	}
	return w.CLI
}

// Input is one input of a command: Flag as the command line spells it
// ("--at"), Param as the MCP tool's argument is named ("at").
type Input struct{ Flag, Param string }

// Name is the input as the subject of a message, before the value it
// was given: --time "x" on the command line, time "x" over MCP.
func (in Input) Name() Word { return Word{CLI: in.Flag, MCP: in.Param, JSON: in.Param} }

// Ref is the input in advice (pass it, drop it): --at on the command
// line, the "at" parameter over MCP, the "at" key in a JSON object.
func (in Input) Ref() Word {
	return Word{CLI: in.Flag, MCP: "the " + strconv.Quote(in.Param) + " parameter", JSON: "the " + strconv.Quote(in.Param) + " key"}
}

// Command is a command that advice names: CLI as typed at the command
// line ("memsys log"), Tool the MCP tool that does the same ("" when
// only the command line can: the advice then says it is a CLI command),
// and Param the tool's parameter that makes it do so, when the tool
// does more than the command ("memsys loops" is memsys_log with "open").
type Command struct{ CLI, Tool, Param string }

// Word is c in advice: the command, or over MCP its tool (with its
// parameter), else the command marked as the command line's.
func (c Command) Word() Word {
	if c.Tool != "" {
		return Word{CLI: c.CLI, MCP: c.tool()}
	}
	return Word{CLI: c.CLI, MCP: CLICommand(c.CLI)}
}

// tool is the MCP side of a command a tool does.
func (c Command) tool() string {
	if c.Param != "" {
		return c.Tool + " with " + strconv.Quote(c.Param)
	}
	return c.Tool
}

// With is c with arguments ("memsys renumber" with "--onto REV"); its
// tool takes none, since a tool's arguments are parameters.
func (c Command) With(args string) Command {
	return Command{CLI: c.CLI + " " + args, Tool: c.Tool, Param: c.Param}
}

// Flag is c with the boolean input in set: "memsys archive --dry-run"
// on the command line, memsys_archive with "dry_run" over MCP. Advice
// sets one flag of a command that has no parameter of its own.
func (c Command) Flag(in Input) Command {
	return Command{CLI: c.CLI + " " + in.Flag, Tool: c.Tool, Param: in.Param}
}

// Short is c in a message that has named memsys already: "lint --fix"
// on the command line (the program's name left out); over MCP the same
// as Word, since a tool's name is whole.
func (c Command) Short() Word {
	w := c.Word()
	w.CLI = strings.TrimPrefix(c.CLI, "memsys ")
	return w
}

// CLICommand is how an MCP message names a command that no tool does:
// quoted, after "the CLI command", so an agent knows to run it in a
// shell (its flags belong to the command line, not to a tool).
func CLICommand(line string) string { return "the CLI command " + strconv.Quote(line) }

// The commands that errors reachable from the MCP tools advise.
var (
	Archive  = Command{CLI: "memsys archive", Tool: "memsys_archive"}
	Graph    = Command{CLI: "memsys graph", Tool: "memsys_graph"}
	Lint     = Command{CLI: "memsys lint", Tool: "memsys_lint"}
	Log      = Command{CLI: "memsys log", Tool: "memsys_log"}
	Recall   = Command{CLI: "memsys recall", Tool: "memsys_recall"}
	Regen    = Command{CLI: "memsys regen", Tool: "memsys_regen"}
	Init     = Command{CLI: "memsys init"}
	Renumber = Command{CLI: "memsys renumber"}
	Adopt    = Command{CLI: "memsys adopt"}
	// Loops is memsys loops, which over MCP is memsys_log's "open"
	// filter: the same loops, oldest first (TestOpenLoopsAgree).
	Loops = Command{CLI: "memsys loops", Tool: "memsys_log", Param: "open"}
	// LintFix is memsys lint --fix, memsys_lint with "fix" over MCP.
	LintFix = Lint.Flag(Input{Flag: "--fix", Param: "fix"})
	// WriteBaseline is memsys lint --write-baseline, which no tool does:
	// the baseline is committed, a decision for the team, not an agent.
	WriteBaseline = Command{CLI: "memsys lint --write-baseline"}
	// ListRules is memsys lint --list-rules, which no tool does: the
	// advice for an unknown rule in .memsys.json, which memsys_lint
	// refuses as lint does.
	ListRules = Command{CLI: "memsys lint --list-rules"}
)

// Commands are the commands above, for the tests that check that each
// tool they name is one the server offers.
var Commands = []Command{Archive, Graph, Lint, Log, Recall, Regen, Init, Renumber, Adopt, Loops, LintFix, WriteBaseline, ListRules}

// Speller is an error that can word itself for a front end.
type Speller interface {
	error
	// For is the message as front f words it; For(CLI) is Error().
	For(f Front) string
}

// Message is err's text for front f: err's own wording when it is a
// Speller, else its Error(). A Speller wrapped by an error that is
// none speaks the command line's words: wrap with Errorf to keep them.
func Message(err error, f Front) string {
	if s, ok := err.(Speller); ok {
		return s.For(f)
	}
	return err.Error()
}

// Error is an error whose text has front-dependent pieces: Words (or
// Inputs and Commands, as their Word) and wrapped errors, themselves
// rendered for the front that reads them.
type Error struct {
	format string
	args   []any
	cli    error // fmt.Errorf's result: the CLI text, and what %w wraps
}

// Errorf is fmt.Errorf whose arguments may be Words: the error's text
// is the command line's, and Message words it for another front end.
// %w wraps as fmt.Errorf does (errors.Is and As see through it).
func Errorf(format string, args ...any) error {
	return &Error{format: format, args: args, cli: fmt.Errorf(format, args...)}
}

// Error is the command line's text.
func (e *Error) Error() string { return e.cli.Error() }

// Unwrap returns the errors the format wrapped with %w.
func (e *Error) Unwrap() []error {
	switch u := e.cli.(type) {
	case interface{ Unwrap() []error }:
		return u.Unwrap()
	case interface{ Unwrap() error }:
		return []error{u.Unwrap()}
	}
	return nil
}

// For is the message as front f words it.
func (e *Error) For(f Front) string {
	if f == CLI {
		return e.Error()
	}
	return fmt.Errorf(e.format, spell(e.args, f)...).Error()
}

// spell is args as front f words them: Words and Texts in f's words,
// errors as their Message (still errors, so that %w formats them).
func spell(args []any, f Front) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case Word:
			out[i] = a.For(f)
		case Text:
			out[i] = a.For(f)
		case error:
			out[i] = spelled{msg: Message(a, f), err: a}
		default:
			out[i] = a
		}
	}
	return out
}

// spelled is a wrapped error as one front end words it, still an error
// so that %w formats it.
type spelled struct {
	msg string
	err error
}

func (s spelled) Error() string { return s.msg }
func (s spelled) Unwrap() error { return s.err }

var _ Speller = (*Error)(nil)

// Text is output that is no error but advises all the same (status's
// "run memsys regen"): a format whose front-dependent pieces are Words,
// Texts or errors, worded for whoever reads it, never by rewriting the
// command line's text.
type Text struct {
	format string
	args   []any
}

// Sprintf is fmt.Sprintf whose arguments may be Words, Texts or
// errors: String is the command line's text, For another front's.
func Sprintf(format string, args ...any) Text { return Text{format: format, args: args} }

// String is the command line's text, exactly fmt.Sprintf's.
func (t Text) String() string { return t.For(CLI) }

// For is the text as front f words it.
func (t Text) For(f Front) string {
	if f == CLI {
		// A Word or Text formats as its CLI spelling by itself; an
		// error as its Error(), which is the CLI's text.
		return fmt.Sprintf(t.format, t.args...)
	}
	return fmt.Sprintf(t.format, spell(t.args, f)...)
}

// Fprintf writes Sprintf(format, args...) to w as front f words it.
func Fprintf(w io.Writer, f Front, format string, args ...any) {
	io.WriteString(w, Sprintf(format, args...).For(f))
}
