package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Report is `memsys report`: seed 000's integrity report, one page
// that is a pure function of the files, so it can be committed after
// each consolidation and diffed.
type Report struct {
	Horizon    string           `json:"horizon"`
	At         string           `json:"at"`
	Events     ReportEvents     `json:"events"`
	ByType     []Count          `json:"by_type"`
	ByAgent    []Count          `json:"by_agent"`
	OpenLoops  []LoopView       `json:"open_loops"`
	Conflicts  []ConflictView   `json:"conflicts"`
	Superseded []SupersededView `json:"superseded"`
	Derived    []DerivedView    `json:"derived"`
	Findings   ReportFindings   `json:"findings"`
	Archive    ReportArchive    `json:"archive"`
}

// ReportEvents counts the history.
type ReportEvents struct {
	Total   int `json:"total"`
	Log     int `json:"log"`
	Archive int `json:"archive"`
}

// Count is a name and how many.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// ConflictView is one conflict between live decisions.
type ConflictView struct {
	Key          string `json:"key"`
	Earlier      string `json:"earlier"`
	EarlierValue string `json:"earlier_value"`
	Later        string `json:"later"`
	LaterValue   string `json:"later_value"`
}

// SupersededView is one superseded event and the event that supersedes
// it.
type SupersededView struct {
	ID string `json:"id"`
	By string `json:"by"`
}

// DerivedView is one derived file of the tier and whether it holds
// exactly what regen would write.
type DerivedView struct {
	File  string `json:"file"`
	State string `json:"state"` // current, outdated, missing or unreadable
}

// ReportFindings counts lint's findings.
type ReportFindings struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	// Baseline counts the findings .memsys-baseline.json accepted,
	// which lint does not show and which are not in the other counts.
	Baseline int     `json:"baseline"`
	ByRule   []Count `json:"by_rule"`
}

// ReportArchive is the state of the Archival Protocol.
type ReportArchive struct {
	File      string `json:"file"`
	Events    int    `json:"events"`
	Due       bool   `json:"due"`
	Threshold int    `json:"threshold"`
}

// BuildReport reads root and builds its report. With the cache on
// (workspace.CacheEnabled) it is built through the caches the other
// commands use (reportCached): the findings as memsys lint judges them
// (the lint result cache, else its resumed Session), the graph, the
// derived files and the counts from the history cache's replay (its
// checkpoints keep the counts). Any of them failing means the cold
// build, which reports the error as it always did: the caches change
// the cost of a report, never a byte of it (TestReportCachedEqualsCold).
func BuildReport(root string) (*Report, error) {
	if workspace.CacheEnabled() {
		if r, ok := reportCached(root); ok {
			return r, nil
		}
	}
	return reportCold(root)
}

// reportCold builds the report from a full parse and one lint Session
// that also replays the history (lint.Linter.CheckReplay).
func reportCold(root string) (*Report, error) {
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, err
	}
	mem, err := LoadHistory(root)
	if err != nil {
		return nil, err
	}
	l, err := lint.New(cfg)
	if err != nil {
		return nil, err
	}
	// lint and the derived files' states read the same files: once.
	// Files are looked for as memsys lint looks (LintInput), so the
	// findings are the ones the lint cache holds.
	in := LintInput(root)
	readFile := memoFile(in.ReadFile)
	ds, x := l.CheckReplay(lint.Input{
		LogFile: workspace.LogName, Log: mem.Log, Archive: mem.Archive, Events: mem.Events,
		ReadFile: readFile, Exists: in.Exists,
	})
	ds = interruptedFindings(func() ([]byte, string, []byte) { return mem.LogBytes, mem.ArchivePath, mem.ArchiveBytes }, ds)
	if x == nil {
		// A Session that could not replay (a rule failed) leaves none.
		x = materialize.NewReplayer(lint.RenderOptions(cfg))
		x.Expect(materialize.Supersessions(mem.Events))
		for i := range mem.Events {
			x.Apply(&mem.Events[i])
		}
	}
	t := &historyTally{}
	for i := range mem.Events {
		t.add(&mem.Events[i])
	}
	by := materialize.SupersededBy(mem.Events)
	for i := range mem.Events {
		if s, ok := by[i]; ok {
			t.superseded = append(t.superseded, SupersededView{ID: mem.Events[i].ID, By: s})
		}
	}
	r := newReport(x.Graph(), t.view(), cfg, mem.ArchivePath)
	r.Derived = derivedViews(Derive(x, workspace.TierAt(root, cfg.Tier)), readFile)
	if err := r.setFindings(root, memFiles{root: root}, l, ds); err != nil {
		return nil, err
	}
	return r, nil
}

// reportCached builds the report through the caches; ok is false when
// anything failed, and the cold build then says what. The log and the
// archive are read once (memFiles.held) for the lint, the replay and
// the counts.
func reportCached(root string) (*Report, bool) {
	files := memFiles{root: root}
	cfg, err := files.loadConfig()
	if err != nil {
		return nil, false
	}
	l, err := lint.New(cfg)
	if err != nil {
		return nil, false
	}
	held, err := workspace.Read(root)
	if err != nil {
		return nil, false
	}
	feed := &replayFeed{}
	files.held, files.feed = held, feed
	in := files.input()
	readFile := memoFile(in.ReadFile)
	in.ReadFile = readFile
	// The path memsys lint takes without git revisions: the report's
	// findings are lint's.
	ds, _, err := lintJudged(l, files, nil, in, false)
	if err != nil {
		return nil, false
	}
	opt := lint.RenderOptions(cfg)
	mem := files.heldCopy()
	c, ok := loadCheckpointFrom(root, opt, mem)
	if !ok {
		c = &checkpointed{mem: mem, held: true}
	}
	// When the lint went cold, its Session replayed the whole history:
	// a replay that cannot resume from the history cache takes that.
	c.fed = feed
	_, rd, err := replayCached(root, opt, c, func(*workspace.Memory) parse.Tier { return workspace.TierAt(root, cfg.Tier) })
	if err != nil {
		return nil, false
	}
	// The replay counted the events as it went (or a checkpoint held
	// their count). One that could not had its Supersedes fields
	// predicted wrong from the bytes and replayed twice: a history
	// rare enough to report cold.
	if rd.counts == nil {
		return nil, false
	}
	replayCounted++
	r := newReport(rd.x.Graph(), rd.counts, cfg, held.ArchivePath)
	r.Derived = derivedViews(rd.derive(workspace.TierAt(root, cfg.Tier)), readFile)
	if err := r.setFindings(root, files, l, ds); err != nil {
		return nil, false
	}
	return r, true
}

// replayCounted counts the reports whose counts came with the replay,
// and reportFed those whose replay was the lint Session's, for the
// tests.
var replayCounted, reportFed int

// replayFeed keeps a cold lint Session's replay for memsys report
// (memFiles.feed). A report that neither cache can answer would replay
// the history twice: the lint Session replays it for its drift rules
// and MS127/MS128, and the report's replay (replayCached) again, each
// costing about a cold regen. The Session's replay, when whole and
// exact (no second stream), is the replay replayRead makes of the same
// bytes: the same Replayer with the same options, told the same
// Supersedes fields beforehand, fed every event in order. The counts
// are taken as replayRead takes them.
type replayFeed struct {
	mem  *workspace.Memory
	x    *materialize.Replayer
	last lastEvent
	n    int
}

// keep records the replay x of the n events of mem, after the lint
// Session's Finish. A memory the parser could not read whole keeps
// nothing: the report's cold build reports it (as replayRead would).
func (f *replayFeed) keep(mem *workspace.Memory, x *materialize.Replayer, last lastEvent, n int) {
	if mem.Incomplete() != nil {
		return
	}
	last.edges = x.Seen() // the caller keeps an exact replay only
	f.mem, f.x, f.last, f.n = mem, x, last, n
}

// use returns the kept replay with its counts and saves it in the
// history cache as replayRead saves a cold replay (with the digests
// earlier of the checkpoint it replaces), for the next command.
func (f *replayFeed) use(root string, opt materialize.Options, tier parse.Tier, earlier []earlierSum) *rendered {
	reportFed++
	r := &rendered{x: f.x, counts: f.last.counts.view()}
	if saveable(f.mem, f.last) {
		if p, err := workspace.HashPrefix(f.mem.LogBytes[:f.last.EndOffset]); err == nil {
			save(root, cacheName(root, opt, f.mem), f.mem, r, tier, f.last, f.n, p, nil, earlier)
		}
	}
	return r
}

// historyCounts is what memsys report counts of a history: its events
// by type and by agent (sorted by name), those of the log and of the
// archive, and the superseded events. The history cache keeps it with
// its checkpoints (replayCheckpoint.Counts), so that a report need not
// parse the history again.
type historyCounts struct {
	Types, Agents []Count
	Log, Arch     int
	Superseded    []SupersededView
}

// historyTally counts a history as it streams by (historyCounts). A
// nil one counts nothing.
type historyTally struct {
	types, agents map[string]int
	log, arch     int
	// track, when set, finds the superseded events as they pass; the
	// caller checks that it was Exact.
	track      *materialize.SupersedeTracker
	superseded []SupersededView
}

// add counts e, the history's next event.
func (t *historyTally) add(e *parse.Event) {
	if t == nil {
		return
	}
	if t.types == nil {
		t.types, t.agents = map[string]int{}, map[string]int{}
	}
	t.types[e.Type]++
	t.agents[e.Agent]++
	if e.Range.File == workspace.LogName {
		t.log++
	} else {
		t.arch++
	}
	if t.track != nil {
		if by, ok := t.track.Next(e); ok {
			t.superseded = append(t.superseded, SupersededView{ID: e.ID, By: by})
		}
	}
}

// view is the counts so far, nil for a nil tally.
func (t *historyTally) view() *historyCounts {
	if t == nil {
		return nil
	}
	return &historyCounts{Types: counts(t.types), Agents: counts(t.agents), Log: t.log, Arch: t.arch,
		Superseded: append([]SupersededView{}, t.superseded...)}
}

// resume is a tally that goes on from c: the events after c's add to
// its counts and supersede nothing (the history cache resumes only a
// suffix without a Supersedes field). nil for a nil c.
func (c *historyCounts) resume() *historyTally {
	if c == nil {
		return nil
	}
	t := &historyTally{types: map[string]int{}, agents: map[string]int{}, log: c.Log, arch: c.Arch, superseded: c.Superseded}
	for _, x := range c.Types {
		t.types[x.Name] = x.Count
	}
	for _, x := range c.Agents {
		t.agents[x.Name] = x.Count
	}
	return t
}

// newReport is the report's graph facts (g, the replay of the whole
// history), counts (t) and archive state; the derived files and the
// findings are set after.
func newReport(g *materialize.Graph, t *historyCounts, cfg config.Config, archivePath string) *Report {
	r := &Report{Horizon: g.Horizon, At: g.Updated, OpenLoops: loopViews(g), Conflicts: []ConflictView{}, Derived: []DerivedView{}}
	r.Events = ReportEvents{Total: t.Log + t.Arch, Log: t.Log, Archive: t.Arch}
	r.ByType = append([]Count{}, t.Types...)
	r.ByAgent = append([]Count{}, t.Agents...)
	r.Superseded = append([]SupersededView{}, t.Superseded...)
	for _, c := range g.Conflicts() {
		r.Conflicts = append(r.Conflicts, ConflictView{Key: c.Key, Earlier: c.Earlier.ID, EarlierValue: c.Earlier.Value, Later: c.Later.ID, LaterValue: c.Later.Value})
	}
	r.Archive = ReportArchive{File: archivePath, Events: t.Arch, Threshold: cfg.ArchiveThreshold, Due: t.Log > cfg.ArchiveThreshold}
	return r
}

// derivedViews says of each file regen would write whether the file on
// disk (read through readFile) holds exactly that, line endings aside
// (sameText): a CRLF checkout of a current file is current, as status,
// lint and regen --check say. The report called it outdated.
func derivedViews(files []Derived, readFile func(string) ([]byte, error)) []DerivedView {
	out := []DerivedView{}
	for _, f := range files {
		// A file that is there but cannot be read (a folder, no
		// permission) is not "outdated": regen stops on it as well
		// (readDerived), so the report says what status says.
		state := "current"
		switch b, err := readFile(f.File); {
		case errors.Is(err, fs.ErrNotExist):
			state = "missing"
		case err != nil:
			state = "unreadable"
		case !sameText(b, f.Data):
			state = "outdated"
		}
		out = append(out, DerivedView{File: f.File, State: state})
	}
	return out
}

// setFindings counts lint's findings ds after the baseline.
func (r *Report) setFindings(root string, files memFiles, l *lint.Linter, ds diag.Diagnostics) error {
	// The baseline is applied as lint applies it, so the receipt counts
	// what lint reports (MS208 included) and a damaged file stops both.
	ds, n, err := applyBaseline(root, files, l, ds, false, func(string) {}, func(f string) string { return f })
	if err != nil {
		return err
	}
	r.Findings.Baseline = n
	rules := map[string]int{}
	for _, d := range ds {
		switch d.Severity {
		case diag.Error:
			r.Findings.Errors++
		case diag.Warning:
			r.Findings.Warnings++
		case diag.Note:
			r.Findings.Notes++
		}
		name := d.Rule
		if name == "" {
			name = "(parse)"
		}
		rules[name+" "+d.Severity.String()]++
	}
	r.Findings.ByRule = counts(rules)
	return nil
}

// memoFile returns read, remembering each file's result: lint and the
// derived files' states read the same files, once.
func memoFile(read func(string) ([]byte, error)) func(string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	seen := map[string]result{}
	return func(rel string) ([]byte, error) {
		r, ok := seen[rel]
		if !ok {
			r.b, r.err = read(rel)
			seen[rel] = r
		}
		return r.b, r.err
	}
}

// counts sorts a tally by name, so the report never depends on map
// order.
func counts(m map[string]int) []Count {
	out := make([]Count, 0, len(m))
	for k, v := range m {
		out = append(out, Count{k, v})
	}
	slices.SortFunc(out, func(a, b Count) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Markdown renders the report as one page.
func (r *Report) Markdown() string {
	var b strings.Builder
	line := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	line("# Memory report")
	line("")
	line("- **Event horizon**: %s (%s)", orDash(r.Horizon), orDash(r.At))
	line("- **Events**: %d (log %d, archive %d)", r.Events.Total, r.Events.Log, r.Events.Archive)
	accepted := ""
	if r.Findings.Baseline > 0 {
		accepted = fmt.Sprintf("; %d accepted in %s", r.Findings.Baseline, lint.BaselineFile)
	}
	line("- **Findings**: errors %d, warnings %d, notes %d%s", r.Findings.Errors, r.Findings.Warnings, r.Findings.Notes, accepted)
	table := func(title, col string, cs []Count) {
		line("")
		line("## %s", title)
		line("")
		if len(cs) == 0 {
			line("- (none)")
			return
		}
		line("| %s | Count |", col)
		line("|%s|-------|", strings.Repeat("-", len(col)+2))
		for _, c := range cs {
			line("| %s | %d |", cell(c.Name), c.Count)
		}
	}
	table("Events by type", "Type", r.ByType)
	table("Events by agent", "Agent", r.ByAgent)
	list := func(title string, items []string) {
		line("")
		line("## %s", title)
		line("")
		if len(items) == 0 {
			line("- (none)")
		}
		for _, it := range items {
			line("- %s", it)
		}
	}
	var loops, conflicts, sup, derived []string
	for _, l := range r.OpenLoops {
		loops = append(loops, oneLine(l.String()))
	}
	for _, c := range r.Conflicts {
		conflicts = append(conflicts, fmt.Sprintf("%s: %s says %s, %s says %s", oneLine(c.Key), c.Earlier, strconv.Quote(c.EarlierValue), c.Later, strconv.Quote(c.LaterValue)))
	}
	for _, s := range r.Superseded {
		sup = append(sup, s.ID+" superseded by "+s.By)
	}
	for _, d := range r.Derived {
		derived = append(derived, d.File+": "+d.State)
	}
	list("Open loops", loops)
	list("Conflicts", conflicts)
	list("Superseded events", sup)
	list("Derived files", derived)
	table("Rule findings", "Rule", r.Findings.ByRule)
	line("")
	line("## Archive")
	line("")
	if r.Archive.File == "" {
		line("- **File**: none")
	} else {
		line("- **File**: %s (%s)", r.Archive.File, words.Plural(r.Archive.Events, "event"))
	}
	due := "no"
	if r.Archive.Due {
		due = "yes"
	}
	line("- **Archival due**: %s (%s in the log, threshold %d)", due, words.Plural(r.Events.Log, "event"), r.Archive.Threshold)
	return b.String()
}
