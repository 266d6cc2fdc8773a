package memory

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// StatusReport is what memsys status reports (its JSON form): the BOOT
// step of the seed's agent lifecycle.
type StatusReport struct {
	Tier             string        `json:"tier"`
	Log              FileCount     `json:"log"`
	Archive          *FileCount    `json:"archive"`
	LastEvent        *EventLine    `json:"last_event"`
	Graph            DerivedStatus `json:"graph"`
	Context          DerivedStatus `json:"context"`
	ArchiveDue       bool          `json:"archive_due"`
	ArchiveThreshold int           `json:"archive_threshold"`
	// ArchivePlan, when archival is due, says what memsys archive
	// (with the default --keep) would move and what stops it there.
	ArchivePlan *ArchivePreview `json:"archive_plan,omitempty"`
	root        string          // where the report was read, for the archive plan
	utf16       bool            // the log is UTF-16 (parse.Log.UTF16): re-save it, not add a section
	// limit and keep are .memsys.json's archive threshold and keep
	// count (the defaults when it sets none).
	limit, keep int
	// order is the order of the log's event IDs, followed as the
	// headings stream past: archive refuses a log out of order, and
	// status, which does not plan a long log, must say so too.
	order parse.Order
	// archMax is the highest event number in the archive, when the
	// files were streamed (0 through the cache): a log starting at or
	// below it may hold the copies an interrupted archive left, which
	// the archive plan then names even for a long log.
	archMax int
	// Stale is true when a derived file of the tier is stale, missing
	// or unreadable: the command then exits 1.
	Stale bool `json:"stale"`
	// OpenLoops counts the loops still open at the last event (memsys
	// loops lists them). LoopsFrom says how it was counted: from a
	// fresh context.md's Open Loops section, which the BOOT step trusts
	// as the agent does (status reads only headings, and a replay of a
	// long log costs several times more), or by replaying the history
	// when context.md is stale, missing or not part of the tier.
	OpenLoops int    `json:"open_loops"`
	LoopsFrom string `json:"open_loops_from"` // ".memory/context.md" or "replay"
	// Unread counts the event headings of the log and the archive the
	// parser could not read as events (parse.Problem.Unread: "###
	// evt-001: Title"), which lint reports (MS102, MS115): a log of
	// them is no empty memory, and its fresh derived files show none
	// of it. FirstUnread is where the first is, "file:line". The
	// command then exits 1, as for a stale file.
	Unread      int    `json:"unread_headings"`
	FirstUnread string `json:"first_unread,omitempty"`
	// NoEventLog is true when CHANGELOG.md has no "## Event Log"
	// section (release notes kept before memsys, say): lint reports it
	// (MS101) and append refuses, so status must not call the memory
	// healthy. The command then exits 1.
	NoEventLog bool `json:"no_event_log,omitempty"`
	// AfterLog is the heading of a section after the last event of the
	// log (parse.Log.AfterLogLine, lint's MS138): append and adopt
	// refuse to write there, so status names it before a writer fails;
	// nil if none. It does not change the exit status: lint warns of
	// it, and regen, which the boot line runs on exit 1, cannot move it.
	AfterLog *SectionAt `json:"section_after_log,omitempty"`
	// CutShort is where the log's last event starts, "file:line", when
	// the file ends mid-line inside it and it has no Scope or Summary:
	// what an append cut short by a crash or power loss leaves (lint's
	// MS106 says so too). append refuses to add after it (TornEnd), so
	// status names it at boot, before an agent's first append fails. Like
	// AfterLog it does not change the exit status: regen cannot mend it.
	CutShort string `json:"cut_short,omitempty"`
	// Conflict is where the first of git's conflict markers is in the
	// log or the archive, "file:line" (lint's MS134): a merge git could
	// not finish without memsys's driver, whose events the parse cannot
	// be trusted to read. The command then exits 1.
	Conflict string `json:"merge_conflict,omitempty"`
}

// SectionAt is where a section heading is in a file.
type SectionAt struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Heading string `json:"heading"` // "## Appendix"
}

// Fails reports whether memsys status exits 1: a derived file of the
// tier is stale, missing or unreadable, event headings could not be read, or the
// log has no Event Log section.
func (r *StatusReport) Fails() bool {
	return r.Stale || r.Unread > 0 || r.NoEventLog || r.Conflict != ""
}

// ArchivePreview is what memsys archive would do now.
type ArchivePreview struct {
	Moves int `json:"moves"` // events it would move
	// AtLeast says Moves is a lower bound from the counts alone (the
	// log is past 2×keep events), Boundary and Reason then empty.
	AtLeast  bool   `json:"at_least,omitempty"`
	Boundary string `json:"boundary"` // the first event that stays
	Reason   string `json:"reason"`   // why the boundary is there
	// Interrupted names the events an archive killed between its two
	// writes left in both files (lint's MS107 says the same): archive
	// moves them first, finishing that run.
	Interrupted string `json:"interrupted,omitempty"`
	Error       string `json:"error,omitempty"`
	// err is the error Error says, for the front ends that word it
	// their own way (StatusReport.For).
	err error
}

// FileCount is the number of events in one file.
type FileCount struct {
	File   string `json:"file"`
	Events int    `json:"events"`
}

// DerivedStatus is the Staleness Check of one derived file.
type DerivedStatus struct {
	File     string `json:"file"`
	Expected bool   `json:"expected"` // the tier includes this file
	State    string `json:"state"`    // fresh, stale, missing or unreadable
	Horizon  string `json:"horizon"`  // the event horizon written in the file
	// Differs is true when the horizon is right but the file is not what
	// regen writes (its seal does not match).
	Differs bool `json:"content_differs,omitempty"`
	Words   int  `json:"words,omitempty"`
	Tokens  int  `json:"tokens,omitempty"`
	// Curated lists what a stale file holds that memsys did not write
	// and no replay of the log draws (hand-kept rows, constraints):
	// regen refuses to replace it (without --force) rather than drop
	// them, so the advice is memsys adopt, as lint's MS202/MS203 and
	// init give.
	Curated []string `json:"curated,omitempty"`
	// ConflictLine is the line of the first of git's conflict markers
	// in a file regen refuses to replace, 0 if none: a merge without
	// memsys's driver left both sides' rows in it, which read as kept
	// by hand, and adopt would record them as new events; regen --force
	// rewrites it from the log once the log is merged.
	ConflictLine int `json:"conflict_line,omitempty"`
	// Reason says why an unreadable file could not be read, and what
	// to do (the error regen would stop with, less the file's name).
	Reason string `json:"reason,omitempty"`
	// err is the read error Reason says, for the front ends that word
	// its advice their own way (DerivedStatus.text).
	err error
	// LogRewritten is true when the stale file is what memsys wrote
	// from the log as committed at HEAD, and the events through its
	// horizon have changed since (an edited committed event): regen
	// refuses it as a hand-kept file, and the advice is to restore the
	// events, not adopt what the edit changed. Curated is then empty.
	LogRewritten bool `json:"log_rewritten,omitempty"`
}

// EventLine is the one-line view of an event that status, log and show
// print.
type EventLine struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Agent   string `json:"agent"`
	Type    string `json:"type"`
	Scope   string `json:"scope"`
	Summary string `json:"summary"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

// LineOf is the EventLine of e.
func LineOf(e parse.Event) EventLine {
	return EventLine{ID: e.ID, Time: e.Time.String(), Agent: e.Agent, Type: e.Type, Scope: e.Scope, Summary: e.Summary, File: e.Range.File, Line: e.Range.Line}
}

// String is the one-line text form, the event header with the summary:
// "evt-042 | 2026-03-01 10:00 | alice | fix | summary".
func (l EventLine) String() string { return string(l.Append(nil)) }

// Append appends the String form to b: log prints a line per event, and
// building each as a string (and boxing each EventLine for fmt) was a
// tenth of its memory.
func (l EventLine) Append(b []byte) []byte {
	for i, s := range [...]string{l.ID, l.Time, l.Agent, l.Type, l.Summary} {
		if i > 0 {
			b = append(b, " | "...)
		}
		b = append(b, s...)
	}
	return b
}

// Status reads root as memsys status does: tier, event counts, the last
// event, the seed's Staleness Check of graph.md and context.md, and
// whether archival is due above the configured threshold.
func Status(root string) (*StatusReport, error) {
	r, err := ReadStatus(root)
	if err != nil {
		return nil, err
	}
	r.SetThreshold(r.limit)
	return r, nil
}

// Limits returns the archive threshold and keep count .memsys.json
// sets, else the defaults: status's defaults for --threshold.
func (r *StatusReport) Limits() (threshold, keep int) { return r.limit, r.keep }

// SetThreshold decides whether archival is due: more than threshold
// events in the log.
func (r *StatusReport) SetThreshold(threshold int) {
	r.ArchiveThreshold = threshold
	r.ArchiveDue = r.Log.Events > threshold
	r.ArchivePlan = nil
	if !r.ArchiveDue || r.root == "" {
		return
	}
	// archive keeps at most 2×keep events (the archive event included),
	// so above that the counts alone say it will move something, and a
	// boot check need not parse and replay a long log. Below it, pins
	// decide, and the log is short: plan it. So is a log whose first
	// event may be a copy an interrupted archive left (archMax), which
	// the plan names: rare, and lint reports it too.
	keep := r.keep
	if keep < 1 {
		keep = DefaultKeep
	}
	if least := r.Log.Events - (2*keep - 1); least > 0 && (r.order.First.Num == 0 || r.order.First.Num > r.archMax) {
		// archive would move something, so it checks the order, and
		// refuses as status says here (a plan of a short log below
		// checks it as archive does).
		if err := orderErr(r.order, workspace.LogName); err != nil {
			r.ArchivePlan = &ArchivePreview{Error: err.Error(), err: err}
			return
		}
		r.ArchivePlan = &ArchivePreview{Moves: least, AtLeast: true}
		return
	}
	r.ArchivePlan = previewArchive(r.root, threshold, keep)
}

// ReadStatus is Status before the archive threshold is known.
func ReadStatus(root string) (*StatusReport, error) {
	// Status needs counts and the last event, not the events: it reads
	// only the headings, as they stream past, and then the body of the
	// last event alone.
	// The configuration sets the tier and the archive threshold status
	// reports: a file memsys cannot read is the same one-line error,
	// exit 2, as lint and regen give, never the defaults in silence.
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	// The derived files are read first, so that the digest of the
	// events through each one's horizon is taken as they pass: a sealed
	// file behind the log whose seal verifies against it is what memsys
	// wrote then, and regen replaces it (sealedAt.handEdits).
	graph, graphErr := workspace.ReadFile(root, parse.GraphFile)
	context, contextErr := workspace.ReadFile(root, parse.ContextFile)
	at := newHorizonDigests(graph, context)
	// The events are hashed as they pass (their text is there even in
	// a headers-only parse), for the seal check of each derived file.
	var order parse.Order
	archMax := 0
	mem, lastEvent, inLog, inArchive, src, c, ok := statusCached(root, cfg, &order, at)
	if !ok {
		order = parse.Order{}
		at = newHorizonDigests(graph, context) // what the cache showed, if anything, again
		src = materialize.NewSourceHasher(lint.RenderOptions(cfg))
		if mem, err = workspace.Stream(root, func(e *parse.Event) {
			src.Add(e)
			at.see(e.Num, src)
			lastEvent = e
			if e.Range.File == workspace.LogName {
				if e.InLog {
					inLog++
					order.Add(e)
				}
			} else {
				inArchive++
				archMax = max(archMax, e.Num)
			}
		}, parse.HeadersOnly()); err != nil {
			return nil, err
		}
	}
	if lastEvent != nil && lastEvent.Text != "" {
		// The parser reads each event apart from the others, so its
		// text alone gives the same fields.
		if body := parse.Parse(lastEvent.Range.File, []byte(lastEvent.Text)).Events; len(body) == 1 {
			lastEvent.Scope, lastEvent.Summary = body[0].Scope, body[0].Summary
		}
	}
	if err := mem.Incomplete(); err != nil {
		return nil, err
	}
	cutShort := ""
	if e := lastEvent; e != nil && e.InLog && e.Range.File == workspace.LogName && e.Text != "" &&
		!strings.HasSuffix(e.Text, "\n") && (strings.TrimSpace(e.Scope) == "" || strings.TrimSpace(e.Summary) == "") {
		cutShort = fmt.Sprintf("%s:%d", workspace.LogName, e.Range.Line)
	}
	// The tier lint and regen use: .memsys.json's, else the files'.
	tier := workspace.TierAt(root, cfg.Tier)
	r := &StatusReport{Tier: string(tier), Log: FileCount{File: workspace.LogName, Events: inLog}}
	if mem.Archive != nil {
		r.Archive = &FileCount{File: mem.ArchivePath, Events: inArchive}
	}
	last := ""
	if lastEvent != nil {
		// A boot check quotes the last summary as a message quotes a
		// user's words (words.Clip), in the text and in the JSON of
		// both fronts alike, so a 1 MB summary neither floods an
		// agent's context through memsys_status nor a script's pipe;
		// memsys show and log give it whole.
		l := LineOf(*lastEvent)
		l.Summary = words.Clip(l.Summary)
		r.LastEvent, last = &l, l.ID
	}
	digest := src.Sum()
	r.Graph = derivedStatus(parse.GraphFile, graph, graphErr, last, tier.HasGraph(), digest, false)
	r.Context = derivedStatus(parse.ContextFile, context, contextErr, last, tier.HasContext(), digest, true)
	r.root = root
	r.limit, r.keep, r.order, r.archMax = cfg.ArchiveThreshold, cfg.ArchiveKeep, order, archMax
	r.Stale = r.Graph.Expected && r.Graph.State != "fresh" || r.Context.Expected && r.Context.State != "fresh"
	r.countUnread(mem.Archive, mem.Log)
	r.Conflict = firstConflict(mem.Archive, mem.Log)
	r.NoEventLog = mem.Log != nil && !mem.Log.HasEventLog
	if l := mem.Log; l != nil && l.AfterLogLine > 0 {
		// Clipped in the report, as the last event's summary is, so
		// memsys_status's structured result and status --format json
		// quote the heading as the text line does, not a megabyte of it.
		r.AfterLog = &SectionAt{File: workspace.LogName, Line: l.AfterLogLine, Heading: words.Clip(l.AfterLogHeading)}
	}
	r.CutShort = cutShort
	r.utf16 = mem.Log != nil && mem.Log.UTF16()
	if r.utf16 {
		// Nothing was read to replay (the report says to re-save the
		// log); the replay would refuse it (readWhole).
		return r, nil
	}
	n, loopsFresh := freshLoops(context, r.Context)
	if loopsFresh {
		r.OpenLoops, r.LoopsFrom = n, parse.ContextFile
	}
	// A stale file that memsys did not write as it is (no seal, no
	// horizon, not what regen writes, or a seal that does not verify
	// against the events through its horizon) may hold rows kept by
	// hand: only then does status compare it with the replay. A file
	// merely behind the log (after an append) is not rendered again:
	// status stays cheap.
	graphStale := mayBeHandKept(r.Graph, graph, at)
	contextStale := mayBeHandKept(r.Context, context, at)
	if loopsFresh && !graphStale && !contextStale {
		return r, nil
	}
	// The loops come from a replay of what status has read already: the
	// checkpoint it resumed from, or the bytes it streamed (no file is
	// read twice). No configuration changes which loops are open.
	var x *rendered
	opt := lint.RenderOptions(cfg)
	if c != nil {
		_, x, err = replayCached(root, opt, c, allFiles)
	} else {
		_, x, err = replayRead(root, opt, mem, allFiles, nil)
	}
	if err != nil {
		return nil, err
	}
	if !loopsFresh {
		r.OpenLoops, r.LoopsFrom = len(x.x.Graph().OpenLoops()), "replay"
	}
	// What regen would refuse to drop, read as regen reads it.
	sa := sealedAt{root: root, opt: opt, digest: at.digest}
	if graphStale {
		r.Graph.Curated = sa.handEdits(parse.GraphFile, graph, x.graphFile())
	}
	if contextStale {
		r.Context.Curated = sa.handEdits(parse.ContextFile, context, x.contextFile())
	}
	// What regen refuses to drop may be no hand edit at all: the events
	// before the file's horizon changed since HEAD (sealedAt.logRewritten).
	// Nor is what a merge left between git's conflict markers.
	for _, d := range []struct {
		st  *DerivedStatus
		cur []byte
	}{{&r.Graph, graph}, {&r.Context, context}} {
		if len(d.st.Curated) == 0 {
			continue // regen replaces the file: its advice stands
		}
		if n := parse.ConflictLine(d.cur); n > 0 {
			d.st.Curated, d.st.ConflictLine = nil, n
			continue
		}
		if sa.logRewritten(d.cur) {
			d.st.Curated, d.st.LogRewritten = nil, true
		}
	}
	return r, nil
}

// firstConflict is where the first conflict marker (lint's MS134) of
// logs is, "file:line", "" if none.
func firstConflict(logs ...*parse.Log) string {
	for _, l := range logs {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if p.Kind == parse.KindConflict {
				return p.Range.File + ":" + strconv.Itoa(p.Range.Line)
			}
		}
	}
	return ""
}

// countUnread counts the event headings of logs that the parser did not
// take as events, from the problems the headers-only parse (or the
// checkpoint it resumed from) already found: no file is read again.
func (r *StatusReport) countUnread(logs ...*parse.Log) {
	for _, l := range logs {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if !p.Unread() {
				continue
			}
			if r.Unread == 0 {
				r.FirstUnread = p.Range.File + ":" + strconv.Itoa(p.Range.Line)
			}
			r.Unread++
		}
	}
}

// mayBeHandKept reports whether d, a file of the tier read as src, is
// stale and not known to be what memsys wrote at its horizon: without
// a seal or a horizon, not what regen writes at the right horizon, or
// behind the log with a seal that does not verify against the events
// through its horizon (or whose digest status did not take).
func mayBeHandKept(d DerivedStatus, src []byte, at *horizonDigests) bool {
	if !d.Expected || d.State != "stale" {
		return false
	}
	if d.Horizon == "" || d.Differs {
		return true
	}
	sum, ok := at.digest(d.Horizon)
	return !ok || !materialize.Sealed(src, sum)
}

// horizonDigests takes, as the events stream past, the seal's source
// digest through the horizon event of each derived file: a file behind
// the log is what memsys wrote then when its seal verifies against it.
// Taking it costs a comparison per event and a hash sum per file.
type horizonDigests struct {
	nums [2]int // the horizons' event numbers, -1 for none
	sums [2][]byte
}

// newHorizonDigests is the horizonDigests of the derived files graph
// and context (nil when missing).
func newHorizonDigests(graph, context []byte) *horizonDigests {
	h := &horizonDigests{nums: [2]int{-1, -1}}
	for i, src := range [][]byte{graph, context} {
		if src == nil {
			continue
		}
		if id, _ := materialize.FindHorizon(src); id != "" {
			if n, ok := parse.EventNum(id); ok {
				h.nums[i] = n
			}
		}
	}
	return h
}

// see takes the digest src holds after the event numbered num, if it
// is a horizon not seen yet: like regen --at, the first event with the
// number is the horizon.
func (h *horizonDigests) see(num int, src *materialize.SourceHasher) {
	for i, n := range h.nums {
		if n == num && h.sums[i] == nil {
			h.sums[i] = src.Sum()
		}
	}
}

// known takes the digest e, which the history cache kept, for a horizon
// it is through (earlierOf): the events before the cache's head are not
// read again.
func (h *horizonDigests) known(e earlierSum) {
	n, ok := parse.EventNum(e.ID)
	for i, m := range h.nums {
		if ok && m == n && h.sums[i] == nil {
			h.sums[i] = e.Sum
		}
	}
}

// digest is the digest taken through the event id, if it was.
func (h *horizonDigests) digest(id string) ([]byte, bool) {
	n, ok := parse.EventNum(id)
	if !ok {
		return nil, false
	}
	for i, m := range h.nums {
		if m == n && h.sums[i] != nil {
			return h.sums[i], true
		}
	}
	return nil, false
}

// freshLoops counts the open loops in context.md (src, as derivedStatus
// read it) when it is fresh.
func freshLoops(src []byte, c DerivedStatus) (int, bool) {
	if c.State != "fresh" {
		return 0, false
	}
	return materialize.CountItems(src, materialize.SecLoops)
}

// derivedStatus applies the seed's Staleness Check (materialize.Fresh,
// as lint's MS202 and MS203 do) to one derived file. Size is reported in
// words (whitespace-separated) and in tokens estimated as words × 4 / 3
// rounded to the nearest whole token, the usual rule of thumb for
// English text with BPE tokenizers. HTML comments (the horizon and
// other bookkeeping) are not counted.
//
// A file whose horizon is right is fresh only when its seal matches
// (materialize.Sealed): it is then exactly what regen writes, which is
// what lint's drift rules check, so status and lint never disagree.
//
// Only context.md's size is printed, so only it is counted (count):
// graph.md is megabytes at 100k events. words.Visible is the old regular
// expression and strings.Fields count without either (fuzzed).
//
// ReadStatus reads the file (src, or the error err) before the events,
// and only once.
func derivedStatus(rel string, src []byte, err error, last string, expected bool, source []byte, count bool) DerivedStatus {
	d := DerivedStatus{File: rel, Expected: expected}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.State = "missing"
		return d
	case err != nil:
		// Not missing: regen would stop on it too (readDerived), so
		// "run memsys regen" would send the agents' boot line
		// ("memsys status || memsys regen") round in a loop.
		d.State, d.Reason, d.err = "unreadable", unreadableReason(rel, err.Error()), err
		return d
	}
	var line int
	d.Horizon, line = materialize.FindHorizon(src)
	switch {
	case !materialize.Fresh(d.Horizon, line, last):
		d.State = "stale"
	case !materialize.Sealed(src, source):
		d.State, d.Differs = "stale", true
	default:
		d.State = "fresh"
	}
	if count {
		d.Words = words.Visible(src)
		d.Tokens = (d.Words*4 + 2) / 3
	}
	return d
}

// unreadableReason is msg, a read error of rel, without the leading
// "rel: " the status line already shows.
func unreadableReason(rel, msg string) string {
	return strings.TrimPrefix(msg, rel+": ")
}

// WriteText prints the report as memsys status does without --format,
// its advice worded for front f: memsys regen and memsys loops at the
// command line, memsys_regen and memsys_log with "open" for an agent
// over MCP (memsys_status's text). Everything else is the same bytes.
func (r *StatusReport) WriteText(w io.Writer, f front.Front) {
	last := ""
	if r.LastEvent != nil {
		last = r.LastEvent.ID
	}
	fmt.Fprintf(w, "tier: %s\n", r.Tier)
	fmt.Fprintf(w, "events: %d in %s", r.Log.Events, r.Log.File)
	if r.Archive != nil {
		fmt.Fprintf(w, ", %d in %s", r.Archive.Events, r.Archive.File)
	}
	if r.NoEventLog && r.LastEvent != nil && r.LastEvent.File == r.Log.File {
		// The last event line below names one: the count is of events
		// in the section, and there is none.
		fmt.Fprint(w, " (its events are outside an \"## Event Log\" section)")
	}
	fmt.Fprintln(w)
	if r.Unread > 0 {
		front.Fprintf(w, f, "unread headings: %d (the first at %s): %s says why\n", r.Unread, r.FirstUnread, front.Lint.Word())
	}
	if r.NoEventLog && r.utf16 {
		// The section may well be there, unread: adding one would
		// only mix encodings.
		fmt.Fprintf(w, "event log: %s is UTF-16, which memsys does not read: re-save it as UTF-8\n", r.Log.File)
	} else if r.NoEventLog {
		fmt.Fprintf(w, "event log: %s has no \"## Event Log\" section: %s\n", r.Log.File, parse.NoEventLogFix(r.LastEvent != nil))
	}
	if a := r.AfterLog; a != nil {
		// lint's MS138 in its words: append and adopt refuse to write.
		fmt.Fprintf(w, "event log: %s:%d: section %q follows the Event Log, where appended events go: move it above \"## Event Log\"\n", a.File, a.Line, a.Heading)
	}
	if c := r.Conflict; c != "" {
		// lint's MS134 in its words.
		front.Fprintf(w, f, "event log: %s: unresolved merge conflict (git's \"<<<<<<<\" marker): finish the merge: %s resolves the log, or keep one side by hand and delete the markers\n", c, front.Renumber.With("--onto REV").Word())
	}
	if c := r.CutShort; c != "" {
		// append's words (TornEnd): it refuses to add after this event.
		line := c[strings.LastIndexByte(c, ':')+1:]
		fmt.Fprintf(w, "event log: %s: the last event is cut short: the file ends mid-line in it, as an append interrupted by a crash or power loss leaves it, and append refuses to add after it: delete it (line %s to the end of the file) or complete it\n", c, line)
	}
	if r.LastEvent != nil {
		// The summary is clipped already (ReadStatus).
		fmt.Fprintf(w, "last event: %s\n", *r.LastEvent)
	} else {
		fmt.Fprintln(w, "last event: none")
	}
	for _, d := range []DerivedStatus{r.Graph, r.Context} {
		fmt.Fprintf(w, "%s: %s\n", d.File, d.text(last, r.Tier).For(f))
	}
	if r.Context.State != "missing" && r.Context.State != "unreadable" {
		fmt.Fprintf(w, "context size: %s, ~%s\n", words.Plural(r.Context.Words, "word"), words.Plural(r.Context.Tokens, "token"))
	}
	if r.OpenLoops > 0 {
		front.Fprintf(w, f, "open loops: %d: %s lists them, oldest first\n", r.OpenLoops, front.Loops.Word())
	} else {
		fmt.Fprintln(w, "open loops: 0")
	}
	if r.ArchiveDue {
		fmt.Fprintf(w, "archive: due (%s in the log, threshold %d)", words.Plural(r.Log.Events, "event"), r.ArchiveThreshold)
		switch p := r.ArchivePlan; {
		case p == nil:
			front.Fprintf(w, f, ": run %s\n", front.Archive.Word())
		case p.Error != "":
			fmt.Fprintf(w, ", but archive cannot run: %s\n", p.message(f))
		case p.Moves == 0:
			fmt.Fprintf(w, ", but nothing can move: %s\n", p.Reason)
		case p.Interrupted != "":
			front.Fprintf(w, f, ": an archive was interrupted (%s already in the archive): run %s to finish it (moves %s; %s stays: %s)\n", p.Interrupted, front.Archive.Word(), words.Plural(p.Moves, "event"), p.Boundary, p.Reason)
		case p.AtLeast:
			front.Fprintf(w, f, ": run %s (it moves at least %s; %s names them)\n", front.Archive.Word(), words.Plural(p.Moves, "event"), front.Archive.Flag(inDryRun).Short())
		default:
			front.Fprintf(w, f, ": run %s (moves %s; %s stays: %s)\n", front.Archive.Word(), words.Plural(p.Moves, "event"), p.Boundary, p.Reason)
		}
	} else {
		fmt.Fprintf(w, "archive: not due (%d of %d events)\n", r.Log.Events, r.ArchiveThreshold)
	}
}

// For is r with the messages its JSON form carries (the archive plan's
// error) worded for front f: memsys_status's structured result says
// what its text says.
func (r *StatusReport) For(f front.Front) *StatusReport {
	if (r.ArchivePlan == nil || r.ArchivePlan.err == nil) && r.Graph.err == nil && r.Context.err == nil {
		return r
	}
	c := *r
	if r.ArchivePlan != nil && r.ArchivePlan.err != nil {
		p := *r.ArchivePlan
		p.Error = p.message(f)
		c.ArchivePlan = &p
	}
	for _, d := range []*DerivedStatus{&c.Graph, &c.Context} {
		if d.err != nil {
			d.Reason = unreadableErr{d.File, d.err}.For(f)
		}
	}
	return &c
}

// message is the plan's error as front f words it.
func (p *ArchivePreview) message(f front.Front) string {
	if p.err == nil {
		return p.Error
	}
	return front.Message(p.err, f)
}

// text is the state of d, with the advice that makes it fresh.
func (d DerivedStatus) text(last, tier string) front.Text {
	switch {
	case d.State == "missing" && !d.Expected:
		return front.Sprintf("missing (not part of this tier)")
	case d.State == "missing":
		return front.Sprintf("missing: run %s", front.Regen.Word())
	case d.State == "unreadable" && !d.Expected:
		return front.Sprintf("unreadable (not part of this tier): %s", d.reason())
	case d.State == "unreadable":
		return front.Sprintf("unreadable: %s", d.reason())
	case d.State == "fresh":
		return front.Sprintf("fresh (horizon %s)", or(d.Horizon, "none"))
	}
	fix := front.Sprintf("run %s", front.Regen.Word())
	if !d.Expected {
		fix = lint.NotInTier(tier) // regen writes only the tier's files
	}
	if d.LogRewritten {
		return front.Sprintf("stale (horizon %s, last event %s): %s", or(d.Horizon, "none"), or(last, "none"), logRewrittenAdvice("it", d.Horizon))
	}
	if d.ConflictLine > 0 && d.Expected {
		return front.Sprintf("stale (git's conflict markers at line %d): %s", d.ConflictLine, lint.ConflictedAdvice)
	}
	if materialize.Ahead(d.Horizon, last) {
		return front.Sprintf("stale (horizon %s, after the last event %s: %s): %s", d.Horizon, last, lint.AheadNote, fix)
	}
	if len(d.Curated) > 0 {
		it := "them"
		if len(d.Curated) == 1 {
			it = "it"
		}
		drop := inRegenForce.Word() // regen alone keeps the file and exits 2
		fix = front.Sprintf("and it holds %s no replay of the log produces (%s): run %s to record %s as events (%s would drop %s)",
			words.Plural(len(d.Curated), "item"), words.Clip(strings.Join(d.Curated, ", ")), front.Adopt.Word(), it, drop, it)
		if advice, edge := lint.HandKeptAdvice(d.Curated); edge {
			// Edge attributes adopt cannot record: lint's advice.
			fix = front.Sprintf("and it holds %s no replay of the log produces (%s): %s",
				words.Plural(len(d.Curated), "item"), words.Clip(strings.Join(d.Curated, ", ")), advice)
		}
		if d.Differs {
			return front.Sprintf("stale (horizon %s, but the content is not what regen writes), %s", or(d.Horizon, "none"), fix)
		}
		return front.Sprintf("stale (horizon %s, last event %s), %s", or(d.Horizon, "none"), or(last, "none"), fix)
	}
	if d.Differs {
		return front.Sprintf("stale (horizon %s, but the content is not what regen writes: edited by hand, an event edited, other options, or another version of memsys): %s", or(d.Horizon, "none"), fix)
	}
	return front.Sprintf("stale (horizon %s, last event %s): %s", or(d.Horizon, "none"), or(last, "none"), fix)
}

// reason is d.Reason worded for each front end: the read error's own
// advice (it may name memsys init), as its Message gives it.
func (d DerivedStatus) reason() any {
	if d.err == nil {
		return d.Reason
	}
	return unreadableErr{d.File, d.err}
}

// unreadableErr is a derived file's read error as status words it
// (unreadableReason) for each front end.
type unreadableErr struct {
	rel string
	err error
}

func (u unreadableErr) Error() string { return u.For(front.CLI) }
func (u unreadableErr) For(f front.Front) string {
	return unreadableReason(u.rel, front.Message(u.err, f))
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// statusCached gathers what ReadStatus reports from the history cache:
// the counts, last event and source digest of the checkpoint of the
// last replay (regen, append --regen), plus the events appended since,
// read headers-only. On a 100k-event log that is a hash of the log
// instead of a parse of it. ok is false without a usable checkpoint.
// order receives the order of the log's IDs: the checkpoint's,
// continued over the events after it; at the digests through the
// derived files' horizons.
func statusCached(root string, cfg config.Config, order *parse.Order, at *horizonDigests) (mem *workspace.Memory, last *parse.Event, inLog, inArchive int, src *materialize.SourceHasher, c *checkpointed, ok bool) {
	if !workspace.CacheEnabled() {
		return nil, nil, 0, 0, nil, nil, false
	}
	c, ok = loadCheckpoint(root, lint.RenderOptions(cfg))
	if !ok {
		return nil, nil, 0, 0, nil, nil, false
	}
	mem, cp := c.mem, c.head
	src, err := materialize.UnmarshalSourceHasher(cp.Source)
	if err != nil {
		return nil, nil, 0, 0, nil, nil, false
	}
	last, inLog, inArchive, *order = cp.Last, cp.LogEvents, cp.ArchiveEvents, cp.LogOrder
	if cp.Last != nil {
		at.see(cp.Last.Num, src)
	}
	for _, e := range cp.Earlier {
		at.known(e)
	}
	log, n := resumeLog(cp, c.suffix(), func(e *parse.Event) {
		src.Add(e)
		at.see(e.Num, src)
		last = e
		if e.InLog {
			inLog++
			order.Add(e)
		}
	}, parse.HeadersOnly())
	if workspace.CheckCount(n) != nil {
		return nil, nil, 0, 0, nil, nil, false
	}
	mem.Log, mem.Archive = &log, cp.Archive
	statusHits++
	return mem, last, inLog, inArchive, src, c, true
}

// statusHits counts statuses answered through the cache, for the tests.
var statusHits int
