// Package parse turns the bytes of an event log (CHANGELOG.md or its
// archive) into events and problems.
//
// Events are read through goldmark's block structure, so an "### evt-"
// line inside a fenced or indented code block or an HTML block is never
// an event. For speed and bounded memory the file is first cut into
// chunks at column-0 ATX headings that are provably outside any fenced
// code or HTML block (see chunkStarts), and each chunk is parsed by
// goldmark on its own; a chunk's AST is dropped as soon as its events
// are extracted.
//
// Parse never fails: a malformed event becomes a Problem with its file
// and line, and parsing goes on. No goldmark type appears in the API.
package parse
