package memory

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Archival defaults from the seed's Archival Protocol.
const (
	DefaultThreshold = 50
	DefaultKeep      = 20
)

// ArchiveLimits returns root's archive threshold and keep count: what
// .memsys.json sets ("archive": {"threshold", "keep"}), else the
// Archival Protocol's defaults. lint's MS117 reads the same file, so
// lint, status and archive agree on when archival is due.
func ArchiveLimits(root string) (threshold, keep int, err error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return DefaultThreshold, DefaultKeep, err
	}
	return cfg.ArchiveThreshold, cfg.ArchiveKeep, nil
}

// ArchiveOptions are memsys archive's flags.
type ArchiveOptions struct {
	Threshold, Keep int
	DryRun          bool
	Agent           string // the archive event's agent
	// Time is the archive event's time; "" dates it like the marker, at
	// the time of the last event (see Archive).
	Time string
}

// ArchiveResult is what memsys archive reports (its JSON form).
type ArchiveResult struct {
	Due         bool     `json:"due"`
	Events      int      `json:"events"`
	Threshold   int      `json:"threshold"`
	Keep        int      `json:"keep"`
	Boundary    string   `json:"boundary"`
	Reason      string   `json:"reason"`
	Moved       []string `json:"moved"`
	ArchiveFile string   `json:"archive_file"`
	// ArchiveEvent is the archive event's ID: appended, or with
	// DryRun the one the real run would append; "" when nothing moves.
	ArchiveEvent string `json:"archive_event"`
	DryRun       bool   `json:"dry_run"`
	span         string
	stale        bool // the move made the tier's derived files stale
}

// WriteText prints the result as memsys archive does without --format,
// advising commands as front f names them.
func (r *ArchiveResult) WriteText(w io.Writer, f front.Front) {
	switch {
	case len(r.Moved) == 0:
		fmt.Fprintf(w, "nothing to archive: %s\n", r.Reason)
	case r.DryRun:
		fmt.Fprintf(w, "would move %s (%s) to %s\nboundary: %s (%s)\nwould append archive event: %s\n", words.Plural(len(r.Moved), "event"), r.span, r.ArchiveFile, r.Boundary, r.Reason, r.ArchiveEvent)
	default:
		fmt.Fprintf(w, "moved %s (%s) to %s\nboundary: %s (%s)\narchive event: %s\n", words.Plural(len(r.Moved), "event"), r.span, r.ArchiveFile, r.Boundary, r.Reason, r.ArchiveEvent)
		if !r.stale {
			return
		}
		// The archive event is the log's new last event, so graph.md and
		// context.md are stale until regen: say so, or the next lint fails.
		front.Fprintf(w, f, "next: run %s (.memory/ does not have %s yet), then commit\n", front.Regen.Word(), r.ArchiveEvent)
	}
}

// archival is one archive run: the files as read and what was decided.
type archival struct {
	logSrc, archSrc []byte
	log, arch       *parse.Log
	archName        string
	resumed         int                // events already copied by an interrupted run
	before          []parse.Event      // the history the move must keep
	graph           *materialize.Graph // replayed from before
	plan            ArchivePlan
}

// Archive is the seed's Archival Protocol as one verified move under the
// lock: it moves the events before the boundary from root's log to the
// archive, appends the archive event, proves that nothing was lost or
// changed, then writes the archive and the log.
//
// Determinism: the archive date and the archive event's time default
// to the time of the last event in the log, not the wall clock, so
// archiving a given log always writes the same bytes (two agents that
// archive the same history produce identical files, and tests need no
// fake clock).
//
// An archive killed between its two writes leaves the moved events in
// both files; the next run finishes it (only the log is rewritten).
func Archive(root string, opt ArchiveOptions) (*ArchiveResult, error) {
	if !opt.DryRun {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	a, err := readArchival(root)
	if err != nil {
		return nil, err
	}
	if err := a.decide(opt); err != nil {
		return nil, err
	}
	p := a.plan
	res := &ArchiveResult{Due: p.Due, Events: p.Count, Threshold: opt.Threshold, Keep: opt.Keep, Boundary: p.Boundary.ID,
		Reason: p.Reason, Moved: []string{}, ArchiveFile: a.archName, DryRun: opt.DryRun}
	for _, e := range p.Moved {
		res.Moved = append(res.Moved, e.ID)
	}
	if len(p.Moved) > 0 {
		res.span = p.Span()
	}
	if len(p.Moved) == 0 {
		return res, nil
	}
	// A dry run builds and verifies the move too, writing nothing: its
	// archive_event is the ID the real run appends (a script may refer
	// to it), and a move the check would refuse fails here as well.
	newLog, newArch, id, err := a.build(opt)
	if err != nil {
		return nil, err
	}
	res.ArchiveEvent = id
	if err := a.verify(newLog, newArch); err != nil {
		return nil, err
	}
	if opt.DryRun {
		return res, nil
	}
	// Archive first: a crash between the two writes leaves the events in
	// both files (duplicated, never lost), which lint reports.
	if err := workspace.WriteFile(root, a.archName, newArch); err != nil {
		return nil, err
	}
	if err := workspace.WriteFile(root, workspace.LogName, newLog); err != nil {
		return nil, err
	}
	// The archive event is the log's new last event: a tier with derived
	// files has them stale until regen. A config memsys cannot read was
	// refused by ArchiveLimits already; here it only costs the advice.
	cfg, _ := LoadConfig(root)
	tier := workspace.TierAt(root, cfg.Tier)
	res.stale = tier.HasGraph() || tier.HasContext()
	return res, nil
}

// readArchival reads and parses the log and the archive, refuses files
// with problems or an overlap that is no interrupted archive, and
// replays the history the move must keep.
func readArchival(root string) (*archival, error) {
	a := &archival{}
	var err error
	if a.logSrc, err = workspace.ReadFile(root, workspace.LogName); err != nil {
		return nil, err
	}
	if a.archName, a.archSrc, err = ReadArchive(root); err != nil {
		return nil, err
	}
	if a.archName == "" {
		a.archName = DefaultArchiveName
	}
	a.log = parse.Parse(workspace.LogName, a.logSrc)
	a.arch = parse.Parse(a.archName, a.archSrc, parse.Archive())
	if err := parseClean(a.log, a.arch); err != nil {
		return nil, err
	}
	a.resumed = interrupted(a.log, a.arch)
	if a.resumed == 0 {
		if err := noOverlap(a.arch, a.log); err != nil {
			return nil, err
		}
	}
	a.before = append(inLog(a.arch), inLog(a.log)[a.resumed:]...)
	a.graph = materialize.ReplayGraph(a.before)
	return a, nil
}

// decide plans the move: the protocol's plan, or, after an interrupted
// run, the rest of that run's move. A move out of a log whose IDs do
// not rise in file order is refused (parse.Order, orderErr): it would
// move the events at the top, which are then not the oldest.
func (a *archival) decide(opt ArchiveOptions) error {
	a.plan = PlanArchive(a.log, pinned(a.graph), opt.Keep, opt.Threshold)
	if a.resumed > 0 && !a.plan.moves(inLog(a.log)[:a.resumed]) {
		// The archive already holds the moved events, byte for byte, so
		// only the log is rewritten, as that run would have. The log is
		// still the one that run planned from, so with the same keep
		// and threshold the plan above is that run's, reason and all,
		// and the finished archive writes the bytes an uninterrupted
		// one would have; with other flags its reason is unknown.
		le := inLog(a.log)
		a.plan = ArchivePlan{Due: true, Count: len(le), Moved: le[:a.resumed], Boundary: le[a.resumed],
			Reason: "finishing an interrupted archive: " + SpanOf(le[0].ID, le[a.resumed-1].ID) + " already in " + a.archName}
	}
	if len(a.plan.Moved) == 0 {
		return nil
	}
	return orderErr(parse.OrderOf(a.log), workspace.LogName)
}

// moves reports whether p moves exactly evs, the events an interrupted
// run copied.
func (p ArchivePlan) moves(evs []parse.Event) bool {
	if len(p.Moved) != len(evs) {
		return false
	}
	for i := range evs {
		if p.Moved[i].Num != evs[i].Num {
			return false
		}
	}
	return true
}

// build returns the new log (with the archive event id at its end) and
// the new archive.
func (a *archival) build(opt ArchiveOptions) (newLog, newArch []byte, id string, err error) {
	p := a.plan
	last := a.before[len(a.before)-1]
	d := Draft{
		Type:    "archive",
		Scope:   workspace.LogName,
		Summary: "Archived " + p.Span() + " to " + a.archName,
		Agent:   opt.Agent,
		Time:    last.Time.String(),
		Details: []DraftDetail{
			{Key: "archived", Value: p.Span()},
			{Key: "count", Value: strconv.Itoa(len(p.Moved))},
			{Key: "archive_file", Value: a.archName},
			{Key: "boundary", Value: p.Boundary.ID},
			{Key: "reason", Value: p.Reason},
		},
		Refs: []string{p.Moved[len(p.Moved)-1].ID},
		Tags: []string{"archive"},
	}
	if opt.Time != "" {
		d.Time = opt.Time
	}
	date := last.Time.String()
	if len(date) >= 10 {
		date = date[:10]
	}
	newLog, newArch = BuildArchive(a.logSrc, a.archSrc, a.archName, date, p)
	if a.resumed > 0 {
		newArch = a.archSrc
	}
	postLog := parse.Parse(workspace.LogName, newLog, parse.HeadersOnly())
	postArch := parse.Parse(a.archName, newArch, parse.Archive(), parse.HeadersOnly())
	if err := Normalize(&d, KnownIn(postLog, postArch)); err != nil {
		return nil, nil, "", err
	}
	if id, err = NextID(postLog, postArch); err != nil {
		return nil, nil, "", err
	}
	text := Render(id, d, Newline(newLog))
	if newLog, err = AppendEvent(workspace.LogName, newLog, postLog, text); err != nil {
		return nil, nil, "", err
	}
	return newLog, newArch, id, nil
}

// verify proves the move before anything is written: archive plus log
// hold the same events as before, byte for byte and in order, plus the
// archive event at the end, both files parse without new problems, and
// replaying them gives the same graph. A resumed move only has to keep
// the log's events after the copies.
func (a *archival) verify(newLog, newArch []byte) error {
	if a.resumed > 0 {
		return verifyResume(a.log, a.resumed, newLog)
	}
	nlog := parse.Parse(workspace.LogName, newLog)
	narch := parse.Parse(a.archName, newArch, parse.Archive())
	if err := parseClean(nlog, narch); err != nil {
		return front.Errorf("archive check failed, nothing was written: %w", err)
	}
	if err := sameProblems([]*parse.Log{a.arch, a.log}, []*parse.Log{narch, nlog}); err != nil {
		return err
	}
	before := []Source{{Src: a.archSrc, Log: a.arch}, {Src: a.logSrc, Log: a.log}}
	after := []Source{{Src: newArch, Log: narch}, {Src: newLog, Log: nlog}}
	if err := VerifyMove(before, after, 1); err != nil {
		return err
	}
	evs := append(inLog(narch), inLog(nlog)...)
	g2 := materialize.ReplayGraph(evs[:len(evs)-1])
	if !bytes.Equal(materialize.RenderGraph(a.graph), materialize.RenderGraph(g2)) {
		return fmt.Errorf("archive check failed: the replayed graph changes after the move: nothing was written; please report this")
	}
	return nil
}

// parseClean refuses to archive a log with parse problems that make
// event boundaries uncertain: moving such bytes could split an event.
// Problems inside one event's own text (see withinEvent) are moved with
// it byte for byte: a hand-kept log's committed events carry them, and
// they cannot be fixed without editing committed events.
func parseClean(logs ...*parse.Log) error {
	for _, l := range logs {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if !withinEvent(p) {
				return front.Errorf("%s: %s: fix the log (%s) before archiving", p.Range, p.Message, front.Lint.Word())
			}
		}
	}
	return nil
}

// withinEvent reports whether p concerns only the text of the event it
// names (its header's timestamp, agent or type, its heading's level, a
// line of free text, a repeated field), never where an event starts or
// ends: an event under a "####" heading is still one event, ending
// where the next heading starts. A level 1 or 2 heading written inside
// an event (KindCut, MS133: "Notes" underlined with dashes, a pasted
// "## Summary") ends it at a place the parser fixes, in the archive as
// in the log, and the events after it stay in the log: the bytes move
// as they are. Refusing it made archival wait for an edit of a
// committed event, which lint --base reports (MS301).
func withinEvent(p parse.Problem) bool {
	switch p.Kind {
	case parse.KindTimestamp, parse.KindDateOnly, parse.KindFreeText, parse.KindDuplicateKey, parse.KindLevel, parse.KindCut:
		return true
	case parse.KindHeader:
		return p.Event != "" // "" is a heading that looks like an event but is none
	}
	return false
}

// sameProblems refuses a move after which the files report other parse
// problems than before: the moved events must carry exactly the
// problems they had, no new one.
func sameProblems(before, after []*parse.Log) error {
	count := map[[3]string]int{}
	for _, l := range before {
		if l != nil {
			for _, p := range l.Problems {
				count[[3]string{string(p.Kind), p.Event, p.Message}]++
			}
		}
	}
	for _, l := range after {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			k := [3]string{string(p.Kind), p.Event, p.Message}
			if count[k] == 0 {
				return front.Errorf("archive check failed, nothing was written: %s: %s: please report this", p.Range, p.Message)
			}
			count[k]--
		}
	}
	return nil
}

// pinned maps the event that set the current state of each active or
// blocked node (its Last Event) to that node: the events PlanArchive
// keeps in the log when it can. Not the Created event: a component
// created at evt-001 and alive for years would pin the whole history,
// and the Archival Protocol exists to bound the log.
func pinned(g *materialize.Graph) map[string]string {
	pins := map[string]string{}
	for _, n := range g.Nodes {
		if n.Status != "active" && n.Status != "blocked" {
			continue
		}
		if _, ok := pins[n.LastEvent]; n.LastEvent != "" && !ok {
			pins[n.LastEvent] = n.Name
		}
	}
	return pins
}

// inLog returns the events of l inside its Event Log section.
func inLog(l *parse.Log) []parse.Event {
	if l == nil {
		return nil
	}
	out := make([]parse.Event, 0, len(l.Events))
	for _, e := range l.Events {
		if e.InLog {
			out = append(out, e)
		}
	}
	return out
}

// interrupted returns how many leading events of the log are
// byte-identical copies of the archive's trailing events (line endings
// aside): the state an archive killed between writing the archive and
// writing the log leaves. 0 means none, or an overlap that is not that
// (a hand edit), which noOverlap then refuses. At least one event must
// stay in the log, since an archive always keeps its boundary.
func interrupted(log, arch *parse.Log) int {
	le, ae := inLog(log), inLog(arch)
	if len(le) < 2 || len(ae) == 0 {
		return 0
	}
	idx := -1
	for i := range ae {
		if ae[i].Num == le[0].Num {
			idx = i
			break
		}
	}
	if idx < 0 {
		return 0
	}
	n := len(ae) - idx
	if n >= len(le) {
		return 0
	}
	for k := 0; k < n; k++ {
		if ae[idx+k].Text != le[k].Text {
			return 0
		}
	}
	return n
}

// verifyResume proves a resumed archive loses nothing: the new log
// holds exactly the events after the copies, byte for byte, plus the
// archive event at the end.
func verifyResume(log *parse.Log, resumed int, newLog []byte) error {
	want := inLog(log)[resumed:]
	got := inLog(parse.Parse(workspace.LogName, newLog))
	if len(got) != len(want)+1 {
		return fmt.Errorf("archive: finishing the interrupted archive would leave %s in the log, want %d: nothing written", words.Plural(len(got)-1, "event"), len(want))
	}
	for i := range want {
		if got[i].Text != want[i].Text {
			return fmt.Errorf("archive: finishing the interrupted archive would change %s: nothing written", want[i].ID)
		}
	}
	return nil
}

// noOverlap refuses to archive when an event ID is in both files, which
// only an interrupted archive (archive written, log not) or a hand edit
// leaves: moving again would duplicate the events.
func noOverlap(arch, log *parse.Log) error {
	in := map[int]bool{}
	for _, e := range inLog(arch) {
		in[e.Num] = true
	}
	for _, e := range inLog(log) {
		if in[e.Num] {
			return fmt.Errorf("%s:%d: %s is also in %s (an interrupted archive?): check that the archive holds it byte for byte, then delete it from the log", e.Range.File, e.Range.Line, e.ID, arch.File)
		}
	}
	return nil
}

// previewArchive plans memsys archive with the configured keep, for
// status: how much would move and what keeps the rest.
func previewArchive(root string, threshold, keep int) *ArchivePreview {
	a, err := readArchival(root)
	if err != nil {
		return &ArchivePreview{Error: err.Error(), err: err}
	}
	if err := a.decide(ArchiveOptions{Threshold: threshold, Keep: keep}); err != nil {
		return &ArchivePreview{Error: err.Error(), err: err}
	}
	pv := &ArchivePreview{Moves: len(a.plan.Moved), Boundary: a.plan.Boundary.ID, Reason: a.plan.Reason}
	if a.resumed > 0 {
		le := inLog(a.log)
		pv.Interrupted = SpanOf(le[0].ID, le[a.resumed-1].ID)
	}
	return pv
}

// interruptedFindings rewrites lint's findings ds on the state an
// archive killed between its two writes leaves (interrupted, as archive
// itself finds it): MS107 on each copied event advised renumbering it,
// which would duplicate history, MS109 and MS110 that its ID and time
// come after the archive's last, which are the same event's.
// Those findings become one MS107 finding that says to finish the
// archive. pair gives the log's and the archive's bytes as lint judged
// them; it is called, and the files parsed again, only when a duplicate
// ID was found in the log.
func interruptedFindings(pair func() (logSrc []byte, archName string, archSrc []byte), ds diag.Diagnostics) diag.Diagnostics {
	found := -1
	for i := range ds {
		if ds[i].Rule == "MS107" && ds[i].Range.File == workspace.LogName {
			found = i
			break
		}
	}
	if found < 0 {
		return ds
	}
	logSrc, archName, archSrc := pair()
	if logSrc == nil || archName == "" {
		return ds
	}
	severity := ds[found].Severity
	log := parse.Parse(workspace.LogName, logSrc)
	n := interrupted(log, parse.Parse(archName, archSrc, parse.Archive()))
	if n == 0 {
		return ds
	}
	copied := inLog(log)[:n]
	type header struct {
		id   string
		line int
	}
	at := map[header]bool{}
	for _, e := range copied {
		at[header{e.ID, e.Range.Line}] = true
	}
	first := copied[0]
	are := "are"
	if n == 1 {
		are = "is"
	}
	advice := front.Sprintf("%s %s also in %s, byte for byte, as an archive interrupted between its two writes leaves them: run %s to finish it (renumbering them would duplicate history)",
		SpanOf(first.ID, copied[n-1].ID), are, archName, front.Archive.Word())
	r := first.Range
	r.Col, r.EndLine, r.EndCol, r.EndOffset = 1, r.Line, 0, 0 // the header line, as MS107's own
	out := diag.Diagnostics{{Rule: "MS107", Severity: severity, Range: r, Event: first.ID, Message: advice.String(), MCP: advice.For(front.MCP)}}
	for _, d := range ds {
		if (d.Rule == "MS107" || d.Rule == "MS109" || d.Rule == "MS110") && d.Range.File == workspace.LogName && at[header{d.Event, d.Range.Line}] {
			continue
		}
		out = append(out, d)
	}
	out.Sort()
	return out
}

// pairOf reads the log and the first archive there is through read,
// for interruptedFindings.
func pairOf(read func(rel string) ([]byte, error)) func() ([]byte, string, []byte) {
	return func() ([]byte, string, []byte) {
		logSrc, err := read(workspace.LogName)
		if err != nil {
			return nil, "", nil
		}
		for _, n := range workspace.ArchiveNames {
			if archSrc, err := read(n); err == nil {
				return logSrc, n, archSrc
			}
		}
		return nil, "", nil
	}
}

// pair is pairOf the files lint read: the bytes held, when they are.
func (f memFiles) pair() func() ([]byte, string, []byte) {
	if f.view == nil && f.held != nil && f.held.LogBytes != nil {
		return func() ([]byte, string, []byte) { return f.held.LogBytes, f.held.ArchivePath, f.held.ArchiveBytes }
	}
	return pairOf(f.readFile)
}
