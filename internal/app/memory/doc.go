// Package memory is the application logic of the agent lifecycle
// commands (append, archive, regen, status, show, log, graph, init) and
// of lint over one memory root (with --fix and the git revisions
// internal/app/history resolves): what cmd/memsys calls once per command
// and prints.
//
// Its decisions are pure functions on bytes and parsed logs (building
// and rendering a new event in the seed's exact format, finding the
// next event ID without a full parse, planning and verifying an archival
// move byte for byte, status verdicts, exporting the graph as Mermaid or
// DOT), tested on byte slices. The command entry points (Append,
// Archive, Regenerate, Status, Show, Log, Init, Lint) wrap them with the
// disk and the lock, which they reach only through internal/io/workspace,
// and are tested on temporary folders without the CLI.
package memory
