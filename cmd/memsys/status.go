package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// statusCommand is the BOOT step of the seed's agent lifecycle: what
// tier this is, how many events, and whether the derived files can be
// trusted (the seed's Staleness Check). Exit 1 when a derived file of
// the tier is stale or missing, so `memsys status || memsys regen`
// works in scripts.
func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "report tier, event counts, staleness of graph.md and context.md, and whether archival is due",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
			&cli.IntFlag{Name: "threshold", Usage: "archive when the log holds more than `N` events (default from .memsys.json, else 50)"},
		},
		Action: runStatus,
	}
}

// statusReport is the JSON form of status.
type statusReport struct {
	Tier             string       `json:"tier"`
	Log              fileCount    `json:"log"`
	Archive          *fileCount   `json:"archive"`
	LastEvent        *eventLine   `json:"last_event"`
	Graph            derivedState `json:"graph"`
	Context          derivedState `json:"context"`
	ArchiveDue       bool         `json:"archive_due"`
	ArchiveThreshold int          `json:"archive_threshold"`
	Stale            bool         `json:"stale"`
}

type fileCount struct {
	File   string `json:"file"`
	Events int    `json:"events"`
}

type derivedState struct {
	File     string `json:"file"`
	Expected bool   `json:"expected"` // the tier includes this file
	State    string `json:"state"`    // fresh, stale or missing
	Horizon  string `json:"horizon"`  // the event horizon written in the file
	Words    int    `json:"words,omitempty"`
	Tokens   int    `json:"tokens,omitempty"`
}

// eventLine is the one-line view of an event that status, log and show
// print.
type eventLine struct {
	ID      string `json:"id"`
	Time    string `json:"time"`
	Agent   string `json:"agent"`
	Type    string `json:"type"`
	Scope   string `json:"scope"`
	Summary string `json:"summary"`
	File    string `json:"file"`
	Line    int    `json:"line"`
}

func lcEventLine(e parse.Event) eventLine {
	return eventLine{ID: e.ID, Time: e.Time.String(), Agent: e.Agent, Type: e.Type, Scope: e.Scope, Summary: e.Summary, File: e.Range.File, Line: e.Range.Line}
}

// String is the one-line text form, the event header with the summary:
// "evt-042 | 2026-03-01 10:00 | alice | fix | summary".
func (l eventLine) String() string {
	return l.ID + " | " + l.Time + " | " + l.Agent + " | " + l.Type + " | " + l.Summary
}

func runStatus(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	// Status needs counts and the last event, not the events: it reads
	// only the headings, as they stream past, and then the body of the
	// last event alone.
	var lastEvent *parse.Event
	inLog, inArchive := 0, 0
	mem, err := workspace.Stream(root, func(e *parse.Event) {
		lastEvent = e
		if e.Range.File == workspace.LogName {
			if e.InLog {
				inLog++
			}
		} else {
			inArchive++
		}
	}, parse.HeadersOnly())
	if err != nil {
		return cannotRun{err}
	}
	if lastEvent != nil {
		// The parser reads each event apart from the others, so its
		// text alone gives the same fields.
		if body := parse.Parse(lastEvent.Range.File, []byte(lastEvent.Text)).Events; len(body) == 1 {
			lastEvent.Scope, lastEvent.Summary = body[0].Scope, body[0].Summary
		}
	}
	if err := mem.Incomplete(); err != nil {
		return cannotRun{err}
	}
	threshold, _, err := lcThresholds(cmd, root)
	if err != nil {
		return err
	}
	r := statusReport{Tier: string(mem.Tier), Log: fileCount{File: workspace.LogName, Events: inLog}, ArchiveThreshold: threshold}
	if mem.Archive != nil {
		r.Archive = &fileCount{File: mem.ArchivePath, Events: inArchive}
	}
	last := ""
	if lastEvent != nil {
		l := lcEventLine(*lastEvent)
		r.LastEvent, last = &l, l.ID
	}
	r.ArchiveDue = r.Log.Events > threshold
	memDir := workspace.MemoryDir
	r.Graph = lcDerived(root, filepath.ToSlash(filepath.Join(memDir, workspace.GraphName)), last, mem.Tier == "full", false)
	r.Context = lcDerived(root, filepath.ToSlash(filepath.Join(memDir, workspace.ContextName)), last, mem.Tier == "full" || mem.Tier == "core", true)
	r.Stale = r.Graph.Expected && r.Graph.State != "fresh" || r.Context.Expected && r.Context.State != "fresh"

	w := cmd.Root().Writer
	if format == "json" {
		if err := lcJSON(w, r); err != nil {
			return err
		}
	} else {
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
		for _, d := range []derivedState{r.Graph, r.Context} {
			fmt.Fprintf(w, "%s: %s\n", d.File, lcDerivedText(d, last))
		}
		if r.Context.State != "missing" {
			fmt.Fprintf(w, "context size: %d words, ~%d tokens\n", r.Context.Words, r.Context.Tokens)
		}
		if r.ArchiveDue {
			fmt.Fprintf(w, "archive: due (%d events in the log, threshold %d): run memsys archive\n", r.Log.Events, threshold)
		} else {
			fmt.Fprintf(w, "archive: not due (%d of %d events)\n", r.Log.Events, threshold)
		}
	}
	if r.Stale {
		return errFindings
	}
	return nil
}

func lcDerivedText(d derivedState, last string) string {
	switch {
	case d.State == "missing" && !d.Expected:
		return "missing (not part of this tier)"
	case d.State == "missing":
		return "missing: run memsys regen"
	case d.State == "fresh":
		return "fresh (horizon " + lcOr(d.Horizon, "none") + ")"
	}
	return "stale (horizon " + lcOr(d.Horizon, "none") + ", last event " + lcOr(last, "none") + "): run memsys regen"
}

func lcOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// lcDerived applies the seed's Staleness Check to one derived file:
// its event horizon must name the last event (both "none" for an
// empty log). With words, size is reported in words (memory.Words:
// whitespace-separated, HTML comments left out) and in tokens
// estimated as words × 4 / 3 rounded to the nearest whole token, the
// usual rule of thumb for English text with BPE tokenizers. Only
// context.md's size is printed, so only it is counted: graph.md is
// megabytes at 100k events.
func lcDerived(root, rel, last string, expected, words bool) derivedState {
	d := derivedState{File: rel, Expected: expected}
	src, err := workspace.ReadFile(root, rel)
	if err != nil {
		d.State = "missing"
		return d
	}
	d.Horizon, _ = materialize.FindHorizon(src)
	if d.Horizon == last {
		d.State = "fresh"
	} else {
		d.State = "stale"
	}
	if words {
		d.Words = memory.Words(src)
		d.Tokens = (d.Words*4 + 2) / 3
	}
	return d
}
