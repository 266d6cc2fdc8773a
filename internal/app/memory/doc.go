// Package memory holds the pure parts of the agent lifecycle
// commands (append, archive, status, show, log, graph): building and
// rendering a new event in the seed's exact format, finding the next
// event ID without a full parse, planning and verifying an archival
// move byte for byte, and exporting the graph as Mermaid or DOT.
//
// Nothing here touches the file system, the clock or the lock; the
// commands in cmd/memsys do that and hand bytes in and out, so every
// decision can be tested on byte slices.
package memory
