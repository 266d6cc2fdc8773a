package mcpserver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/buildinfo"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
)

// Program is the name of the MCP server's own binary. It is apart from
// memsys so that no memsys command links or initialises the MCP SDK
// (net/http, encoding/gob, oauth2 ...): that start-up cost every
// command ~7 ms, more than git status takes.
const Program = "memsys-mcp"

// Main is memsys-mcp: `memsys-mcp [-C DIR] [--agent NAME] [--no-cache]
// [--cpuprofile FILE]` serves the
// memory on stdin and stdout until stdin ends. `memsys mcp` starts it
// with the root it found and the agent it picked. args exclude the
// program name. It returns the exit code: 0, or 2 when it cannot run
// (one line on stderr).
func Main(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet(Program, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // a bad flag gets one line, below; -h the usage
	dir := fs.String("C", "", "serve the memory rooted at `DIR` (default: found from the working directory, as memsys does)")
	agent := fs.String("agent", "", "agent `NAME` for appends that name none (default $MEMSYS_AGENT, else $USER, else \"agent\")")
	noCache := fs.Bool("no-cache", false, "do not read or write the history cache (also MEMSYS_NO_CACHE=1); results are the same, only slower")
	profile := fs.String("cpuprofile", os.Getenv("MEMSYS_CPUPROFILE"), "write a CPU profile of the session to `FILE` when stdin ends (also MEMSYS_CPUPROFILE)")
	version := fs.Bool("version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "usage: %s [-C DIR] [--agent NAME] [--no-cache] [--cpuprofile FILE]\nserve a memsys memory to an agent host over the Model Context Protocol (stdio)\n", Program)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return 0
		}
		fmt.Fprintf(stderr, "%s: %v: see %s -h\n", Program, err, Program)
		return 2
	}
	if *version {
		fmt.Fprintf(os.Stdout, "%s version %s\n", Program, buildinfo.Version())
		return 0
	}
	if *noCache {
		workspace.DisableCache()
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "%s: %v\n", Program, err)
		return 2
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("%s takes no arguments, got %q", Program, words.Clip(fs.Arg(0))))
	}
	// A name no heading can hold would fail every append that names
	// no agent: refuse it now, not on the agent's first write.
	if err := memory.CheckDefaultAgent(*agent); err != nil {
		return fail(err)
	}
	root, explicit := *dir, true
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fail(err)
		}
		root, explicit = wd, false
	}
	root, err := workspace.FindRoot(root, explicit)
	if err != nil {
		return fail(err)
	}
	stop := func() error { return nil }
	if *profile != "" {
		// memsys mcp passes its own --cpuprofile on: its exec into this
		// program discards the profile memsys had started, so the
		// session's profile is written here.
		if stop, err = workspace.CPUProfile("--cpuprofile ", *profile); err != nil {
			return fail(err)
		}
	}
	cfg := Config{Root: root, Agent: memory.DefaultAgent(*agent), Now: memory.Now, Version: "dev"}
	err = ServeStdio(ctx, cfg)
	if perr := stop(); err == nil {
		err = perr
	}
	if err != nil {
		return fail(err)
	}
	return 0
}
