package lint

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/udiff"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// expected returns what regen would write to rel (parse.GraphFile or
// parse.ContextFile): the Session replayed the events as they passed.
func (p *Pass) expected(rel string) ([]byte, bool) {
	return p.shared.render(rel)
}

// render returns what regen writes to rel, rendering it on first use;
// ok is false when the Session did not replay or rel is not a derived
// file. Only the goroutine running the rules calls it.
func (sh *shared) render(rel string) ([]byte, bool) {
	if b, ok := sh.derived[rel]; ok || sh.replayed == nil {
		return b, ok
	}
	if rel != parse.GraphFile && rel != parse.ContextFile {
		return nil, false
	}
	// A drift rule that will ask for the other file too (see wants)
	// gets both now, rendered side by side.
	graph := rel == parse.GraphFile || sh.wants[parse.GraphFile] && sh.derived[parse.GraphFile] == nil
	context := rel == parse.ContextFile || sh.wants[parse.ContextFile] && sh.derived[parse.ContextFile] == nil
	g, c := sh.replayed.SealedFiles(graph, context)
	if sh.derived == nil {
		sh.derived = map[string][]byte{}
	}
	if graph {
		sh.derived[parse.GraphFile] = g
	}
	if context {
		sh.derived[parse.ContextFile] = c
	}
	return sh.derived[rel], true
}

// matches reports whether got (line endings LF) is what regen writes to
// rel; ok is false when render's would be. graph.md is compared as it
// renders (materialize.Replayer.GraphMatches) and rendered whole only
// when it differs: at 100k events a second 4 MB graph.md, allocated
// when lint's heap is at its fullest, was the last step of its peak
// memory. Only the goroutine running the rules calls it.
func (sh *shared) matches(rel string, got []byte) (same, ok bool) {
	if _, done := sh.derived[rel]; done || rel != parse.GraphFile || sh.replayed == nil {
		want, ok := sh.render(rel)
		return ok && bytes.Equal(got, want), ok
	}
	// context.md, when its drift rule will ask for it, renders beside
	// the comparison, as render draws both files side by side.
	context := sh.wants[parse.ContextFile] && sh.derived[parse.ContextFile] == nil
	same, c := sh.replayed.GraphMatches(got, context)
	if sh.derived == nil {
		sh.derived = map[string][]byte{}
	}
	if context {
		sh.derived[parse.ContextFile] = c
	}
	if same {
		sh.wants[parse.GraphFile] = false // asked for only again by Derived
	}
	return same, true
}

// lastEvent is the ID of the last event of the history, "" when none.
func (p *Pass) lastEvent() string { return p.shared.last }

// cutShort reports whether the log or the archive has a line too long
// to read (MS120), so the parse stopped there: compared with a replay
// of part of the history, the derived files would look stale or kept
// by hand ("run memsys adopt"), advice that regen and adopt then
// refuse. MS120 is the finding until the line is fixed.
func (p *Pass) cutShort() bool { return cut(p.Log) || cut(p.Archive) }

// cut reports whether the parse of l stopped at a line too long to read.
func cut(l *parse.Log) bool {
	if l == nil {
		return false
	}
	for _, pr := range l.Problems {
		if pr.Kind == parse.KindLineLength {
			return true
		}
	}
	return false
}

type horizonAt struct {
	id   string
	line int
}

// horizonOf is horizon(src) for the derived file rel, computed once per
// Check. Only the goroutine running the rules calls it.
func (p *Pass) horizonOf(rel string, src []byte) (id string, line int) {
	h, ok := p.shared.horizons[rel]
	if !ok {
		h.id, h.line = materialize.FindHorizon(src)
		p.shared.horizons[rel] = h
	}
	return h.id, h.line
}

// checkStale is the seed's Staleness Check for one derived file; need
// says whether the tier requires the file. It returns the file's bytes
// when it exists and is fresh, for the drift rules.
func checkStale(p *Pass, rel string, need bool) {
	if p.cutShort() {
		return
	}
	src, err := p.ReadFile(rel)
	if errors.Is(err, fs.ErrNotExist) {
		if need {
			p.Reportf(diag.Range{File: rel}, "", "%s is missing (%s tier): run %s", rel, p.Tier(), front.Regen.Word())
		}
		return
	}
	if err != nil {
		p.Reportf(diag.Range{File: rel}, "", "cannot read %s: %s", rel, readReason(rel, err))
		return
	}
	h, line := p.horizonOf(rel, src)
	last := p.lastEvent()
	fix := front.Sprintf("run %s", front.Regen.Word())
	if !need {
		// A tier declared lower than the files present: regen writes
		// only the tier's files, so "run memsys regen" would not help.
		fix = NotInTier(p.Tier())
	}
	switch {
	case materialize.Fresh(h, line, last):
	case line == 0:
		// A graph.md or context.md kept by hand has no horizon; regen
		// refuses one with curated rows, so advise adopt, not regen.
		if rows := curated(p, rel, src); need && len(rows) > 0 {
			if n := parse.ConflictLine(src); n > 0 {
				p.Reportf(lineRange(rel, n), "", "%s holds git's conflict markers: %s", rel, ConflictedAdvice)
				return
			}
			p.Reportf(lineRange(rel, 1), "", "%s has no event horizon, the last event is %s, and it holds %s: %s", rel, last, rowsText(rows), keptAdvice(rows))
			return
		}
		p.Reportf(lineRange(rel, 1), "", "%s has no event horizon, the last event is %s: %s", rel, last, fix)
	case last == "":
		p.Reportf(lineRange(rel, line), "", "%s event horizon is %s but the log has no events: %s", rel, h, fix)
	case materialize.Ahead(h, last):
		// Before the curated rows: the rows of the missing events
		// would read as kept by hand, and adopt is no answer.
		p.Reportf(lineRange(rel, line), last, "%s event horizon is %s, after the last event %s: %s, otherwise: %s", rel, h, last, AheadNote, fix)
	default:
		shown := h
		if shown == "" {
			shown = "empty"
		}
		if rows := curated(p, rel, src); len(rows) > 0 {
			if n := parse.ConflictLine(src); n > 0 {
				p.Reportf(lineRange(rel, n), last, "%s holds git's conflict markers: %s", rel, ConflictedAdvice)
				return
			}
			p.Reportf(lineRange(rel, line), last, "%s event horizon is %s but the last event is %s, and it holds %s: %s", rel, shown, last, rowsText(rows), keptAdvice(rows))
			return
		}
		p.Reportf(lineRange(rel, line), last, "%s event horizon is %s but the last event is %s: %s", rel, shown, last, fix)
	}
}

// AheadNote says what a derived file's horizon after the last event
// means (materialize.Ahead), in lint's and status's words alike.
const AheadNote = "written from events the log no longer has; restore them if they were removed by mistake"

// StagedAdvice completes the advice of the derived-file findings in ds
// (MS201-MS205: "run memsys regen") for lint --staged, which judges the
// index: a regen alone fixes the working tree, and the commit fails again
// until the files are staged. display writes a root-relative path as
// the user sees it. It runs on the findings after the cache and the
// baseline, which know only the working tree's wording.
func StagedAdvice(ds diag.Diagnostics, display func(string) string) {
	for i := range ds {
		d := &ds[i]
		switch d.Rule {
		case "MS201", "MS202", "MS203", "MS204", "MS205":
		default:
			continue
		}
		for _, fix := range []string{": run memsys regen or memsys lint --fix", ": run memsys regen"} {
			if strings.HasSuffix(d.Message, fix) {
				d.Message = strings.TrimSuffix(d.Message, fix) + ": run memsys regen, then git add " + display(d.Range.File)
				d.MCP = "" // the hook's advice: only the command line stages files
				break
			}
		}
	}
}

// StaleRows rewrites the findings of MS202 and MS203 in ds that name
// what a stale derived file holds and the current replay lacks. The rule
// reads the file against the current replay alone, so a row a later
// event superseded reads as kept by hand, and adopt would bring it back.
// rows(file), which can read the history at the file's horizon as regen
// does, says what the file holds that memsys did not write: none gives
// regen's plain advice; false leaves the finding as it is. It runs on
// the findings after the cache, which keeps the rule's reading.
func StaleRows(ds diag.Diagnostics, rows func(file string) ([]string, bool)) {
	const holds = ", and it holds "
	for i := range ds {
		d := &ds[i]
		if d.Rule != "MS202" && d.Rule != "MS203" || !advisesKept(d.Message) {
			continue
		}
		j := strings.Index(d.Message, holds)
		if j < 0 {
			continue
		}
		items, ok := rows(d.Range.File)
		if !ok {
			continue
		}
		// The text before holds names no command: the same for both
		// front ends.
		if len(items) == 0 {
			d.Message, d.MCP = spellings("%s: run %s", []any{d.Message[:j], front.Regen.Word()})
			continue
		}
		d.Message, d.MCP = spellings("%s%s%s: %s", []any{d.Message[:j], holds, rowsText(items), keptAdvice(items)})
	}
}

// StaleLogRewritten rewrites the findings of MS202 and MS203 in ds on
// file that name what the stale file holds and advise adopt (after
// StaleRows): the caller found the file to be what memsys wrote from the
// log as committed, the events before its horizon edited since, so what
// it "holds" is the edit's effect, and advice (restore the events) is
// what to do instead.
func StaleLogRewritten(ds diag.Diagnostics, file string, advice front.Text) {
	const holds = ", and it holds "
	for i := range ds {
		d := &ds[i]
		if d.Rule != "MS202" && d.Rule != "MS203" || d.Range.File != file || !advisesKept(d.Message) {
			continue
		}
		if j := strings.Index(d.Message, holds); j >= 0 {
			d.Message, d.MCP = spellings("%s: %s", []any{d.Message[:j], advice})
		}
	}
}

// NotInTier is the advice for a stale derived file that tier does not
// use: memsys regen does not write it. Status words it for its reader
// (memsys_regen over MCP); lint's findings say it as the CLI does.
func NotInTier(tier string) front.Text {
	return front.Sprintf("the %s tier does not use it, so %s does not write it: delete it, or declare a tier that has it", tier, front.Regen.Word())
}

// ConflictedAdvice is what to do about a derived file git left its
// conflict markers in (parse.ConflictLine), which regen refuses to
// replace because the other side's rows read as kept by hand: a merge
// without memsys's driver, whose log needs merging first. lint, status
// and regen say it alike, where they advised adopt, which would record
// the other branch's rows as new events.
var ConflictedAdvice = front.Sprintf("a merge without memsys's driver left both sides' rows in it: finish merging the log, then run %s, which rewrites it from the log (the rows come back from both sides' events; %s would record them as new events)", regenForce.Word(), front.Adopt.Word())

// adoptAdvice ends the message of a derived file that holds rows no
// replay draws: regen and lint --fix keep such a file (memory's
// refuseHandKept), and only --force would throw the team's curated rows
// away.
var adoptAdvice = front.Sprintf("run %s to record them as events (%s would drop them)", front.Adopt.Word(), regenForce.Word())

// regenForce is memsys regen --force, memsys_regen with "force".
var regenForce = front.Regen.Flag(front.Input{Flag: "--force", Param: "force"})

// EdgeAttrNote says why hand-kept attributes of edges need the user:
// no event carries one (replay sets only resolved=evt-NNN on an edge),
// so memsys adopt cannot record them and fails on them, and advising
// adopt alone led nowhere. adopt says it when it wrote graph.md without
// them.
var EdgeAttrNote = front.Sprintf("no event can carry an edge attribute: record what it says as a node attribute or in an event note")

// EdgeAttrAdvice is what to do with a derived file whose hand-kept
// content is edge attributes alone: record them elsewhere, then drop
// them. adopt says it after its "not reproduced" lines when it wrote
// nothing.
var EdgeAttrAdvice = front.Sprintf("%s, then run %s to drop it", EdgeAttrNote, regenForce.Word())

// mixedAdvice ends the message of a derived file that holds both rows
// adopt records and edge attributes it cannot: adopt regenerates with
// force once it appended events, so it drops them itself.
var mixedAdvice = front.Sprintf("%s first, then run %s to record the rest as events and drop it", EdgeAttrNote, front.Adopt.Word())

// HandKeptAdvice is what to do about items, what a derived file holds
// that no replay produces (Curated): adopt them, drop the edge
// attributes among them (EdgeAttrAdvice), or both. lint (MS202-MS205),
// lint --fix, status, regen and init share it, so none advises adopt for
// what adopt cannot record. edge is false when items hold no edge
// attribute: then callers keep their own adopt wording.
func HandKeptAdvice(items []string) (advice front.Text, edge bool) {
	n := 0
	for _, it := range items {
		if materialize.IsEdgeAttr(it) {
			n++
		}
	}
	switch {
	case n == 0:
		return adoptAdvice, false
	case n == len(items):
		return EdgeAttrAdvice, true
	}
	return mixedAdvice, true
}

// keptAdvice is HandKeptAdvice's advice alone, for lint's findings.
func keptAdvice(items []string) front.Text {
	a, _ := HandKeptAdvice(items)
	return a
}

// advisesKept reports whether msg ends with advice on hand-kept content
// (keptAdvice), which StaleRows and StaleLogRewritten rewrite.
func advisesKept(msg string) bool {
	for _, a := range []front.Text{adoptAdvice, EdgeAttrAdvice, mixedAdvice} {
		if strings.HasSuffix(msg, ": "+a.String()) {
			return true
		}
	}
	return false
}

// regenAdvice ends the message of a derived file that differs from
// what regen writes.
var regenAdvice = front.Sprintf("run %s or %s", front.Regen.Word(), front.LintFix.Word())

// curated lists what the derived file rel (src) holds that the replay
// does not draw (Curated). The staleness rules (MS202, MS203) and the
// drift rules (MS204, MS205) read it as regen does, attributes too: a
// file behind the log read for whole rows only got "run memsys regen"
// for an attribute added by hand, and regen refused. What a later event
// superseded in a sealed file behind the log is sorted out after the
// rule, by the history at the file's horizon (StaleRows).
func curated(p *Pass, rel string, src []byte) []string {
	want, ok := p.expected(rel)
	if !ok {
		return nil
	}
	return Curated(rel, src, want)
}

// Curated lists what the derived file rel (src) holds that the file
// regen writes (want) lacks: for graph.md, hand-kept nodes, edges,
// types, statuses and attributes of nodes and edges; for context.md,
// hand-written Active Constraints. lint --fix keeps a file that has
// any and points to memsys adopt.
func Curated(rel string, src, want []byte) []string {
	return CuratedAll(rel, src, want)
}

// CuratedAll is Curated against several files regen writes: what every
// one of wants lacks (materialize.MissingAll). regen reads a sealed file
// edited since memsys wrote it against the file at its horizon and the
// current one: what either holds came from events.
func CuratedAll(rel string, src []byte, wants ...[]byte) []string {
	if rel == parse.ContextFile {
		return materialize.HandConstraints(src, wants...)
	}
	if rel != parse.GraphFile {
		return nil
	}
	gs := make([]*materialize.Graph, 0, len(wants))
	for _, want := range wants {
		g, err := materialize.ParseGraph(want)
		if err != nil {
			return nil
		}
		gs = append(gs, g)
	}
	hand, _ := materialize.ReadLoose(src)
	return materialize.MissingAll(hand, gs)
}

// rowsText is "2 rows no replay of the log produces (node docs, edge ...)".
func rowsText(rows []string) string {
	shown := rows
	if len(shown) > 3 {
		shown = shown[:3]
	}
	s := ""
	for i, r := range shown {
		if i > 0 {
			s += ", "
		}
		s += r
	}
	if len(rows) > len(shown) {
		s += ", …"
	}
	return words.Plural(len(rows), "item") + " no replay of the log produces (" + s + ")"
}

// isStale reports whether checkStale would report rel, so drift is not
// reported twice for a file that is merely behind.
func isStale(p *Pass, rel string, src []byte) bool {
	h, line := p.horizonOf(rel, src)
	return !materialize.Fresh(h, line, p.lastEvent())
}

// checkDrift compares rel with what regen would write.
func checkDrift(p *Pass, rel string) {
	if p.cutShort() {
		return
	}
	src, err := p.ReadFile(rel)
	if err != nil || isStale(p, rel, src) {
		return
	}
	got := src
	if bytes.IndexByte(got, '\r') >= 0 {
		// A CRLF checkout (git autocrlf) of a file regen wrote is not a
		// hand edit: compare without the CRs.
		got = bytes.ReplaceAll(got, []byte("\r\n"), []byte("\n"))
	}
	if same, ok := p.shared.matches(rel, got); same || !ok {
		return // !ok: not replayed, the file did not exist when the Session started
	}
	want, _ := p.expected(rel)
	line := firstDiff(got, want)
	msg, mcp := spellings("%s differs from what regen writes (edited by hand?): %s", []any{rel, regenAdvice})
	if materialize.SealOnlyDiffers(got, want) {
		// Only the seal differs: a memsys with another renderer
		// (materialize.RenderVersion) wrote the same text, or an event
		// was edited where the file does not show it (its tags), or the
		// context options of .memsys.json changed (the seal hashes them,
		// graph.md's too) without changing the text; the seal cannot
		// tell which, so name all three, as status does.
		msg, mcp = spellings("%s was sealed for other events (an event edited in place?), other context options in .memsys.json, or by another version of memsys (its text is what regen writes): %s", []any{rel, regenAdvice})
	} else if rows := curated(p, rel, got); len(rows) > 0 {
		msg, mcp = spellings("%s differs from what regen writes and holds %s: %s", []any{rel, rowsText(rows), keptAdvice(rows)})
		if n := parse.ConflictLine(got); n > 0 {
			line = n
			msg, mcp = spellings("%s holds git's conflict markers: %s", []any{rel, ConflictedAdvice})
		}
	}
	p.Report(diag.Diagnostic{
		Range:   lineRange(rel, line),
		Message: msg,
		MCP:     mcp,
		Detail:  udiff.Unified(rel, rel+" (regen)", got, want),
	})
}

// firstDiff is the 1-based line of the first difference of a and b.
func firstDiff(a, b []byte) int {
	line := 1
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return line
		}
		if a[i] == '\n' {
			line++
		}
	}
	return line
}

// readReason is err, a read error of rel, without the "rel: " it
// starts with when the reader named the file: the finding names it
// already.
func readReason(rel string, err error) string {
	return strings.TrimPrefix(err.Error(), rel+": ")
}
