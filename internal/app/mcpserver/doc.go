// Package mcpserver serves a memory over the Model Context Protocol
// (`memsys mcp`), so an agent host can give an agent memsys's commands
// as tools and the memory files as resources.
//
// Every tool calls the same application function as the command of the
// same name (internal/app/memory, recall, lint, ...): the same
// validation, the same messages, the same lock and atomic writes. An
// error becomes an MCP error result carrying the CLI's message; the
// server keeps serving. Nothing is cached between calls: each call
// reads the files as they are, so an event another process appended a
// moment ago is seen by the next call.
package mcpserver
