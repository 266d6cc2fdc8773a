// Package front holds the words of a message that differ between
// memsys's two front ends: the command line, where an input is a flag
// (--at) and advice names a command (memsys log), and the MCP server,
// where the same input is a tool's parameter ("at") and the same advice
// names a tool (memsys_log).
//
// The application packages return errors built with Errorf, whose
// front-dependent pieces are Words (an Input, a Command, or a phrase
// spelled twice). Error() is the command line's text, byte for byte the
// message memsys has always printed; Message renders the same error for
// another front end from its pieces, never by rewriting the text. The
// data flows one way: the application names its inputs here, and each
// front end picks its spelling (cmd/memsys prints Error(), mcpserver
// calls Message with MCP). Output that is no error but advises (status's
// "run memsys regen") is a Text, built with Sprintf from the same Words
// and worded the same way (For).
package front
