package main

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/memsys/memsys/internal/app/mcpserver"
	"github.com/memsys/memsys/internal/testkit/usercache"
)

var update = flag.Bool("u", false, "update testscript golden files in place")

func TestMain(m *testing.M) {
	// The in-process tests' memories outside a repository keep their
	// history caches in a folder of their own, not the user's.
	testscript.Main(usercache.Isolated(m), map[string]func(){
		"memsys": func() { os.Exit(Main()) },
		// memsys mcp finds memsys-mcp beside itself, as go install
		// leaves them (testscript puts both in one folder on PATH).
		"memsys-mcp": func() { os.Exit(mcpserver.Main(context.Background(), os.Args[1:], os.Stderr)) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testscripts",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}
