// Command memsys makes a markdown-native memory system for AI agents
// exact, safe and fast: it parses CHANGELOG.md, materializes
// .memory/graph.md and .memory/context.md, and lints the whole memory.
//
// This package is only the command line: each command reads its flags,
// makes one call into internal/app (memory, history, hook) or lint, and
// prints the result; the exit code is 0, 1 with findings, 2 when memsys
// cannot run. It holds no business logic, touches no file and runs no
// program itself (internal/testkit/archtest enforces that).
package main
