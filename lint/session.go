package lint

import (
	"io/fs"
	"sync"
	"sync/atomic"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/pipe"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

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
	// replayEvent and hashEvent are replay's two halves
	// (Replayer.Split): the replay runs on a goroutine of its own, the
	// source digest beside the visitors, which have the least to do.
	replayEvent, hashEvent func(*parse.Event)
	// work runs the visitors on a goroutine of their own, and
	// replaying runs the replay on another, so both overlap with the
	// parser that feeds Event and with each other: at 100k events the
	// replay alone costs about as much as the parse, and the visitors
	// behind it on one goroutine made that goroutine the longest.
	work      *pipe.Worker[*parse.Event]
	replaying *pipe.Worker[*parse.Event] // nil when replay is nil
	drained   bool                       // work and replaying have seen every event (drain)
	// taken counts the events passed to Event; visited and replayed
	// those work and replaying have finished with (see Returned).
	taken             int
	visited, replayed atomic.Int64
}

type visiting struct {
	p *Pass
	v Visitor
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
	if in.Derive || l.sev["MS204"] != diag.Off && in.Exists(parse.GraphFile) || l.sev["MS205"] != diag.Off && in.Exists(parse.ContextFile) ||
		l.sev["MS127"] != diag.Off || l.sev["MS128"] != diag.Off {
		s.replay = materialize.NewReplayer(RenderOptions(l.cfg))
	}
	for _, r := range Rules() {
		if sev := l.sev[r.ID]; r.Visit != nil && sev != diag.Off {
			p := s.pass(r, sev)
			s.visitors = append(s.visitors, visiting{p, r.Visit(p)})
		}
	}
	s.work = pipe.Start(256, s.visit)
	if s.replay != nil {
		s.replayEvent, s.hashEvent = s.replay.Split()
		// replayEvent is read when the events arrive, not now: Resume
		// replaces it before the first one.
		s.replaying = pipe.Start(256, func(e *parse.Event) {
			s.replayEvent(e)
			s.replayed.Add(1)
		})
	}
	return s
}

func (s *Session) pass(r *Rule, sev diag.Severity) *Pass {
	return &Pass{
		Rule: r, Config: s.l.cfg, ReadFile: s.in.ReadFile, Exists: s.in.Exists,
		shared: s.sh, severity: sev, out: &s.ds,
	}
}

// Expect tells the Session's replay which Supersedes fields the
// history holds, before the first event (materialize.Replayer.Expect).
func (s *Session) Expect(edges []parse.Supersession) {
	if s.replay != nil {
		s.replay.Expect(edges)
	}
}

// Reserve tells the Session's replay the size in bytes of the history
// (log and archive) before the first event (materialize.Replayer.Reserve).
func (s *Session) Reserve(size int) {
	if s.replay != nil {
		s.replay.Reserve(size)
	}
}

// Event checks the next event of the history. The Session may read e
// until Returned counts it, at the latest when Finish returns (the
// rules run behind, on their own goroutines), so the caller must not
// change it before; parse.Stream changes it only then, and only with
// parse.Reuse(s).
func (s *Session) Event(e *parse.Event) {
	s.taken++
	s.work.Add(e)
	if s.replaying != nil {
		s.replaying.Add(e)
	}
}

// Taken is the number of events passed to Event (parse.Returner).
func (s *Session) Taken() int { return s.taken }

// Returned is the number of the first events passed to Event that the
// rules and the replay have finished with: no rule and no replay keeps
// an event, only what it read from it, so a stream with parse.Reuse(s)
// may put later events in their memory.
func (s *Session) Returned() int {
	n := s.visited.Load()
	if s.replaying != nil {
		n = min(n, s.replayed.Load())
	}
	return int(n)
}

func (s *Session) visit(e *parse.Event) {
	sh := s.sh
	if e.Num > 0 {
		sh.first.add(e.Num, sh.first.seen(sh.count, e))
	}
	if e.Range.File == s.in.LogFile {
		sh.logEvents++
	}
	sh.pos = sh.count
	if sp, ok := parse.SupersessionOf(e); ok {
		sh.sups = append(sh.sups, supEdge{sp: sp, pos: sh.count, at: supersedesAt(e)})
	}
	for _, v := range s.visitors {
		v.v.Event(e)
	}
	if s.hashEvent != nil {
		s.hashEvent(e)
	}
	sh.count++
	sh.last = e.ID
	s.visited.Add(1)
}

// Finish runs the rules that look at the memory as a whole, with log
// and archive as parsed (either may be nil), and returns every finding,
// sorted as the printers print them.
func (s *Session) Finish(log, archive *parse.Log) diag.Diagnostics {
	s.drain()
	s.in.Log, s.in.Archive = log, archive
	if s.replay != nil {
		if !s.replay.Exact() && s.in.Restream != nil {
			x := materialize.NewReplayer(RenderOptions(s.l.cfg))
			x.Expect(s.replay.Seen())
			if err := s.in.Restream(func(e *parse.Event) { x.Apply(e) }); err == nil {
				s.replay = x
			}
		}
		s.sh.replayed = s.replay
		s.sh.graph = s.replay.Graph()
		s.sh.wants = map[string]bool{
			parse.GraphFile:   s.l.sev["MS204"] != diag.Off && s.in.Exists(parse.GraphFile),
			parse.ContextFile: s.l.sev["MS205"] != diag.Off && s.in.Exists(parse.ContextFile),
		}
	}
	for _, v := range s.visitors {
		v.p.Log, v.p.Archive = log, archive
		if v.v.End != nil {
			v.v.End()
		}
	}
	for _, r := range Rules() {
		if sev := s.l.sev[r.ID]; r.Run != nil && !r.Git && sev != diag.Off {
			p := s.pass(r, sev)
			p.Log, p.Archive = log, archive
			r.Run(p)
		}
	}
	s.judgeHistory(true)
	s.noteSuperseded()
	s.ds.Sort()
	return s.ds
}

// judgeHistory runs the rules that read git (Rule.Git), after every
// other rule, and with mark, when the Session has revisions, marks the
// findings on events the base already has (MarkBaseline): --base and
// --staged judge only what the change added. Finish and WithHistory
// both end here, so a lint whose files were judged apart (through the
// cache) finds what one Session finds.
func (s *Session) judgeHistory(mark bool) {
	for _, r := range Rules() {
		if sev := s.l.sev[r.ID]; r.Run != nil && r.Git && sev != diag.Off {
			r.Run(s.pass(r, sev))
		}
	}
	if mark && len(s.ds) > 0 && s.in.Revisions != nil && s.in.Git != nil && s.sh.err == nil {
		if base, head, err := s.pass(registry["MS301"], diag.Error).sides(); err == nil {
			MarkBaseline(s.ds, unchanged(base, head, s.sh.restored))
		}
	}
}

// drain waits until the rules have seen every event passed to Event;
// Checkpoint and Finish both need it, in either order.
func (s *Session) drain() {
	if !s.drained {
		s.work.Wait()
		if s.replaying != nil {
			s.replaying.Wait()
		}
		s.drained = true
	}
}

// Err is the error that kept a rule from judging the memory (see
// Pass.Fail), nil when every rule ran. Valid after Finish.
func (s *Session) Err() error { return s.sh.err }

// Events is the number of events the Session has seen.
func (s *Session) Events() int { return s.sh.count }

// Replayer is the Session's replay of the events: nil when no rule
// needed one. Finish replaces it with a second replay when the
// Supersedes fields Expect was given proved wrong; after Finish it is
// the replay the drift rules compared.
func (s *Session) Replayer() *materialize.Replayer { return s.replay }

// Derived returns what regen would write for the events seen, when the
// Session replayed them (a drift rule compared, or Input.Derive); nil
// otherwise. Valid after Finish.
func (s *Session) Derived() (graph, context []byte) {
	graph, _ = s.sh.render(parse.GraphFile)
	context, _ = s.sh.render(parse.ContextFile)
	return graph, context
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
