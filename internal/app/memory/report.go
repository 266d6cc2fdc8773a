package memory

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/materialize"
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

// BuildReport reads root and builds its report.
func BuildReport(root string) (*Report, error) {
	cfg, err := workspace.LoadConfig(root)
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
	type read struct {
		b   []byte
		err error
	}
	reads := map[string]read{}
	readFile := func(rel string) ([]byte, error) {
		r, ok := reads[rel]
		if !ok {
			r.b, r.err = workspace.ReadFile(root, rel)
			reads[rel] = r
		}
		return r.b, r.err
	}
	ds, x := l.CheckReplay(lint.Input{
		LogFile: workspace.LogName, Log: mem.Log, Archive: mem.Archive, Events: mem.Events,
		ReadFile: readFile,
		Exists:   func(rel string) bool { return workspace.Lstat(root, rel) == nil },
	})
	if x == nil {
		// A Session that could not replay (a rule failed) leaves none.
		x = materialize.NewReplayer(lint.RenderOptions(cfg))
		x.Expect(materialize.Supersessions(mem.Events))
		for i := range mem.Events {
			x.Apply(&mem.Events[i])
		}
	}
	g := x.Graph()
	r := &Report{Horizon: g.Horizon, At: g.Updated, OpenLoops: loopViews(g), Conflicts: []ConflictView{}, Superseded: []SupersededView{}, Derived: []DerivedView{}}
	r.Events = ReportEvents{Total: len(mem.Events), Log: len(mem.Log.Events)}
	if mem.Archive != nil {
		r.Events.Archive = len(mem.Archive.Events)
	}
	types, agents := map[string]int{}, map[string]int{}
	for i := range mem.Events {
		types[mem.Events[i].Type]++
		agents[mem.Events[i].Agent]++
	}
	r.ByType, r.ByAgent = counts(types), counts(agents)
	for _, c := range g.Conflicts() {
		r.Conflicts = append(r.Conflicts, ConflictView{Key: c.Key, Earlier: c.Earlier.ID, EarlierValue: c.Earlier.Value, Later: c.Later.ID, LaterValue: c.Later.Value})
	}
	by := materialize.SupersededBy(mem.Events)
	for i := range mem.Events {
		if s, ok := by[i]; ok {
			r.Superseded = append(r.Superseded, SupersededView{ID: mem.Events[i].ID, By: s})
		}
	}
	for _, f := range Derive(x, TierOf(cfg, mem)) {
		// A file that is there but cannot be read (a folder, no
		// permission) is not "outdated": regen stops on it as well
		// (readDerived), so the report says what status says.
		state := "current"
		switch b, err := readFile(f.File); {
		case errors.Is(err, fs.ErrNotExist):
			state = "missing"
		case err != nil:
			state = "unreadable"
		case !bytes.Equal(b, f.Data):
			state = "outdated"
		}
		r.Derived = append(r.Derived, DerivedView{File: f.File, State: state})
	}
	// The baseline is applied as lint applies it, so the receipt counts
	// what lint reports (MS208 included) and a damaged file stops both.
	ds, r.Findings.Baseline, err = applyBaseline(root, memFiles{root: root}, l, ds, false, func(string) {}, func(f string) string { return f })
	if err != nil {
		return nil, err
	}
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
	r.Archive = ReportArchive{File: mem.ArchivePath, Events: r.Events.Archive, Threshold: cfg.ArchiveThreshold,
		Due: len(mem.Log.Events) > cfg.ArchiveThreshold}
	return r, nil
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
