package lint

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"sync"

	"github.com/memsys/memsys/internal/config"
	"github.com/memsys/memsys/internal/diag"
	"github.com/memsys/memsys/parse"
)

// Input is one memory as read from disk by the caller.
type Input struct {
	// LogFile is the log's path as reported when the log is missing
	// (Log is nil); usually "CHANGELOG.md".
	LogFile string
	Log     *parse.Log // CHANGELOG.md as parsed; nil when missing
	Archive *parse.Log // the archive file as parsed; nil when none
	// Events are the archive's events, then the log's: the whole
	// history in file order.
	Events []parse.Event
	// ReadFile reads a file relative to the memory root. A missing file
	// gives an error satisfying errors.Is(err, fs.ErrNotExist).
	ReadFile func(rel string) ([]byte, error)
	// Exists reports whether a file or folder exists, relative to the
	// memory root.
	Exists func(rel string) bool
	// Check may call ReadFile and Exists from more than one goroutine.
}

// Linter runs the registered rules with severities from a configuration.
type Linter struct {
	cfg config.Config
	sev map[string]diag.Severity
}

// New resolves the rule settings of cfg, then overrides (typically from
// the command line, which wins over the file). An unknown rule is an
// error naming where it was written.
func New(cfg config.Config, overrides ...config.RuleSetting) (*Linter, error) {
	l := &Linter{cfg: cfg, sev: map[string]diag.Severity{}}
	for _, r := range registry {
		l.sev[r.ID] = r.DefaultLevel()
	}
	for i, s := range append(append([]config.RuleSetting(nil), cfg.Rules...), overrides...) {
		r := Lookup(s.Rule)
		if r == nil {
			where := "--rule"
			if i < len(cfg.Rules) {
				where = fmt.Sprintf("%s:%d", cfg.File, s.Line)
			}
			return nil, fmt.Errorf("%s: unknown rule %q: use an ID or name that memsys lint --list-rules prints", where, s.Rule)
		}
		l.sev[r.ID] = s.Severity
	}
	return l, nil
}

// Config returns the configuration the linter was built with.
func (l *Linter) Config() config.Config { return l.cfg }

// Severity returns the effective severity of rule id (Off when unknown).
func (l *Linter) Severity(id string) diag.Severity { return l.sev[id] }

// Adjust applies the configured severities to diagnostics produced
// outside the rules' Run functions (the git checks): switched-off rules
// are dropped, the others take their configured severity.
func (l *Linter) Adjust(ds diag.Diagnostics) diag.Diagnostics {
	out := ds[:0:0]
	for _, d := range ds {
		if d.Rule != "" {
			if _, known := registry[d.Rule]; known {
				d.Severity = l.sev[d.Rule]
				if d.Severity == diag.Off {
					continue
				}
			}
		}
		out = append(out, d)
	}
	return out
}

// Check runs every enabled rule over in and returns the findings sorted
// as every printer prints them.
func (l *Linter) Check(in Input) diag.Diagnostics {
	if in.LogFile == "" {
		in.LogFile = "CHANGELOG.md"
		if in.Log != nil {
			in.LogFile = in.Log.File
		}
	}
	if in.ReadFile == nil {
		in.ReadFile = func(string) ([]byte, error) { return nil, fs.ErrNotExist }
	}
	if in.Exists == nil {
		in.Exists = func(rel string) bool { _, err := in.ReadFile(rel); return err == nil }
	}
	in.ReadFile = memoRead(in.ReadFile)
	sh := &shared{in: &in, cfg: l.cfg, horizons: map[string]horizonAt{}}
	var early sync.WaitGroup
	if p := (&Pass{Events: in.Events, Config: l.cfg, ReadFile: in.ReadFile, shared: sh}); l.drifts(p) {
		// The drift rules will need what regen would write: replay and
		// render, the largest single cost of lint on a long log. Start
		// it now, beside the rules that read only the events; the drift
		// rules wait for it.
		early.Go(func() { p.expected(GraphFile) })
	}
	defer early.Wait()
	var ds diag.Diagnostics
	for _, r := range Rules() {
		sev := l.sev[r.ID]
		if r.Run == nil || sev == diag.Off {
			continue
		}
		p := &Pass{
			Rule: r, Log: in.Log, Archive: in.Archive, Events: in.Events,
			Config: l.cfg, ReadFile: in.ReadFile, Exists: in.Exists,
			shared: sh, severity: sev, out: &ds,
		}
		r.Run(p)
	}
	ds.Sort()
	return ds
}

// memoRead returns read, remembering each file's result: the staleness,
// drift and early checks all read the derived files, which are large
// for a long log.
func memoRead(read func(string) ([]byte, error)) func(string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	var mu sync.Mutex
	seen := map[string]result{}
	return func(rel string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		r, ok := seen[rel]
		if !ok {
			r.b, r.err = read(rel)
			seen[rel] = r
		}
		return r.b, r.err
	}
}

// drifts reports whether a drift rule (MS204, MS205) will compare a
// derived file with what regen writes: the rule is on and the file is
// there and not stale, as checkDrift decides.
func (l *Linter) drifts(p *Pass) bool {
	for _, f := range []struct{ rule, rel string }{{"MS204", GraphFile}, {"MS205", ContextFile}} {
		if l.sev[f.rule] == diag.Off {
			continue
		}
		if src, err := p.ReadFile(f.rel); err == nil && !isStale(p, f.rel, src) {
			return true
		}
	}
	return false
}

// Pass is what a rule sees of one memory, and how it reports.
type Pass struct {
	Rule    *Rule
	Log     *parse.Log // nil when CHANGELOG.md is missing
	Archive *parse.Log // nil when there is no archive
	Events  []parse.Event
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

// Reportf reports message at r for event (which may be "").
func (p *Pass) Reportf(r diag.Range, event, format string, args ...any) {
	p.Report(diag.Diagnostic{Range: r, Event: event, Message: fmt.Sprintf(format, args...)})
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
// names it, or it is read from the files present: TODO.md or graph.md
// mean full, .memory/ or context.md mean core.
func (p *Pass) Tier() string {
	if p.Config.Tier != "" {
		return p.Config.Tier
	}
	switch {
	case p.Exists(TodoFile) || p.Exists(GraphFile):
		return "full"
	case p.Exists(MemoryDir) || p.Exists(ContextFile):
		return "core"
	}
	return "mvp"
}

// Files of a memory root, as the seed's Deployed Structure names them.
const (
	MemoryDir   = ".memory"
	GraphFile   = ".memory/graph.md"
	ContextFile = ".memory/context.md"
	TodoFile    = "TODO.md"
	AgentsFile  = "AGENTS.md"
)

// shared holds what several rules compute once per memory.
type shared struct {
	in       *Input
	cfg      config.Config
	problems map[parse.Kind][]parse.Problem
	first    map[int]int // event number -> index of its first event
	// horizons remembers horizon() per derived file; files are read
	// through memoRead, so a file's bytes never change during a Check.
	horizons map[string]horizonAt

	// The derived files are computed once, on whichever goroutine asks
	// first (Check may start them early).
	derivedOnce sync.Once
	derived     map[string][]byte
}

// firstIndex maps each event number to the index of the first event
// with it, built once for the rules that need it (refs, duplicates).
func (p *Pass) firstIndex() map[int]int {
	sh := p.shared
	if sh.first == nil {
		sh.first = make(map[int]int, len(p.Events))
		for i := range p.Events {
			if n := p.Events[i].Num; n > 0 {
				if _, ok := sh.first[n]; !ok {
					sh.first[n] = i
				}
			}
		}
	}
	return sh.first
}

// headerRange is the heading line of e.
func headerRange(e *parse.Event) diag.Range {
	r := e.Range
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

// refNum reads the number of an event ID such as "evt-017"; 0 if none.
func refNum(id string) int {
	if len(id) < 5 || !strings.EqualFold(id[:4], "evt-") {
		return 0
	}
	n, err := strconv.Atoi(id[4:])
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// problemRule returns a Run that reports every parse problem of the
// given kinds under the rule: the parser finds them, lint numbers them.
func problemRule(kinds ...parse.Kind) func(*Pass) {
	return func(p *Pass) {
		for _, k := range kinds {
			for _, pr := range p.Problems(k) {
				p.Report(diag.Diagnostic{Range: pr.Range, Event: pr.Event, Message: pr.Message})
			}
		}
	}
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
