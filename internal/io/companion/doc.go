// Package companion finds and starts a companion program of memsys, a
// second binary installed beside it (memsys-mcp). memsys keeps such
// programs apart so that the code only they need (the MCP SDK and its
// net/http, encoding/gob, oauth2 ...) is not linked into, and
// initialised by, every memsys command: on a 1k-event log that
// start-up was most of a command's cost.
//
// It is the only package besides gitx that starts a program; cmd/memsys
// may not (internal/testkit/archtest).
package companion
