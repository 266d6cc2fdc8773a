package lint

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// Pass is what a rule sees of one memory, and how it reports.
type Pass struct {
	Rule    *Rule
	Log     *parse.Log // nil when CHANGELOG.md is missing; set for Run, and for a Visitor's End
	Archive *parse.Log // nil when there is no archive
	Config  config.Config
	// ReadFile and Exists read the memory root; rules never touch the
	// file system themselves.
	ReadFile func(rel string) ([]byte, error)
	Exists   func(rel string) bool

	shared   *shared
	severity diag.Severity
	out      *diag.Diagnostics
}

// Report records a finding. Rule and Severity are filled in from the
// rule and the configuration.
func (p *Pass) Report(d diag.Diagnostic) {
	d.Rule = p.Rule.ID
	d.Severity = p.severity
	*p.out = append(*p.out, d)
}

// reserve makes room for n more findings at once: a rule that knows it
// will report thousands (the loop and conflict rules on a long log)
// saves growing the list a step at a time, each step a copy of it.
func (p *Pass) reserve(n int) { *p.out = slices.Grow(*p.out, n) }

// Reportf reports message at r for event (which may be ""). Arguments
// that are front.Words or front.Texts (advice naming a command) are
// worded for each front end: Message the command line's, MCP the
// tools'.
func (p *Pass) Reportf(r diag.Range, event, format string, args ...any) {
	msg, mcp := spellings(format, args)
	p.Report(diag.Diagnostic{Range: r, Event: event, Message: msg, MCP: mcp})
}

// spellings is fmt.Sprintf of format and args, and when an argument is
// worded per front end, the MCP server's wording if it differs ("" if
// not). Most findings name no command: they pay one pass over args.
func spellings(format string, args []any) (cli, mcp string) {
	cli = fmt.Sprintf(format, args...)
	for _, a := range args {
		switch a.(type) {
		case front.Word, front.Text:
			if m := front.Sprintf(format, args...).For(front.MCP); m != cli {
				return cli, m
			}
			return cli, ""
		}
	}
	return cli, ""
}

// LogFile is the log's file name as reported, even when it is missing.
func (p *Pass) LogFile() string { return p.shared.in.LogFile }

// Problems returns the parse problems of kind in the archive and the log.
func (p *Pass) Problems(kind parse.Kind) []parse.Problem {
	sh := p.shared
	if sh.problems == nil {
		sh.problems = map[parse.Kind][]parse.Problem{}
		for _, lg := range []*parse.Log{p.Archive, p.Log} {
			if lg == nil {
				continue
			}
			for _, pr := range lg.Problems {
				sh.problems[pr.Kind] = append(sh.problems[pr.Kind], pr)
			}
		}
	}
	return sh.problems[kind]
}

// Tier is the memory's tier: "full", "core" or "mvp". The configuration
// names it, else AGENTS.md declares it, else it is read from the files
// present (parse.DetectTier).
func (p *Pass) Tier() string {
	return string(parse.TierOf(p.Config.Tier, p.Exists, func() []byte {
		agents, _ := p.ReadFile(parse.AgentsFile)
		return agents
	}))
}

// headerRange is the heading line of e.
func headerRange(e *parse.Event) diag.Range { return headerOf(e.Range) }

// headerOf is the first line of an event's range.
func headerOf(r diag.Range) diag.Range {
	r.Col, r.EndLine, r.EndCol, r.EndOffset = 1, r.Line, 0, 0
	return r
}

// lineRange is line n of file.
func lineRange(file string, n int) diag.Range {
	return diag.Range{File: file, Line: n, Col: 1, EndLine: n}
}

// fieldRange is the line of e's first field named by one of keys
// (normalised), or the heading when there is none.
func fieldRange(e *parse.Event, keys ...string) diag.Range {
	for _, f := range e.Fields {
		for _, k := range keys {
			if parse.KeyIs(f.Key, k) {
				return lineRange(e.Range.File, f.Line)
			}
		}
	}
	return headerRange(e)
}

// problemRule returns a Run that reports every parse problem of the
// given kinds under the rule: the parser finds them, lint numbers them.
func problemRule(kinds ...parse.Kind) func(*Pass) {
	return func(p *Pass) {
		for _, k := range kinds {
			for _, pr := range p.Problems(k) {
				p.Report(diag.Diagnostic{Range: pr.Range, Event: pr.Event, Message: pr.Message, MCP: problemMCP(pr)})
			}
		}
	}
}

// problemMCP is pr's message as the MCP server words it, "" when that
// is Message (diag.Diagnostic.MCP).
func problemMCP(pr parse.Problem) string {
	if m := pr.MessageFor(front.MCP); m != pr.Message {
		return m
	}
	return ""
}

// where names r for a message about a finding in file: "line 12" in the
// same file, "changelog-archive.md:12" in another (paths stay root
// relative; the command relocates only the Range).
func where(r diag.Range, file string) string {
	if r.File == file {
		return "line " + strconv.Itoa(r.Line)
	}
	return r.File + ":" + strconv.Itoa(r.Line)
}
