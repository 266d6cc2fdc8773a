package memory

import (
	"fmt"
	"io"

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
	// Stale is true when a derived file of the tier is stale or
	// missing: the command then exits 1.
	Stale bool `json:"stale"`
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
	State    string `json:"state"`    // fresh, stale or missing
	Horizon  string `json:"horizon"`  // the event horizon written in the file
	Words    int    `json:"words,omitempty"`
	Tokens   int    `json:"tokens,omitempty"`
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
func (l EventLine) String() string {
	return l.ID + " | " + l.Time + " | " + l.Agent + " | " + l.Type + " | " + l.Summary
}

// Status reads root as memsys status does: tier, event counts, the last
// event, the seed's Staleness Check of graph.md and context.md, and
// whether archival is due above threshold events in the log.
func Status(root string, threshold int) (*StatusReport, error) {
	r, err := ReadStatus(root)
	if err != nil {
		return nil, err
	}
	r.SetThreshold(threshold)
	return r, nil
}

// SetThreshold decides whether archival is due: more than threshold
// events in the log.
func (r *StatusReport) SetThreshold(threshold int) {
	r.ArchiveThreshold = threshold
	r.ArchiveDue = r.Log.Events > threshold
}

// ReadStatus is Status before the archive threshold is known.
func ReadStatus(root string) (*StatusReport, error) {
	// Status needs counts and the last event, not the events: it reads
	// only the headings, as they stream past, and then the body of the
	// last event alone.
	mem, lastEvent, inLog, inArchive, ok := statusCached(root)
	if !ok {
		var err error
		if mem, err = workspace.Stream(root, func(e *parse.Event) {
			lastEvent = e
			if e.Range.File == workspace.LogName {
				if e.InLog {
					inLog++
				}
			} else {
				inArchive++
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
	r := &StatusReport{Tier: string(mem.Tier), Log: FileCount{File: workspace.LogName, Events: inLog}}
	if mem.Archive != nil {
		r.Archive = &FileCount{File: mem.ArchivePath, Events: inArchive}
	}
	last := ""
	if lastEvent != nil {
		l := LineOf(*lastEvent)
		r.LastEvent, last = &l, l.ID
	}
	r.Graph = derivedStatus(root, parse.GraphFile, last, mem.Tier.HasGraph(), false)
	r.Context = derivedStatus(root, parse.ContextFile, last, mem.Tier.HasContext(), true)
	r.Stale = r.Graph.Expected && r.Graph.State != "fresh" || r.Context.Expected && r.Context.State != "fresh"
	return r, nil
}

// statusCached gathers what Status reports from the history cache: the
// counts and last event of the checkpoint of the last replay (regen,
// append --regen), plus the events appended since, read headers-only.
// On a 100k-event log that is a hash of the log instead of a parse of
// it. ok is false without a usable checkpoint.
func statusCached(root string) (mem *workspace.Memory, last *parse.Event, inLog, inArchive int, ok bool) {
	if !workspace.CacheEnabled() {
		return nil, nil, 0, 0, false
	}
	cfg, err := workspace.LoadConfig(root)
	if err != nil {
		return nil, nil, 0, 0, false
	}
	mem, cp, _, suffix, ok := loadCheckpoint(root, lint.RenderOptions(cfg))
	if !ok {
		return nil, nil, 0, 0, false
	}
	last, inLog, inArchive = cp.Last, cp.LogEvents, cp.ArchiveEvents
	log, n := resumeLog(cp, suffix, func(e *parse.Event) {
		last = e
		if e.InLog {
			inLog++
		}
	}, parse.HeadersOnly())
	if workspace.CheckCount(n) != nil {
		return nil, nil, 0, 0, false
	}
	mem.Log, mem.Archive = &log, cp.Archive
	statusHits++
	return mem, last, inLog, inArchive, true
}

// statusHits counts statuses answered through the cache, for the tests.
var statusHits int

// derivedStatus applies the seed's Staleness Check (materialize.Fresh,
// as lint's MS202 and MS203 do) to one derived file. With words, size
// is reported in words (Words: whitespace-separated, HTML comments left
// out) and in tokens estimated as words × 4 / 3 rounded to the nearest
// whole token, the usual rule of thumb for English text with BPE
// tokenizers. Only context.md's size is printed, so only it is
// counted: graph.md is megabytes at 100k events.
func derivedStatus(root, rel, last string, expected, words bool) DerivedStatus {
	d := DerivedStatus{File: rel, Expected: expected}
	src, err := workspace.ReadFile(root, rel)
	if err != nil {
		d.State = "missing"
		return d
	}
	var line int
	d.Horizon, line = materialize.FindHorizon(src)
	if materialize.Fresh(d.Horizon, line, last) {
		d.State = "fresh"
	} else {
		d.State = "stale"
	}
	if words {
		d.Words = Words(src)
		d.Tokens = (d.Words*4 + 2) / 3
	}
	return d
}

// WriteText prints the report as memsys status does without --format.
func (r *StatusReport) WriteText(w io.Writer) {
	last := ""
	if r.LastEvent != nil {
		last = r.LastEvent.ID
	}
	fmt.Fprintf(w, "tier: %s\n", r.Tier)
	fmt.Fprintf(w, "events: %d in %s", r.Log.Events, r.Log.File)
	if r.Archive != nil {
		fmt.Fprintf(w, ", %d in %s", r.Archive.Events, r.Archive.File)
	}
	fmt.Fprintln(w)
	if r.LastEvent != nil {
		fmt.Fprintf(w, "last event: %s\n", r.LastEvent)
	} else {
		fmt.Fprintln(w, "last event: none")
	}
	for _, d := range []DerivedStatus{r.Graph, r.Context} {
		fmt.Fprintf(w, "%s: %s\n", d.File, d.text(last))
	}
	if r.Context.State != "missing" {
		fmt.Fprintf(w, "context size: %d words, ~%d tokens\n", r.Context.Words, r.Context.Tokens)
	}
	if r.ArchiveDue {
		fmt.Fprintf(w, "archive: due (%d events in the log, threshold %d): run memsys archive\n", r.Log.Events, r.ArchiveThreshold)
	} else {
		fmt.Fprintf(w, "archive: not due (%d of %d events)\n", r.Log.Events, r.ArchiveThreshold)
	}
}

func (d DerivedStatus) text(last string) string {
	switch {
	case d.State == "missing" && !d.Expected:
		return "missing (not part of this tier)"
	case d.State == "missing":
		return "missing: run memsys regen"
	case d.State == "fresh":
		return "fresh (horizon " + or(d.Horizon, "none") + ")"
	}
	return "stale (horizon " + or(d.Horizon, "none") + ", last event " + or(last, "none") + "): run memsys regen"
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
