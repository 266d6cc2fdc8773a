package main

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Archival defaults from the seed's Archival Protocol.
const (
	lcDefaultThreshold = 50
	lcDefaultKeep      = 20
)

// archiveCommand is the seed's Archival Protocol as one verified move.
//
// Determinism: the archive date and the archive event's time default
// to the time of the last event in the log, not the wall clock, so
// archiving a given log always writes the same bytes (two agents that
// archive the same history produce identical files, and tests need no
// fake clock). --time overrides the event time.
func archiveCommand() *cli.Command {
	return &cli.Command{
		Name:  "archive",
		Usage: "move old events to changelog-archive.md (the seed's Archival Protocol), verified byte for byte",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "print the boundary and what would move; write nothing"},
			&cli.IntFlag{Name: "keep", Usage: "always keep the last `N` events in the log (default from .memsys.json, else 20)"},
			&cli.IntFlag{Name: "threshold", Usage: "archive only when the log holds more than `N` events (default from .memsys.json, else 50)"},
			&cli.StringFlag{Name: "agent", Usage: "agent `NAME` of the archive event (default $MEMSYS_AGENT, else $USER, else \"agent\")"},
			&cli.StringFlag{Name: "time", Usage: "archive event `TIME` \"YYYY-MM-DD HH:MM\" (default: the last event's time)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json"},
		},
		Action: runArchive,
	}
}

// lcThresholds returns the archive threshold and keep count: flags
// first, then the defaults of the Archival Protocol.
func lcThresholds(cmd *cli.Command, root string) (threshold, keep int, err error) {
	threshold, keep = lcDefaultThreshold, lcDefaultKeep
	if cmd.IsSet("threshold") {
		threshold = int(cmd.Int("threshold"))
	}
	if cmd.IsSet("keep") {
		keep = int(cmd.Int("keep"))
	}
	if threshold < 0 || keep < 0 {
		return 0, 0, usageErr("--threshold and --keep must not be negative")
	}
	return threshold, keep, nil
}

// archiveResult is the JSON form of archive.
type archiveResult struct {
	Due          bool     `json:"due"`
	Events       int      `json:"events"`
	Threshold    int      `json:"threshold"`
	Keep         int      `json:"keep"`
	Boundary     string   `json:"boundary"`
	Reason       string   `json:"reason"`
	Moved        []string `json:"moved"`
	ArchiveFile  string   `json:"archive_file"`
	ArchiveEvent string   `json:"archive_event"`
	DryRun       bool     `json:"dry_run"`
}

func runArchive(ctx context.Context, cmd *cli.Command) error {
	format, err := lcFormat(cmd, "text", "json")
	if err != nil {
		return err
	}
	root, err := lcRoot(cmd)
	if err != nil {
		return err
	}
	threshold, keep, err := lcThresholds(cmd, root)
	if err != nil {
		return err
	}
	dry := cmd.Bool("dry-run")
	if !dry {
		unlock, err := workspace.Lock(root)
		if err != nil {
			return cannotRun{err}
		}
		defer unlock()
	}

	logSrc, err := workspace.ReadFile(root, workspace.LogName)
	if err != nil {
		return cannotRun{err}
	}
	archName, archSrc, err := memory.ReadArchive(root)
	if err != nil {
		return err
	}
	if archName == "" {
		archName = memory.DefaultArchiveName
	}
	log := parse.Parse(workspace.LogName, logSrc)
	arch := parse.Parse(archName, archSrc, parse.Archive())
	if err := lcParseClean(log, arch); err != nil {
		return err
	}
	resumed := lcInterrupted(logSrc, log, archSrc, arch)
	if resumed == 0 {
		if err := lcNoOverlap(arch, log); err != nil {
			return err
		}
	}
	before := append(lcInLog(arch), lcInLog(log)[resumed:]...)
	g, _ := materialize.Replay(before)

	plan := memory.PlanArchive(log, lcPinned(g), keep, threshold)
	if resumed > 0 {
		// An archive killed between its two writes left the moved events
		// in both files. Finish it: the archive already holds them, byte
		// for byte, so only the log is rewritten, as that run would have.
		le := lcInLog(log)
		plan = memory.ArchivePlan{Due: true, Count: len(le), Moved: le[:resumed], Boundary: le[resumed],
			Reason: "finishing an interrupted archive: " + le[0].ID + " through " + le[resumed-1].ID + " are already in " + archName}
	}
	res := archiveResult{Due: plan.Due, Events: plan.Count, Threshold: threshold, Keep: keep, Boundary: plan.Boundary.ID,
		Reason: plan.Reason, Moved: []string{}, ArchiveFile: archName, DryRun: dry}
	for _, e := range plan.Moved {
		res.Moved = append(res.Moved, e.ID)
	}
	w := cmd.Root().Writer
	report := func() error {
		if format == "json" {
			return lcJSON(w, res)
		}
		switch {
		case len(plan.Moved) == 0:
			fmt.Fprintf(w, "nothing to archive: %s\n", plan.Reason)
		case dry:
			fmt.Fprintf(w, "would move %d events (%s) to %s\nboundary: %s (%s)\n", len(plan.Moved), plan.Span(), archName, plan.Boundary.ID, plan.Reason)
		default:
			fmt.Fprintf(w, "moved %d events (%s) to %s\nboundary: %s (%s)\narchive event: %s\n", len(plan.Moved), plan.Span(), archName, plan.Boundary.ID, plan.Reason, res.ArchiveEvent)
		}
		return nil
	}
	if len(plan.Moved) == 0 || dry {
		return report()
	}

	// The archive event, dated like the marker (see archiveCommand).
	last := before[len(before)-1]
	d := memory.Draft{
		Type:    "archive",
		Scope:   workspace.LogName,
		Summary: "Archived " + plan.Span() + " to " + archName,
		Agent:   lcAgent(cmd.String("agent")),
		Time:    last.Time.String(),
		Details: []memory.DraftDetail{
			{Key: "archived", Value: plan.Span()},
			{Key: "count", Value: strconv.Itoa(len(plan.Moved))},
			{Key: "archive_file", Value: archName},
			{Key: "boundary", Value: plan.Boundary.ID},
			{Key: "reason", Value: plan.Reason},
		},
		Refs: []string{plan.Moved[len(plan.Moved)-1].ID},
		Tags: []string{"archive"},
	}
	if cmd.IsSet("time") {
		d.Time = lcTime(cmd.String("time"))
	}
	date := last.Time.String()
	if len(date) >= 10 {
		date = date[:10]
	}
	newLog, newArch := memory.BuildArchive(logSrc, archSrc, archName, date, plan)
	if resumed > 0 {
		newArch = archSrc
	}
	postLog := parse.Parse(workspace.LogName, newLog, parse.HeadersOnly())
	postArch := parse.Parse(archName, newArch, parse.Archive(), parse.HeadersOnly())
	if err := memory.Normalize(&d, memory.KnownIn(postLog, postArch)); err != nil {
		return cannotRun{err}
	}
	id := memory.NextID(postLog, postArch)
	text := memory.Render(id, d, memory.Newline(newLog))
	if newLog, err = memory.AppendEvent(workspace.LogName, newLog, postLog, text); err != nil {
		return cannotRun{err}
	}
	res.ArchiveEvent = id

	if resumed > 0 {
		if err := lcVerifyResume(logSrc, log, resumed, newLog); err != nil {
			return err
		}
	} else if err := lcVerifyArchive(logSrc, log, archSrc, arch, newLog, newArch, archName, g); err != nil {
		return err
	}
	// Archive first: a crash between the two writes leaves the events in
	// both files (duplicated, never lost), which lint reports.
	if err := workspace.WriteFile(root, archName, newArch); err != nil {
		return cannotRun{err}
	}
	if err := workspace.WriteFile(root, workspace.LogName, newLog); err != nil {
		return cannotRun{err}
	}
	return report()
}

// lcVerifyArchive proves the move before anything is written: archive
// plus log hold the same events as before, byte for byte and in order,
// plus the archive event at the end, both files parse without new
// problems, and replaying them gives the same graph.
func lcVerifyArchive(logSrc []byte, log *parse.Log, archSrc []byte, arch *parse.Log, newLog, newArch []byte, archName string, g *materialize.Graph) error {
	nlog := parse.Parse(workspace.LogName, newLog)
	narch := parse.Parse(archName, newArch, parse.Archive())
	if err := lcParseClean(nlog, narch); err != nil {
		return cannotRun{fmt.Errorf("archive check failed, nothing was written: %w", err)}
	}
	before := []memory.Source{{Src: archSrc, Log: arch}, {Src: logSrc, Log: log}}
	after := []memory.Source{{Src: newArch, Log: narch}, {Src: newLog, Log: nlog}}
	if err := memory.VerifyMove(before, after, 1); err != nil {
		return cannotRun{err}
	}
	evs := append(lcInLog(narch), lcInLog(nlog)...)
	g2, _ := materialize.Replay(evs[:len(evs)-1])
	if !bytes.Equal(materialize.RenderGraph(g), materialize.RenderGraph(g2)) {
		return usageErr("archive check failed: the replayed graph changes after the move: nothing was written; please report this")
	}
	return nil
}

// lcParseClean refuses to archive a log with parse problems: moving
// bytes whose event boundaries are uncertain could split an event.
func lcParseClean(logs ...*parse.Log) error {
	for _, l := range logs {
		if l != nil && len(l.Problems) > 0 {
			p := l.Problems[0]
			return usageErr("%s: %s: fix the log (memsys lint) before archiving", p.Range, p.Message)
		}
	}
	return nil
}

// lcPinned maps the events still referenced by an active or blocked
// node (its Created and Last Event) to that node, the events the
// Archival Protocol must keep.
func lcPinned(g *materialize.Graph) map[string]string {
	pinned := map[string]string{}
	for _, n := range g.Nodes {
		if n.Status != "active" && n.Status != "blocked" {
			continue
		}
		for _, id := range []string{n.Created, n.LastEvent} {
			if _, ok := pinned[id]; id != "" && !ok {
				pinned[id] = n.Name
			}
		}
	}
	return pinned
}

// lcInLog returns the events of l inside its Event Log section.
func lcInLog(l *parse.Log) []parse.Event {
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

// lcInterrupted returns how many leading events of the log are
// byte-identical copies of the archive's trailing events (line endings
// aside): the state an archive killed between writing the archive and
// writing the log leaves. 0 means none, or an overlap that is not that
// (a hand edit), which lcNoOverlap then refuses. At least one event must
// stay in the log, since an archive always keeps its boundary.
func lcInterrupted(logSrc []byte, log *parse.Log, archSrc []byte, arch *parse.Log) int {
	le, ae := lcInLog(log), lcInLog(arch)
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

// lcVerifyResume proves a resumed archive loses nothing: the new log
// holds exactly the events after the copies, byte for byte, plus the
// archive event at the end.
func lcVerifyResume(logSrc []byte, log *parse.Log, resumed int, newLog []byte) error {
	want := lcInLog(log)[resumed:]
	got := lcInLog(parse.Parse(workspace.LogName, newLog))
	if len(got) != len(want)+1 {
		return cannotRun{fmt.Errorf("archive: finishing the interrupted archive would leave %d events in the log, want %d: nothing written", len(got)-1, len(want))}
	}
	for i := range want {
		if got[i].Text != want[i].Text {
			return cannotRun{fmt.Errorf("archive: finishing the interrupted archive would change %s: nothing written", want[i].ID)}
		}
	}
	return nil
}

// lcNoOverlap refuses to archive when an event ID is in both files,
// which only an interrupted archive (archive written, log not) or a
// hand edit leaves: moving again would duplicate the events.
func lcNoOverlap(arch, log *parse.Log) error {
	in := map[int]bool{}
	for _, e := range lcInLog(arch) {
		in[e.Num] = true
	}
	for _, e := range lcInLog(log) {
		if in[e.Num] {
			return usageErr("%s:%d: %s is also in %s (an interrupted archive?): check that the archive holds it byte for byte, then delete it from the log", e.Range.File, e.Range.Line, e.ID, arch.File)
		}
	}
	return nil
}
