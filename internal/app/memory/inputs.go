package memory

import "github.com/memsys/memsys/internal/base/front"

// The inputs that this package's errors name, as memsys's flags and as
// the MCP tools' parameters (mcpserver's TestErrorsNameParameters calls
// every tool with bad input and checks that the parameter named is the
// tool's own).
var (
	inType    = front.Input{Flag: "--type", Param: "type"}
	inScope   = front.Input{Flag: "--scope", Param: "scope"}
	inSummary = front.Input{Flag: "--summary", Param: "summary"}
	inTime    = front.Input{Flag: "--time", Param: "time"}
	inDetail  = front.Input{Flag: "--detail", Param: "details"}
	inAt      = front.Input{Flag: "--at", Param: "at"}
	inLimit   = front.Input{Flag: "--limit", Param: "limit"}
	inRefsTo  = front.Input{Flag: "--refs-to", Param: "refs_to"}
	inEntity  = front.Input{Flag: "--entity", Param: "entity"}
	inStatus  = front.Input{Flag: "--status", Param: "status"}
	inSince   = front.Input{Flag: "--since", Param: "since"}
	inUntil   = front.Input{Flag: "--until", Param: "until"}
	inAgent   = front.Input{Flag: "--agent", Param: "agent"}
	inLintFix = front.LintFix.Short()
	// inRegenForce is memsys regen --force, memsys_regen with "force".
	inRegenForce = front.Regen.Flag(front.Input{Flag: "--force", Param: "force"})
	// inDryRun is memsys archive's --dry-run, memsys_archive's dry_run.
	inDryRun   = front.Input{Flag: "--dry-run", Param: "dry_run"}
	missingAgt = front.Word{CLI: "--agent or set MEMSYS_AGENT", MCP: `the "agent" parameter`}
	// eventArg is memsys show's argument, memsys_show's "id".
	eventArg = front.Word{CLI: "event", MCP: "id"}
	// refWord names one of an append's refs: "ref" as the CLI has always
	// said it, the "refs" parameter's name over MCP.
	refWord = front.Word{CLI: "ref", MCP: "refs"}
)
