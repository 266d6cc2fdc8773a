package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/base/buildinfo"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
)

// Exit codes, the same for every command.
const (
	exitOK       = 0 // success
	exitFindings = 1 // findings, out of date, stale
	exitCannot   = 2 // usage or I/O error: memsys could not do its job
)

// errFindings means "exit 1, everything has been printed already", as
// shfmt's errFormattingDiffers does.
var errFindings = errors.New("findings")

// cannotRun wraps an error that must exit 2.
type cannotRun struct{ err error }

func (c cannotRun) Error() string { return c.err.Error() }
func (c cannotRun) Unwrap() error { return c.err }

// usageErr builds an exit-2 error from a format string.
func usageErr(format string, args ...any) error {
	return cannotRun{fmt.Errorf(format, args...)}
}

func main() { os.Exit(Main()) }

// Main runs memsys with os.Args and returns the exit code. It is a
// separate function so testscript can register it as a command.
func Main() int {
	// Standard output is buffered: a command printing a line per event
	// (log, show, export) would otherwise make a system call per line.
	// Whatever goes to standard error flushes it first, so the two
	// streams interleave as they would unbuffered.
	out := bufio.NewWriterSize(os.Stdout, 64<<10)
	code := run(context.Background(), os.Args, out, flushFirst{os.Stderr, out})
	if err := out.Flush(); err != nil && code == exitOK {
		fmt.Fprintf(os.Stderr, "memsys: write the output: %v\n", err)
		return exitCannot
	}
	return code
}

// flushFirst writes to w after flushing out.
type flushFirst struct {
	w   io.Writer
	out *bufio.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.out.Flush()
	return f.w.Write(p)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := newAppFor(stdout, stderr, args)
	var stopProfile func() error
	app.Before = func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
		workspace.ShortLived()
		if cmd.Bool("no-cache") {
			workspace.DisableCache()
		}
		if p := cmd.String("cpuprofile"); p != "" {
			stop, err := workspace.CPUProfile(profileSource(args), p)
			if err != nil {
				return ctx, cannotRun{err}
			}
			stopProfile = stop
		}
		return ctx, nil
	}
	err := app.Run(ctx, args)
	if stopProfile != nil {
		if perr := stopProfile(); perr != nil && err == nil {
			err = cannotRun{perr}
		}
	}
	// Paths in the message are shown from where memsys was started (or
	// -C), as lint's diagnostics are.
	base, berr := lcStart(app)
	if berr != nil {
		base = ""
	}
	return exitCode(err, base, stderr)
}

// exitCode prints err as one line (unless it is errFindings) and maps
// it to the documented exit code. A configuration file it names is
// shown relative to base (workspace.DisplayError).
func exitCode(err error, base string, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	if errors.Is(err, errFindings) {
		return exitFindings
	}
	msg := err.Error()
	if base != "" {
		msg = workspace.DisplayError(base, err)
	}
	var ec cli.ExitCoder
	if errors.As(err, &ec) {
		if msg != "" {
			fmt.Fprintln(stderr, "memsys: "+msg)
		}
		if ec.ExitCode() == exitFindings {
			return exitFindings
		}
		return exitCannot // only 0, 1 and 2 are documented
	}
	fmt.Fprintln(stderr, "memsys: "+msg)
	return exitCannot
}

// cli offers ShowCommandHelp, a package variable, as its hook for help
// on a command; set once, before any command runs.
func init() { cli.ShowCommandHelp = showCommandHelp }

// showCommandHelp is urfave/cli's ShowCommandHelp, except that help for
// a name that is no command ("memsys help nonexist") is the one-line
// usage error of an unknown command, not cli's "No help topic for
// 'nonexist'".
func showCommandHelp(ctx context.Context, cmd *cli.Command, name string) error {
	if cmd.Command(name) == nil {
		return usageErr("help: unknown command %q%s: see %s --help", words.Clip(name), didYouMean(cmd.Commands, name), cmd.FullName())
	}
	return cli.DefaultShowCommandHelp(ctx, cmd, name)
}

func newApp(stdout, stderr io.Writer) *cli.Command {
	return newAppFor(stdout, stderr, nil)
}

// command is one of memsys's commands, by name, and the function that
// builds it.
type command struct {
	name  string
	build func() *cli.Command
}

// commands are memsys's commands in the order --help lists them, each
// with the function that builds it.
var commands = []command{
	{"init", initCommand},
	{"regen", regenCommand},
	{"lint", lintCommand},
	{"append", appendCommand},
	{"status", statusCommand},
	{"archive", archiveCommand},
	{"show", showCommand},
	{"log", logCommand},
	{"graph", graphCommand},
	{"recall", recallCommand},
	{"import", importCommand},
	{"export", exportCommand},
	{"mcp", mcpCommand},
	{"audit", auditCommand},
	{"hook", hookCommand},
	{"merge-driver", mergeDriverCommand},
	{"renumber", renumberCommand},
	{"collisions", collisionsCommand},
	{"adopt", adoptCommand},
	{"version", versionCommand},
	{"loops", loopsCommand},
	{"report", reportCommand},
	{"snapshot", snapshotCommand},
}

// invoked returns the command args run when it is one of commands, else
// "" (no command, help, completion, or a name memsys does not know).
// It skips the global flags, and the value of those that take one, as
// urfave/cli parses them before the command.
func invoked(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				return known(args[i+1])
			}
			return ""
		case a == "--generate-shell-completion":
			return ""
		case strings.HasPrefix(a, "-"):
			if slices.Contains(valueFlags, strings.TrimLeft(a, "-")) && i+1 < len(args) {
				i++ // the flag's value, e.g. -C log: a folder named log
			}
		default:
			// A completion request ends args with its flag, after the
			// command it completes.
			if slices.Contains(args[i:], "--generate-shell-completion") {
				return ""
			}
			return known(a)
		}
	}
	return ""
}

// valueFlags are the global flags that take a value (TestValueFlags
// keeps the list in step with the root's flags).
var valueFlags = []string{"C", "cpuprofile"}

// profileSource names how the CPU profile's file was given, for its
// errors: a hook or agent that set MEMSYS_CPUPROFILE has no
// --cpuprofile to look for.
func profileSource(args []string) string {
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if n := strings.TrimLeft(a, "-"); n != a && (n == "cpuprofile" || strings.HasPrefix(n, "cpuprofile=")) {
			return "--cpuprofile "
		}
	}
	return "MEMSYS_CPUPROFILE="
}

// versionOnly reports whether args ask for the version and nothing
// else, which the root answers before any command is looked at.
func versionOnly(args []string) bool {
	return len(args) == 2 && (args[1] == "--version" || args[1] == "-v")
}

// configureCompletion gives urfave/cli's completion command memsys's
// one-line usage errors: it is built after the tree setUsage walks, and
// without an action of its own it answered "tcsh" with help's "unknown
// command" and a flag error with "Incorrect Usage" and a blank line.
func configureCompletion(c *cli.Command) {
	c.OnUsageError = usageOneLine
	for _, sh := range c.Commands {
		sh.OnUsageError = hookUsage
	}
	c.Action = func(ctx context.Context, cmd *cli.Command) error {
		if cmd.Args().Len() > 0 {
			return usageErr("completion: unknown shell %q: use bash, zsh, fish or pwsh", words.Clip(cmd.Args().First()))
		}
		return cli.ShowSubcommandHelp(cmd)
	}
}

// known returns name when it is one of commands, else "".
func known(name string) string {
	if slices.ContainsFunc(commands, func(c command) bool { return c.name == name }) {
		return name
	}
	return ""
}

// newAppFor is newApp for one run with args: when args name a command,
// the tree holds that command alone. Building and walking all of them,
// with their flags, is a tenth of a short command's start on a 1k
// memory (docs/benchmarks.md), and only help, completion and an unknown
// name need the others.
func newAppFor(stdout, stderr io.Writer, args []string) *cli.Command {
	app := &cli.Command{
		Name:    "memsys",
		Usage:   "keep a markdown memory system for AI agents exact, safe and fast",
		Version: buildinfo.Version(),
		// "memsys completion bash|zsh|fish|pwsh" prints the script.
		EnableShellCompletion:           true,
		ConfigureShellCompletionCommand: configureCompletion,
		Writer:                          stdout,
		ErrWriter:                       stderr,
		Flags: []cli.Flag{
			&cli.StringFlag{
				Name:  "C",
				Usage: "run as if memsys was started in `DIR` (the memory root)",
			},
			&cli.BoolFlag{
				Name:  "no-cache",
				Usage: "do not read or write the history cache (also MEMSYS_NO_CACHE=1); results are the same, only slower",
			},
			&cli.StringFlag{
				Name:    "cpuprofile",
				Usage:   "write a CPU profile of this run to `FILE` (for reports of slowness: go tool pprof memsys FILE)",
				Sources: cli.EnvVars("MEMSYS_CPUPROFILE"),
			},
		},
		// memsys prints its own one-line errors and picks exit codes;
		// the default handler would call os.Exit from inside Run.
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageErr("%s: see memsys --help", words.ClipFields(flagMessage(err.Error())))
		},
		// The root runs only when no subcommand matched.
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageErr("unknown command %q%s: see memsys --help", words.Clip(cmd.Args().First()), didYouMean(cmd.Commands, cmd.Args().First()))
			}
			return cli.ShowAppHelp(cmd)
		},
	}
	if name := invoked(args); name != "" {
		i := slices.IndexFunc(commands, func(c command) bool { return c.name == name })
		app.Commands = []*cli.Command{commands[i].build()}
	} else if !versionOnly(args) {
		for _, c := range commands {
			app.Commands = append(app.Commands, c.build())
		}
	}
	// urfave/cli does not inherit OnUsageError; every subcommand gets the
	// one-line exit-2 form instead of the default help dump.
	var setUsage func([]*cli.Command)
	setUsage = func(cmds []*cli.Command) {
		for _, c := range cmds {
			if c.OnUsageError == nil {
				c.OnUsageError = usageOneLine
			}
			setUsage(c.Commands)
		}
	}
	setUsage(app.Commands)
	return app
}
