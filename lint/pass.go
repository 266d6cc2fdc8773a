package lint

import (
	"fmt"
	"io/fs"
	"strconv"
	"sync"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/pipe"
	"github.com/memsys/memsys/materialize"
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
	// Derive makes a Session replay the events even when no drift rule
	// needs it, so Derived has the files for lint --fix.
	Derive bool
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
// as every printer prints them. It is a Session fed with in.Events.
func (l *Linter) Check(in Input) diag.Diagnostics {
	s := l.Start(in)
	for i := range in.Events {
		s.Event(&in.Events[i])
	}
	return s.Finish(in.Log, in.Archive)
}

// A Session lints one memory whose history arrives one event at a time,
// as parse.Stream hands it over, so the events need not be kept: the
// rules that look across events keep only what they need (IDs seen,
// refs not yet resolved, the previous timestamp), and the drift rules'
// replay runs as the events pass. Start it, pass each event of the
// archive then the log to Event, and call Finish once.
type Session struct {
	l        *Linter
	in       *Input
	sh       *shared
	ds       diag.Diagnostics
	visitors []visiting
	replay   *materialize.Replayer // nil when no drift rule compares
	// work runs the visitors and the replay on a second goroutine, so
	// they overlap with the parser that feeds Event.
	work *pipe.Worker[*parse.Event]
}

type visiting struct {
	p *Pass
	v Visitor
}

// RenderOptions returns the options graph.md and context.md are rendered
// with under cfg. It is the one conversion from the configuration to
// materialize's options, so lint's drift check and regen render with the
// same numbers.
func RenderOptions(cfg config.Config) materialize.Options {
	return materialize.Options{
		ContextWords: cfg.ContextWords,
		WindowHours:  cfg.WindowHours,
		WindowEvents: cfg.WindowEvents,
	}
}

// Start begins a Session over in; in.Log, in.Archive and in.Events are
// not read (Finish takes the logs once parsed).
func (l *Linter) Start(in Input) *Session {
	if in.LogFile == "" {
		in.LogFile = parse.LogFile
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
	s := &Session{l: l, in: &in, sh: &shared{in: &in, cfg: l.cfg, horizons: map[string]horizonAt{}}}
	if in.Derive || l.sev["MS204"] != diag.Off && in.Exists(GraphFile) || l.sev["MS205"] != diag.Off && in.Exists(ContextFile) {
		s.replay = materialize.NewReplayer(RenderOptions(l.cfg))
	}
	for _, r := range Rules() {
		if sev := l.sev[r.ID]; r.Visit != nil && sev != diag.Off {
			p := s.pass(r, sev)
			s.visitors = append(s.visitors, visiting{p, r.Visit(p)})
		}
	}
	s.work = pipe.Start(256, s.visit)
	return s
}

func (s *Session) pass(r *Rule, sev diag.Severity) *Pass {
	return &Pass{
		Rule: r, Config: s.l.cfg, ReadFile: s.in.ReadFile, Exists: s.in.Exists,
		shared: s.sh, severity: sev, out: &s.ds,
	}
}

// Event checks the next event of the history. The Session may read e
// until Finish returns (the rules run behind, on their own goroutine),
// so the caller must not change it; parse.Stream never does.
func (s *Session) Event(e *parse.Event) { s.work.Add(e) }

func (s *Session) visit(e *parse.Event) {
	sh := s.sh
	if e.Num > 0 {
		sh.first.add(e.Num, firstSeen{pos: int32(sh.count), line: int32(e.Range.Line), offset: int64(e.Range.Offset), file: e.Range.File})
	}
	if e.Range.File == s.in.LogFile {
		sh.logEvents++
	}
	sh.pos = sh.count
	for _, v := range s.visitors {
		v.v.Event(e)
	}
	if s.replay != nil {
		s.replay.Apply(e)
	}
	sh.count++
	sh.last = e.ID
}

// Finish runs the rules that look at the memory as a whole, with log
// and archive as parsed (either may be nil), and returns every finding,
// sorted as the printers print them.
func (s *Session) Finish(log, archive *parse.Log) diag.Diagnostics {
	s.work.Wait()
	s.in.Log, s.in.Archive = log, archive
	if s.replay != nil {
		graph, context := s.replay.Render()
		s.sh.derived = map[string][]byte{GraphFile: graph, ContextFile: context}
	}
	for _, v := range s.visitors {
		v.p.Log, v.p.Archive = log, archive
		if v.v.End != nil {
			v.v.End()
		}
	}
	for _, r := range Rules() {
		if sev := s.l.sev[r.ID]; r.Run != nil && sev != diag.Off {
			p := s.pass(r, sev)
			p.Log, p.Archive = log, archive
			r.Run(p)
		}
	}
	s.ds.Sort()
	return s.ds
}

// Events is the number of events the Session has seen.
func (s *Session) Events() int { return s.sh.count }

// Derived returns what regen would write for the events seen, when the
// Session replayed them (a drift rule compared, or Input.Derive); nil
// otherwise. Valid after Finish.
func (s *Session) Derived() (graph, context []byte) {
	return s.sh.derived[GraphFile], s.sh.derived[ContextFile]
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
	return string(parse.DetectTier(p.Exists))
}

// Files of a memory root (parse owns the names).
const (
	MemoryDir   = parse.MemoryDir
	GraphFile   = parse.GraphFile
	ContextFile = parse.ContextFile
	TodoFile    = parse.TodoFile
	AgentsFile  = parse.AgentsFile
)

// shared holds what several rules compute once per memory, and where
// the Session is in the history.
type shared struct {
	in       *Input
	cfg      config.Config
	problems map[parse.Kind][]parse.Problem
	// horizons remembers horizon() per derived file; files are read
	// through memoRead, so a file's bytes never change during a Check.
	horizons map[string]horizonAt
	derived  map[string][]byte // what regen writes, after Finish

	first     firstIndex // event number -> its first event so far
	pos       int        // position of the event being visited
	count     int        // events seen
	logEvents int        // of which in the log (not the archive)
	last      string     // ID of the last event seen
}

// firstSeen is where the first event with a number is, as the refs and
// duplicate rules need it.
type firstSeen struct {
	pos, line int32
	offset    int64
	file      string
}

// at is the heading line of the event.
func (f firstSeen) at() diag.Range {
	return diag.Range{File: f.file, Line: int(f.line), Col: 1, EndLine: int(f.line), Offset: int(f.offset)}
}

// firstIndex maps event numbers to their first event. Numbers are
// nearly dense (1, 2, 3, ...), so they index a slice, 32 bytes an
// event; a number far beyond the count (evt-99999999) goes to a map,
// so a typo cannot make the slice huge.
type firstIndex struct {
	dense  []firstSeen // index n; pos -1 where no event has n yet
	sparse map[int]firstSeen
}

func (x *firstIndex) get(n int) (firstSeen, bool) {
	if n < len(x.dense) {
		f := x.dense[n]
		return f, f.pos >= 0
	}
	f, ok := x.sparse[n]
	return f, ok
}

// add records f for n unless n already has its first event.
func (x *firstIndex) add(n int, f firstSeen) {
	if _, ok := x.get(n); ok {
		return
	}
	if n < 2*len(x.dense)+1024 {
		for len(x.dense) <= n {
			x.dense = append(x.dense, firstSeen{pos: -1})
		}
		x.dense[n] = f
		return
	}
	if x.sparse == nil {
		x.sparse = map[int]firstSeen{}
	}
	x.sparse[n] = f
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
