// Package diag holds the positions and diagnostics that parse, lint and
// the command line share. It is deliberately tiny: it knows nothing about
// markdown, rules or output formats, so every other package can import it.
package diag
