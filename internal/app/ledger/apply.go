package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
	"github.com/memsys/memsys/parse"
)

// Result is what an import did (or, with DryRun, would do).
type Result struct {
	Lines   []Line `json:"-"`
	Events  int    `json:"events"`  // events appended (or, dry, to append)
	Skipped int    `json:"skipped"` // lines already imported, not appended again
	First   string `json:"first"`   // first new ID, "" when none is appended
	Last    string `json:"last"`
	DryRun  bool   `json:"dry_run"`
}

// Import appends the ledger's events to the memory at root, under the
// memory's lock, in one atomic write of the log: every line or none.
// With dryRun it plans and validates but writes nothing.
func Import(root, file string, src []byte, agent string, dryRun bool) (*Result, error) {
	unlock, err := workspace.Lock(root)
	if err != nil {
		return nil, err
	}
	defer unlock()
	logSrc, err := workspace.ReadFile(root, parse.LogFile)
	if err != nil {
		return nil, err
	}
	log := parse.Parse(parse.LogFile, logSrc, parse.HeadersOnly())
	var arch *parse.Log
	archName, archSrc, err := memory.ReadArchive(root)
	if err != nil {
		return nil, err
	}
	if archName != "" {
		arch = parse.Parse(archName, archSrc, parse.Archive(), parse.HeadersOnly())
	}
	first, err := memory.NextID(log, arch)
	if err != nil {
		return nil, err
	}
	edges := parse.ScanSupersedes(archName, archSrc)
	edges = append(edges, parse.ScanSupersedes(parse.LogFile, logSrc)...)
	lines, err := planEdges(file, src, first, memory.KnownIn(log, arch), ImportedIn(log, arch), agent, edges)
	if err != nil {
		return nil, err
	}
	r := &Result{Lines: lines, DryRun: dryRun}
	var texts [][]byte
	nl := memory.Newline(logSrc)
	for _, l := range lines {
		if l.Skipped {
			r.Skipped++
			continue
		}
		if r.First == "" {
			r.First = l.NewID
		}
		r.Last = l.NewID
		r.Events++
		t := l.Text
		if nl != "\n" {
			t = memory.Render(l.NewID, l.Draft, nl)
		}
		texts = append(texts, t)
	}
	if dryRun || r.Events == 0 {
		return r, nil
	}
	out, err := memory.AppendEvents(parse.LogFile, logSrc, log, texts)
	if err != nil {
		return nil, err
	}
	if err := workspace.WriteFile(root, parse.LogFile, out); err != nil {
		return nil, err
	}
	return r, nil
}

// ExportRoot writes the history of the memory at root to w as JSONL
// (see Write): its events inside an Event Log section, the archive's
// included. It writes nothing when the memory cannot be read whole, or
// when import would refuse a line of it: what export writes, import
// takes. The history streams through the parser (no event is kept,
// only its line), and the lines go out at the end, once the whole
// memory was read: the output is about the size of the log, where the
// parsed events were four times it.
func ExportRoot(root string, w io.Writer) error {
	_, err := exportRoot(root, w, false)
	return err
}

// Skip is an event ExportRootSkipping did not write as the log has it:
// left out, since import would refuse it, or written without the IDs
// it names of events left out.
type Skip struct {
	File string
	Line int // the event's heading line
	ID   string
	Why  string
}

// String is the one line a Skip prints as: "file:line: evt-ID: why".
func (s Skip) String() string { return fmt.Sprintf("%s:%d: %s: %s", s.File, s.Line, s.ID, s.Why) }

// ExportRootSkipping is ExportRoot for a history with events import
// would refuse that no one may correct (the log is append-only, so a
// committed event of the wrong shape stays): it writes every other
// event and returns one Skip for each event it left out or changed, in
// log order. An event that refers to, supersedes or closes one left
// out is written without that ID: the ID would name no line of the
// ledger, or by number another event once import renumbers, and a
// correction that supersedes the bad event is what the user wants to
// keep. What it writes, import takes (export's check runs on each line
// as written).
func ExportRootSkipping(root string, w io.Writer) ([]Skip, error) {
	return exportRoot(root, w, true)
}

func exportRoot(root string, w io.Writer, skipInvalid bool) ([]Skip, error) {
	out, skips, err := exportLines(root, true, skipInvalid)
	if errors.Is(err, errProblemInChecked) {
		out, skips, err = exportLines(root, false, skipInvalid)
	}
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(out); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return skips, nil
}

// errProblemInChecked says that the parser found a problem inside an
// event whose read-back exportLines took from the log (planner.plan):
// the text alone would not read back cleanly, so the export is checked
// again parsing every text, as import does.
var errProblemInChecked = errors.New("a problem inside an event checked from the log")

// skipAdvice ends a refusal: the log is append-only, so a committed
// event cannot be corrected, and export --skip-invalid is the way out.
const skipAdvice = "or leave out what import refuses with memsys export --skip-invalid"

// exportLines is ExportRoot's lines, or the first event export refuses.
// With fromLog, an event whose text is what import would write is
// checked against the event as the log parsed it (planner.plan). With
// skipInvalid, an event export would refuse is left out instead (a
// Skip), and the IDs later events name of it are dropped (dropSkipped).
func exportLines(root string, fromLog, skipInvalid bool) ([]byte, []Skip, error) {
	var out []byte
	var bad error // the first event holding a control character, or that import refuses
	var skips []Skip
	left := map[int]bool{} // the numbers of the events left out
	var took doneCount
	// p imports what is written into an empty memory, as the round
	// trip (export, import elsewhere) does.
	p := newPlanner(parse.FormatID(1, 3), func(int) (string, string, bool) { return "", "", false }, nil, "agent")
	checked := map[string][]span{} // by file: the events checked against the log's parse
	leaveOut := func(e *parse.Event, why string) {
		if e.Num > 0 {
			left[e.Num] = true
		}
		skips = append(skips, Skip{e.Range.File, e.Range.Line, e.ID, "left out: " + why})
	}
	mem, err := workspace.StreamWith(root, func(m *workspace.Memory) {
		// A line is a little longer than its event's text: room for
		// most histories in one allocation.
		out = make([]byte, 0, (len(m.LogBytes)+len(m.ArchiveBytes))*5/4)
		// The planner's maps at about the size they end at (an event
		// is some 300 bytes; counting the headings cost as much as the
		// growth it saved): their growth was a tenth of the check at 1k.
		p.presize((len(m.LogBytes)+len(m.ArchiveBytes))/256 + 1)
	}, func(e *parse.Event) {
		took.n++
		if !e.InLog || bad != nil {
			return
		}
		// An event holding a control character would export (JSON
		// escapes it) and then stop memsys import, which refuses one as
		// append does: refuse it here, before a line is written, where
		// the log names it (lint.ControlAt: what MS136 reports).
		if line, r, ok := lint.ControlAt(e); ok {
			if skipInvalid {
				leaveOut(e, fmt.Sprintf("it holds %s", lint.ControlMessage(r)))
				return
			}
			bad = fmt.Errorf("%s:%d: %s holds %s, then export again, %s", e.Range.File, line, e.ID, lint.ControlMessage(r), skipAdvice)
			return
		}
		// An event naming one left out is written without that name.
		var dropped []string
		w, fromThisLog := e, fromLog
		if len(left) > 0 {
			if d, ids := dropSkipped(e, func(id string) bool {
				_, ok := p.newOf.get(id)
				return !ok && idNum(id) > 0 && left[idNum(id)]
			}); len(ids) > 0 {
				w, dropped, fromThisLog = d, ids, false
			}
		}
		start := len(out)
		out = appendRecord(out, w)
		// Any other line import would refuse (an unknown type, a ref
		// or Supersedes naming no earlier event, a closes naming no
		// loop, a bad priority or time, an ID used twice: what lint
		// reports as errors) is refused here too, by import's own
		// planner run as an import into an empty memory, so the round
		// trip export promises cannot fail half way.
		ok, err := p.check(w, fromThisLog)
		if err != nil {
			if skipInvalid {
				out = out[:start]
				leaveOut(e, "memsys import would refuse it: "+err.Error())
				return
			}
			bad = fmt.Errorf("%s:%d: memsys import would refuse %s: %v; correct the event if it is not committed yet (memsys lint reports it) and export again, %s", e.Range.File, e.Range.Line, e.ID, err, skipAdvice)
			return
		}
		if len(dropped) > 0 {
			skips = append(skips, Skip{e.Range.File, e.Range.Line, e.ID, droppedWhy(dropped)})
		}
		if ok {
			checked[e.Range.File] = append(checked[e.Range.File], span{e.Range.Line, e.Range.EndLine})
		}
	}, parse.Reuse(&took))
	if err != nil {
		return nil, nil, err
	}
	if err := mem.Incomplete(); err != nil {
		return nil, nil, err
	}
	if err := mem.Unread(); err != nil {
		return nil, nil, err
	}
	// Before bad: an event checked against the log's parse may be the
	// first that import refuses.
	if problemInside(checked, mem.Archive, mem.Log) {
		return nil, nil, errProblemInChecked
	}
	if bad != nil {
		return nil, nil, bad
	}
	return out, skips, nil
}

// droppedWhy says which IDs of events left out an event is written
// without.
func droppedWhy(ids []string) string {
	if len(ids) == 1 {
		return "written without its reference to " + ids[0] + ", which is left out"
	}
	return "written without its references to " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1] + ", which are left out"
}

// dropSkipped returns a copy of e without the IDs gone says are left
// out of the export, in its Refs, its Supersedes fields and its closes
// details (a field or detail naming nothing else is dropped whole), and
// those IDs as written, each once; e itself, and no IDs, when it names
// none. e is not changed: a stream reuses its memory.
func dropSkipped(e *parse.Event, gone func(id string) bool) (*parse.Event, []string) {
	var dropped []string
	keep := func(ids []string) ([]string, bool) {
		var out []string
		changed := false
		for _, id := range ids {
			if gone(strings.TrimSpace(id)) {
				if !slices.Contains(dropped, strings.TrimSpace(id)) {
					dropped = append(dropped, strings.TrimSpace(id))
				}
				changed = true
				continue
			}
			out = append(out, id)
		}
		return out, changed
	}
	d := *e
	d.Refs, _ = keep(e.Refs)
	d.Supersedes, _ = keep(e.Supersedes)
	d.Fields = nil
	for _, f := range e.Fields {
		if parse.SameKey(f.Key, "supersedes") {
			ids, changed := keep(memory.SplitList([]string{fieldValue(e, f)}))
			if changed && len(ids) == 0 {
				continue
			}
			if changed {
				f.Value = strings.Join(ids, ", ")
			}
		}
		d.Fields = append(d.Fields, f)
	}
	d.Details = nil
	for _, x := range e.Details {
		if parse.SameKey(x.Key, "closes") {
			ids, changed := keep(memory.SplitList([]string{x.Value}))
			if changed && len(ids) == 0 {
				continue
			}
			if changed {
				x.Value = strings.Join(ids, ", ")
			}
		}
		d.Details = append(d.Details, x)
	}
	if len(dropped) == 0 {
		return e, nil
	}
	return &d, dropped
}

// span is the lines of an event, first to last.
type span struct{ first, last int }

// problemInside reports whether a problem of logs (nil ones skipped)
// falls on a line of one of the spans of its file in checked, which
// are in file order.
func problemInside(checked map[string][]span, logs ...*parse.Log) bool {
	for _, l := range logs {
		if l == nil {
			continue
		}
		for _, pr := range l.Problems {
			spans := checked[pr.Range.File]
			i, _ := slices.BinarySearchFunc(spans, pr.Range.Line, func(s span, line int) int { return cmp.Compare(s.last, line) })
			if i < len(spans) && spans[i].first <= pr.Range.Line {
				return true
			}
		}
	}
	return false
}

// doneCount is a stream's consumer that is done with each event when
// it returns (parse.Returner).
type doneCount struct{ n int }

func (d *doneCount) Taken() int    { return d.n }
func (d *doneCount) Returned() int { return d.n }

// ImportFile reads the ledger at path and imports it (see Import).
func ImportFile(root, path, agent string, dryRun bool) (*Result, error) {
	src, err := workspace.ReadInput(path)
	if err != nil {
		return nil, err
	}
	return Import(root, path, src, agent, dryRun)
}

// maxInput is the most bytes of a ledger on standard input: a ledger
// file's limit. A variable so a test can lower it.
var maxInput int64 = workspace.MaxFileSize

// StdinName names the ledger read from standard input (--from -) in
// messages and the dry run's lines.
const StdinName = "stdin"

// ImportReader reads a ledger from r (standard input) within the limit
// a ledger file has (workspace.MaxFileSize) and imports it (see Import);
// name stands for it in every message.
func ImportReader(root, name string, r io.Reader, agent string, dryRun bool) (*Result, error) {
	src, err := io.ReadAll(io.LimitReader(r, maxInput+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read: %v", name, err)
	}
	if int64(len(src)) > maxInput {
		return nil, fmt.Errorf("%s: over the %d MiB limit: split it", name, maxInput>>20)
	}
	return Import(root, name, src, agent, dryRun)
}
