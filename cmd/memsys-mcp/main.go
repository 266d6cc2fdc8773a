// Command memsys-mcp serves a memsys memory to an agent host over the
// Model Context Protocol on stdio. `memsys mcp` runs it; hosts may also
// register it directly. It is a program of its own so that memsys
// commands do not link the MCP SDK (internal/app/mcpserver.Program).
package main

import (
	"context"
	"os"

	"github.com/memsys/memsys/internal/app/mcpserver"
)

func main() {
	os.Exit(mcpserver.Main(context.Background(), os.Args[1:], os.Stderr))
}
