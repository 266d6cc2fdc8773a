package front

import (
	"fmt"
	"strconv"
)

// Front is who reads a message: a person or script at the command
// line, or an agent calling an MCP tool.
type Front int

const (
	// CLI is memsys's command line: flags and commands.
	CLI Front = iota
	// MCP is memsys-mcp: tool parameters and tool names.
	MCP
)

// Word is a piece of a message that each front end spells its own way.
// In a format its %s (String) is the command line's spelling, so an
// error's Error() text is the CLI's.
type Word struct{ CLI, MCP string }

// String is the command line's spelling.
func (w Word) String() string { return w.CLI }

// For is w as front f spells it.
func (w Word) For(f Front) string {
	if f == MCP {
		return w.MCP
	}
	return w.CLI
}

// Input is one input of a command: Flag as the command line spells it
// ("--at"), Param as the MCP tool's argument is named ("at").
type Input struct{ Flag, Param string }

// Name is the input as the subject of a message, before the value it
// was given: --time "x" on the command line, time "x" over MCP.
func (in Input) Name() Word { return Word{CLI: in.Flag, MCP: in.Param} }

// Ref is the input in advice (pass it, drop it): --at on the command
// line, the "at" parameter over MCP.
func (in Input) Ref() Word {
	return Word{CLI: in.Flag, MCP: "the " + strconv.Quote(in.Param) + " parameter"}
}

// Command is a command that advice names: CLI as typed at the command
// line ("memsys log"), Tool the MCP tool that does the same ("" when
// only the command line can: the advice then says it is a CLI command).
type Command struct{ CLI, Tool string }

// Word is c in advice: the command, or over MCP its tool, else the
// command marked as the command line's.
func (c Command) Word() Word {
	if c.Tool != "" {
		return Word{CLI: c.CLI, MCP: c.Tool}
	}
	return Word{CLI: c.CLI, MCP: CLICommand(c.CLI)}
}

// With is c with arguments ("memsys renumber" with "--onto REV"); its
// tool takes none, since a tool's arguments are parameters.
func (c Command) With(args string) Command {
	return Command{CLI: c.CLI + " " + args, Tool: c.Tool}
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
)

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
	args := make([]any, len(e.args))
	for i, a := range e.args {
		switch a := a.(type) {
		case Word:
			args[i] = a.For(f)
		case error:
			args[i] = spelled{msg: Message(a, f), err: a}
		default:
			args[i] = a
		}
	}
	return fmt.Errorf(e.format, args...).Error()
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
