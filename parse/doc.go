// Package parse turns the bytes of an event log (CHANGELOG.md or its
// archive) into events and problems, and owns the words of the format
// that every other package uses: the event ID (id.go: parse, compare,
// format), the event types, the memory's file names and tier detection
// (layout.go).
//
// Events are read through CommonMark's block structure, so an "### evt-"
// line inside a fenced or indented code block or an HTML block is never
// an event. For speed and bounded memory the file is first normalised
// (BOM, CRLF) and cut into chunks at column-0 ATX headings that are
// provably outside any fenced code or HTML block (chunks.go). Each chunk
// then becomes a small block model (blocks.go) by one of two producers:
// the fast recogniser (fast.go), which reads the canonical event shape —
// headings, field paragraphs, "- " bullets, "---" — without building an
// AST, or, for anything else, goldmark (goldmark.go), which parses the
// chunk alone and drops its AST as soon as the blocks are extracted. The
// fuzz target FuzzFastPath checks that both give the same model. A large
// file runs block recognition on a second goroutine (pipeline.go). The
// event reader (assemble.go, fields.go) turns blocks into events; offsets
// map back to lines and original bytes in positions.go.
//
// Parse never fails: a malformed event becomes a Problem with its file
// and line, and parsing goes on. No goldmark type appears in the API.
package parse
