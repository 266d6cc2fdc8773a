package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// TypeMap maps seed 000's seven event types to memsys's. memsys's own
// types map to themselves. A mapped line keeps its original type in a
// "ledger_type" detail. A commitment is memsys's commitment, an open
// loop, as the seed's Open Loops say ("Commitment events should include
// "status": "open". When fulfilled, append a closing event with
// "status": "closed""; the pack lists every open one, not superseded).
// The closing line ("status": "closed") is a milestone: the seed counts
// a commitment open while it has "no corresponding milestone", and a
// milestone closes the loops its Refs name (its "related" and
// "supersedes"), so it opens no loop of its own. Before, an open
// commitment created a task node named after its entity (the client,
// not the promise), which no loop listed, and the closing line marked
// that entity completed.
var TypeMap = []struct{ Ledger, Memsys, Why string }{
	{"fact", "modify", "a fact updates what is known about its entity"},
	{"decision", "decision", "the same concept"},
	{"preference", "decision", "a standing choice, superseded like a decision"},
	{"commitment", "commitment", "an open loop (the seed's Open Loops); with status closed: milestone, which closes the commitments its related and supersedes name"},
	{"constraint", "decision", "a rule the agent must follow, shown under Active Constraints"},
	{"procedure", "decision", "how something is done: a standing decision"},
	{"relationship", "modify", "a connection recorded on its entity"},
}

// MaxLine is the longest ledger line import reads.
const MaxLine = 1 << 20

// Line is one ledger line planned as an event.
type Line struct {
	Line  int          // 1-based line number in the ledger
	OldID string       // the line's "id"
	NewID string       // the event ID it gets, or the event it was imported as
	Draft memory.Draft // the event, normalised as append would
	Text  []byte       // the event as append renders it, with "\n" line ends
	// Skipped is true when the memory already holds the event this
	// line was imported as (NewID): it is not appended again.
	Skipped bool
	// seedSupersedes are the new IDs a seed 000 "supersedes" key
	// names, before plan decides how to write them.
	seedSupersedes []string
}

// Imported answers whether the memory already holds the event a ledger
// line was imported as, and gives its ID: ImportedIn builds one.
type Imported func(oldID, time, summary string) (id string, ok bool)

// ImportedIn finds, in logs (the log and the archive, parsed headers
// only), the event a ledger line became: one that names the line's id
// (its own ID, as an export imported into an empty memory keeps it, or
// a ledger_id detail, which import writes whenever the ID changes) and
// has the line's time and summary. The time and summary tell apart two
// ledgers that both number their lines 1, 2, 3.
// Only the events that can match are parsed whole (their Text alone),
// and each index is built on the first line that needs it, so an import
// into a long history costs little more than it did before it skipped
// anything, not a full parse of the history.
func ImportedIn(logs ...*parse.Log) Imported {
	type event struct{ id, time, summary string }
	var (
		byNum      map[int]*parse.Event
		byLedgerID map[string][]event
	)
	whole := func(e *parse.Event) *parse.Event {
		l := parse.Parse(e.Range.File, []byte(e.Text))
		if len(l.Events) != 1 {
			return nil
		}
		return &l.Events[0]
	}
	each := func(f func(e *parse.Event)) {
		for _, l := range logs {
			if l == nil {
				continue
			}
			for i := range l.Events {
				if l.Events[i].Num > 0 {
					f(&l.Events[i])
				}
			}
		}
	}
	return func(oldID, time, summary string) (string, bool) {
		if n, ok := parse.EventNum(oldID); ok {
			if byNum == nil {
				byNum = map[int]*parse.Event{}
				each(func(e *parse.Event) {
					if _, dup := byNum[e.Num]; !dup {
						byNum[e.Num] = e
					}
				})
			}
			if e := byNum[n]; e != nil && e.ID == oldID && e.Time.String() == time {
				if w := whole(e); w != nil && w.Summary == summary {
					return e.ID, true
				}
			}
		}
		if byLedgerID == nil {
			byLedgerID = map[string][]event{}
			each(func(e *parse.Event) {
				// A cheap test first: a key the parser reads as
				// ledger_id (NormKey) has "ledger" in lower or upper case.
				if !strings.Contains(e.Text, "edger") && !strings.Contains(e.Text, "EDGER") {
					return
				}
				if w := whole(e); w != nil {
					for _, d := range w.Details {
						if d.Norm() == materialize.LedgerIDKey && d.Value != e.ID {
							byLedgerID[d.Value] = append(byLedgerID[d.Value], event{e.ID, e.Time.String(), w.Summary})
						}
					}
				}
			})
		}
		for _, ev := range byLedgerID[oldID] {
			if ev.time == time && ev.summary == summary {
				return ev.id, true
			}
		}
		return "", false
	}
}

// Existing answers whether the memory already holds an event with this
// ID (matched by number) and gives it as written; memory.KnownIn builds
// one over the log and the archive.
type Existing = memory.Known

// Plan reads a ledger and plans one event a line, in order, numbering
// from first (the memory's next ID, memory.NextID). agent is the agent
// for lines that name none. A line imported before (imported, which may
// be nil) is planned as Skipped and takes no ID; later lines' refs to it
// name the event it became, so a ledger that grew imports only its new
// lines. The first bad line stops the plan with
// "file:line: what is wrong: what to do".
func Plan(file string, src []byte, first string, existing Existing, imported Imported, agent string) ([]Line, error) {
	return planEdges(file, src, first, existing, imported, agent, nil)
}

// planEdges is Plan into a memory whose events carry the Supersedes
// fields edges (archive first, then log: parse.ScanSupersedes).
func planEdges(file string, src []byte, first string, existing Existing, imported Imported, agent string, edges []parse.Supersession) ([]Line, error) {
	var out []Line
	p := newPlanner(first, existing, imported, agent)
	for _, e := range edges {
		p.addEdge(e)
		p.hides[idNum(e.ID)] = p.hidden(e.Targets)
	}
	// A byte order mark, as Windows editors write one, is not part of
	// the first object (RFC 8259 lets a parser ignore it; the log's
	// parser does the same).
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		l, err := p.line(raw)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, n, err)
		}
		l.Line = n
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v: lines are limited to %d bytes", file, n+1, err, MaxLine)
	}
	// Refs name old IDs until every line is read: a ref must be to an
	// earlier line or to an event already in the memory.
	return out, nil
}

// planner plans a ledger's lines one at a time (Plan's loop), keeping
// only what later lines need of earlier ones: their old and new IDs
// and the new events' types. ExportRoot runs it over each line it
// writes, so what export writes is exactly what import takes.
type planner struct {
	first, next string
	existing    Existing
	imported    Imported
	agent       string
	newOf       oldIDs            // old ID → new ID
	byNum       map[int][2]string // new number → new ID and type
	// edges are the Supersedes fields of the memory and of the lines
	// planned so far, in order: which events a live event corrects.
	edges []parse.Supersession
	// touched holds the numbers of the events edges belong to or name:
	// a new Supersedes that names none of them cannot make a second
	// live correction, and export plans every event.
	touched map[int]bool
	// hides maps an event's number to the events it hides as seed 000
	// reads "supersedes": those it names and, transitively, those they
	// hid.
	hides map[int][]string
	// details and text are planFast's buffers, reused event after
	// event: the draft's details and the rendered text.
	details []memory.DraftDetail
	text    []byte
}

func newPlanner(first string, existing Existing, imported Imported, agent string) *planner {
	return &planner{first: first, next: first, existing: existing, imported: imported, agent: agent, byNum: map[int][2]string{}, hides: map[int][]string{}}
}

// addEdge adds a Supersedes field to p.edges.
func (p *planner) addEdge(e parse.Supersession) {
	if p.touched == nil {
		p.touched = map[int]bool{}
	}
	p.edges = append(p.edges, e)
	p.touched[idNum(e.ID)] = true
	for _, t := range e.Targets {
		p.touched[idNum(t)] = true
	}
}

// touches reports whether one of ids names an event that an edge
// belongs to or names: only then can superseding ids leave an event
// with two live corrections (memory.CheckSupersedes), by naming it
// again or by making a correction it superseded live again.
func (p *planner) touches(ids []string) bool {
	for _, id := range ids {
		if p.touched[idNum(id)] {
			return true
		}
	}
	return false
}

// presize makes the planner's maps, still empty, ready for n lines.
func (p *planner) presize(n int) {
	p.byNum = make(map[int][2]string, n)
	p.newOf.byText, p.newOf.byNum = make(map[string]string, n), make(map[int]string, n)
}

// line plans one non-empty ledger line (raw, trimmed), or says what is
// wrong with it and what to do, without the file and line number.
func (p *planner) line(raw []byte) (Line, error) {
	fields, err := object(raw)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errors.New("the line ends inside the object")
	}
	if err != nil {
		return Line{}, fmt.Errorf("not a JSON object (%v): write one event object per line", err)
	}
	if _, ok := parse.EventNum(p.next); !ok {
		return Line{}, fmt.Errorf("this line's event would be %s, past the largest event ID there can be (%s): import fewer lines", p.next, parse.FormatID(parse.MaxEventNum, 3))
	}
	in, err := decodeLine(fields)
	if err != nil {
		return Line{}, err
	}
	return p.plan(in, nil)
}

// plan plans one line read (line, or export's lineOf). e, when not
// nil, is the event the line was exported from, parsed from the log:
// when the event's text is what import would write, the text is known
// to read back as e, and the read-back compares with e instead of
// parsing the text again, which was a third of export's time.
func (p *planner) plan(in lineIn, e *parse.Event) (Line, error) {
	l, err := planLine(in, p.next, p.agent, p.newOf)
	if err != nil {
		return Line{}, err
	}
	if _, dup := p.newOf.byText[l.OldID]; dup {
		return Line{}, fmt.Errorf("id %q appears twice: give every line its own id", words.Clip(l.OldID))
	}
	if p.imported != nil {
		if id, ok := p.imported(l.OldID, l.Draft.Time, strings.TrimSpace(l.Draft.Summary)); ok {
			l.NewID, l.Skipped = id, true
			p.newOf.set(l.OldID, id)
			return l, nil
		}
	}
	p.seedSupersedes(&l)
	num := idNum(l.NewID)
	if err := memory.Normalize(&l.Draft, p.known); err != nil {
		// In the words of a JSON object, as append --json words them:
		// a ledger line has keys, not the flags the CLI's words name
		// ("pass the "scope" key", not "pass --scope").
		return Line{}, errors.New(front.Message(err, front.JSON))
	}
	if len(l.Draft.Supersedes) > 0 && p.touches(l.Draft.Supersedes) {
		// A second live correction of one event is lint's MS126 error:
		// refused as append refuses it (export then refuses the event,
		// which import would).
		if err := memory.CheckSupersedes(p.edges, l.NewID, l.Draft.Supersedes); err != nil {
			return Line{}, errors.New(front.Message(err, front.JSON))
		}
	}
	l.Text = memory.Render(l.NewID, l.Draft, "\n")
	if e != nil && e.ID == l.NewID && sameText(l.Text, e.Text) {
		err = memory.ReadsBackAs(l.NewID, l.Draft, e)
	} else {
		err = memory.CheckRoundTrip(l.NewID, l.Draft, l.Text)
	}
	if err != nil {
		return Line{}, err
	}
	// Accepted: only now does the line change the planner, so a refused
	// line leaves it as it was and export --skip-invalid can plan the
	// next line as if the refused one were not in the ledger.
	p.newOf.set(l.OldID, l.NewID)
	p.byNum[num] = [2]string{l.NewID, strings.ToLower(strings.TrimSpace(l.Draft.Type))}
	if len(l.Draft.Supersedes) > 0 {
		p.addEdge(parse.Supersession{ID: l.NewID, Targets: l.Draft.Supersedes})
	}
	if h := p.hidden(append(slices.Clone(l.Draft.Supersedes), l.seedSupersedes...)); len(h) > 0 {
		p.hides[num] = h
	}
	p.next = parse.FormatID(num+1, len(p.first)-len("evt-"))
	return l, nil
}

// known is the memory.Known of the lines planned so far, then of the
// memory (existing). The line's own new ID is not known yet: a ref,
// Supersedes or closes naming it names the event itself, which append,
// where the new ID is never in the log, refuses too.
func (p *planner) known(k int) (string, string, bool) {
	if e, ok := p.byNum[k]; ok {
		return e[0], e[1], true
	}
	return p.existing(k)
}

// field is one key of a line's object, in the order written.
type field struct {
	key string
	raw json.RawMessage
}

// object decodes one JSON object keeping its keys in order.
func object(raw []byte) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("a %s, not an object", kind(t))
	}
	var out []field
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, fmt.Errorf("key %q twice", words.Clip(k))
		}
		seen[k] = true
		out = append(out, field{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one value on the line")
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("more than one value on the line")
	}
	return out, nil
}

func kind(t json.Token) string {
	switch t.(type) {
	case json.Delim:
		return "list"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

// oldIDs maps the old IDs of earlier lines to their new IDs.
type oldIDs struct {
	byText map[string]string // as the line's "id" writes it
	// byNum maps an old ID of the form evt-NNN by number, as the log
	// matches IDs ("evt-1" is evt-001): a ref written short names
	// the same line.
	byNum map[int]string
}

func (o *oldIDs) set(old, id string) {
	if o.byText == nil {
		o.byText, o.byNum = map[string]string{}, map[int]string{}
	}
	o.byText[old] = id
	if n := idNum(old); n > 0 {
		o.byNum[n] = id
	}
}

// get returns the new ID of the earlier line old names.
func (o *oldIDs) get(old string) (string, bool) {
	if id, ok := o.byText[old]; ok {
		return id, true
	}
	if n := idNum(old); n > 0 {
		id, ok := o.byNum[n]
		return id, ok
	}
	return "", false
}

// renameCloses gives the IDs a closes detail names the new IDs of the
// earlier lines they name, as refs get theirs: left as written, a
// closes would name the memory's own event of the old number. A value
// whose IDs keep their numbers stays as written, so an export imported
// into an empty memory exports the same bytes.
func renameCloses(ds []memory.DraftDetail, newOf oldIDs) {
	for i := range ds {
		if !parse.SameKey(ds[i].Key, "closes") {
			continue
		}
		ids := memory.SplitList([]string{ds[i].Value})
		changed := false
		for j, id := range ids {
			if n, ok := newOf.get(id); ok && idNum(n) != idNum(id) {
				ids[j], changed = n, true
			}
		}
		if changed {
			ds[i].Value = strings.Join(ids, ", ")
		}
	}
}

// lineIn is one ledger line as read, before it is planned: decodeLine
// reads it from the line's JSON, lineOf from an event that export
// writes as a line, without the JSON in between.
type lineIn struct {
	oldID, typ, ts, entity, supersedes string
	// draft holds agent, scope, summary, details and tags as given.
	draft                    memory.Draft
	related, fieldSupersedes []string
	extra                    []memory.DraftDetail // details from other keys, in order
	haveScope, haveDetails   bool
}

// seedSupersedes writes the events a seed 000 "supersedes" key names
// into l's Supersedes field, so replay leaves them out, as the seed's
// Supersession Protocol does. The seed hides every event any line
// supersedes, where memsys's replay brings a corrected event back when
// its correction is superseded in turn; so the line also supersedes
// what the events it names hid (p.hides): correcting a correction
// keeps the original hidden, as in the seed. A target that a live
// event already supersedes, and that this line does not supersede as
// well, is left out of the field: two live corrections of one event
// are an error (lint MS126) on events no one may edit, and the target
// is hidden already, as the seed has it. It stays a ref and a
// "supersedes" detail, as import wrote every target before.
func (p *planner) seedSupersedes(l *Line) {
	targets := p.hidden(l.seedSupersedes)
	in := func(ids []string, id string) bool {
		return slices.ContainsFunc(ids, func(s string) bool { return idNum(s) == idNum(id) })
	}
	for _, id := range targets {
		if in(l.Draft.Supersedes, id) || idNum(id) == idNum(l.NewID) {
			continue
		}
		if by, ok := materialize.SupersededAt(p.edges, 0, id); ok && !in(targets, by) && !in(l.Draft.Supersedes, by) {
			l.Draft.Details = append(l.Draft.Details, memory.DraftDetail{Key: "supersedes", Value: id})
			continue
		}
		l.Draft.Supersedes = append(l.Draft.Supersedes, id)
	}
	l.seedSupersedes = targets
}

// hidden returns ids and, after each, the events it hid (p.hides),
// each ID once.
func (p *planner) hidden(ids []string) []string {
	var out []string
	seen := map[int]bool{}
	for _, id := range ids {
		for _, x := range append([]string{id}, p.hides[idNum(id)]...) {
			if n := idNum(x); !seen[n] {
				seen[n] = true
				out = append(out, x)
			}
		}
	}
	return out
}

// sameText reports whether rendered, what Render writes for an event,
// is text, an event's Text (its source without the blank lines and
// separator after it), which has no final line end when the file ends
// without one.
func sameText(rendered []byte, text string) bool {
	if len(rendered) == len(text)+1 && rendered[len(text)] == '\n' {
		rendered = rendered[:len(text)]
	}
	return string(rendered) == text
}

// decodeLine reads one object's keys.
func decodeLine(fs []field) (lineIn, error) {
	var in lineIn
	d := &in.draft
	typ, ts, entity, supersedes := &in.typ, &in.ts, &in.entity, &in.supersedes
	related, fieldSupersedes, extra := &in.related, &in.fieldSupersedes, &in.extra
	str := func(f field) (string, error) {
		var s string
		if err := json.Unmarshal(f.raw, &s); err != nil {
			return "", fmt.Errorf("%q must be a string", words.Clip(f.key))
		}
		return s, nil
	}
	list := func(f field) ([]string, error) {
		var xs []string
		if err := json.Unmarshal(f.raw, &xs); err != nil {
			var s string
			if json.Unmarshal(f.raw, &s) == nil {
				return []string{s}, nil
			}
			return nil, fmt.Errorf("%q must be a list of strings", words.Clip(f.key))
		}
		return xs, nil
	}
	for _, f := range fs {
		var err error
		switch f.key {
		case "id":
			in.oldID, err = str(f)
		case "ts":
			*ts, err = str(f)
		case "type":
			*typ, err = str(f)
		case "agent":
			d.Agent, err = str(f)
		case "scope":
			d.Scope, err = str(f)
			in.haveScope = true
		case "content":
			d.Summary, err = str(f)
		case "details":
			in.haveDetails = true
			if err = json.Unmarshal(f.raw, &d.Details); err != nil {
				err = fmt.Errorf("\"details\" must be a list of {\"key\", \"value\", \"children\"} objects")
			}
		case "related":
			*related, err = list(f)
		case "tags":
			// A string is a comma-separated list, as --tags takes it; in
			// a list each item is one tag, and a comma in one is an error.
			var s string
			if json.Unmarshal(f.raw, &s) == nil {
				d.Tags = memory.SplitList([]string{s})
			} else {
				d.Tags, err = list(f)
			}
		case "supersedes":
			*supersedes, err = str(f)
		case "entity":
			*entity, err = str(f)
		case "fields":
			var xs []Field
			if err = json.Unmarshal(f.raw, &xs); err != nil {
				err = fmt.Errorf("\"fields\" must be a list of {\"key\", \"value\"} objects")
			}
			for _, x := range xs {
				if parse.SameKey(x.Key, "supersedes") {
					// export's Supersedes field: memsys's correction,
					// which must stay a field for replay to skip
					// the events it names (a detail is ignored).
					*fieldSupersedes = append(*fieldSupersedes, memory.SplitList([]string{x.Value})...)
					continue
				}
				*extra = append(*extra, memory.DraftDetail{Key: x.Key, Value: x.Value})
			}
		default:
			// priority, source, session, status and anything else: a
			// detail under the same key, so nothing is dropped.
			v, err2 := str(f)
			if err2 != nil {
				v = string(f.raw) // numbers, booleans, lists: their JSON text
			}
			*extra = append(*extra, memory.DraftDetail{Key: f.key, Value: v})
		}
		if err != nil {
			return in, err
		}
	}
	return in, nil
}

// planLine maps one line read. newOf maps the old IDs of earlier lines.
func planLine(in lineIn, newID, agent string, newOf oldIDs) (Line, error) {
	l := Line{NewID: newID, OldID: in.oldID, Draft: in.draft}
	d := &l.Draft
	typ, ts, entity, supersedes := in.typ, in.ts, in.entity, in.supersedes
	related, fieldSupersedes, extra := in.related, in.fieldSupersedes, in.extra
	haveScope, haveDetails := in.haveScope, in.haveDetails
	if l.OldID == "" {
		return l, fmt.Errorf("no \"id\": every line needs one, so \"related\" and \"supersedes\" can name it")
	}
	if strings.TrimSpace(d.Summary) == "" {
		return l, fmt.Errorf("no \"content\": every event needs a one-line summary")
	}
	if strings.ContainsAny(d.Summary, "\r\n") {
		return l, fmt.Errorf("\"content\" spans several lines: keep the summary on one line")
	}
	// Type.
	typ = strings.ToLower(strings.TrimSpace(typ))
	mapped := mapType(typ, extra)
	if typ == "" {
		return l, fmt.Errorf("no \"type\": use one of %s", strings.Join(allTypes(), ", "))
	}
	if mapped == "" {
		return l, fmt.Errorf("unknown type %q: use one of %s", words.Clip(typ), strings.Join(allTypes(), ", "))
	}
	d.Type = mapped
	// Time: the wall-clock minute as written; anything finer or a zone
	// is kept in a "ts" detail.
	t, exact, err := minute(ts)
	if err != nil {
		return l, err
	}
	d.Time = t
	// Scope: as given, else the entity, else "ledger".
	if !haveScope {
		d.Scope = entity
		if strings.TrimSpace(d.Scope) == "" {
			d.Scope = "ledger"
		}
	}
	if strings.TrimSpace(d.Agent) == "" {
		d.Agent = agent
	}
	// self says whether id names this very line, by its id as written
	// or, an evt-NNN, by number: the line's event would refer to,
	// correct or close itself, which lint faults (MS104, MS124, MS129)
	// and append cannot write.
	self := func(id string) bool {
		return id == l.OldID || idNum(id) > 0 && idNum(id) == idNum(l.OldID)
	}
	rename := func(ids []string) ([]string, error) {
		var out []string
		for _, r := range ids {
			if r = strings.TrimSpace(r); r == "" {
				continue
			}
			if self(r) {
				return nil, fmt.Errorf("\"related\" or \"supersedes\" names %q, this line's own id: an event cannot refer to or correct itself, so remove it", words.Clip(r))
			}
			id, ok := newOf.get(r)
			if !ok {
				if idNum(r) == 0 {
					return nil, fmt.Errorf("\"related\" or \"supersedes\" names %q, which no earlier line has: list events before the events that refer to them", words.Clip(r))
				}
				id = r // an evt-NNN already in the memory; Normalize checks it
			}
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
		return out, nil
	}
	// Refs: related and supersedes, renamed to the new IDs. The
	// **Supersedes** field: a Supersedes field (export's) as written,
	// renamed; seed 000's "supersedes" too, decided once the line has
	// its place (planner.seedSupersedes), so replay leaves out what
	// the line corrects, as the seed's Supersession Protocol says ("old
	// event stays but stops being surfaced"). It was a detail, which
	// replay ignores and lint warns of (MS132).
	if d.Refs, err = rename(append(related, supersedes)); err != nil {
		return l, err
	}
	if d.Supersedes, err = rename(fieldSupersedes); err != nil {
		return l, err
	}
	if l.seedSupersedes, err = rename([]string{supersedes}); err != nil {
		return l, err
	}
	// Details: the line's own, then what has no other place.
	if !haveDetails {
		d.Details = nil
	}
	var add []memory.DraftDetail
	if entity != "" {
		add = append(add, memory.DraftDetail{Key: "entity", Value: entity})
	}
	if mapped != typ {
		add = append(add, memory.DraftDetail{Key: materialize.LedgerTypeKey, Value: typ})
	}
	if l.OldID != newID {
		add = append(add, memory.DraftDetail{Key: materialize.LedgerIDKey, Value: l.OldID})
	}
	if !exact {
		add = append(add, memory.DraftDetail{Key: materialize.LedgerTSKey, Value: ts})
	}
	for _, c := range d.Details {
		if parse.SameKey(c.Key, "closes") {
			for _, id := range memory.SplitList([]string{c.Value}) {
				if self(id) {
					return l, fmt.Errorf("closes %q names this line's own id: a loop is closed by a later event, so name the loop's id", words.Clip(id))
				}
			}
		}
	}
	renameCloses(d.Details, newOf)
	d.Details = append(append(d.Details, add...), extra...)
	return l, nil
}

// mapType is the memsys type of a line of type typ (lower-cased,
// trimmed) whose other keys gave the details extra, or "" when typ is
// no type memsys or seed 000 knows.
func mapType(typ string, extra []memory.DraftDetail) string {
	mapped := ""
	if slices.Contains(parse.EventTypes, typ) {
		mapped = typ
	}
	for _, m := range TypeMap {
		if m.Ledger == typ {
			mapped = m.Memsys
		}
	}
	if typ == "commitment" && closed(extra) {
		// seed 000's closing event: it closes the loops it names
		// (TypeMap), and must not open one as a commitment would.
		mapped = "milestone"
	}
	return mapped
}

func closed(ds []memory.DraftDetail) bool {
	for _, d := range ds {
		if d.Key == "status" && strings.EqualFold(strings.TrimSpace(d.Value), "closed") {
			return true
		}
	}
	return false
}

func allTypes() []string {
	out := slices.Clone(parse.EventTypes)
	for _, m := range TypeMap {
		if !slices.Contains(out, m.Ledger) {
			out = append(out, m.Ledger)
		}
	}
	return out
}

// minute reads an ISO 8601 "ts" into the log's "YYYY-MM-DD HH:MM".
// exact is false when ts says more than that (seconds, a fraction, a
// zone) or less (a date alone, read as 00:00), so the caller keeps the
// original.
func minute(ts string) (string, bool, error) {
	ts = strings.TrimSpace(ts)
	if ts == "" {
		return "", false, fmt.Errorf("no \"ts\": give the time as ISO 8601, e.g. \"2026-01-28T14:03:11-05:00\"")
	}
	// Built only when needed: export checks every event's time here,
	// and formatting it for each was a tenth of that check.
	bad := func() error {
		return fmt.Errorf("\"ts\" %q is not ISO 8601: write e.g. \"2026-01-28T14:03\" or \"2026-01-28T14:03:11-05:00\"", words.Clip(ts))
	}
	if len(ts) == 10 {
		if t, msg := parse.ParseTime(ts); msg == "" && t.DateOnly {
			return ts + " 00:00", false, nil
		}
		return "", false, bad()
	}
	if len(ts) < 16 || ts[10] != 'T' && ts[10] != ' ' {
		return "", false, bad()
	}
	m := ts[:10] + " " + ts[11:16]
	if t, msg := parse.ParseTime(m); msg != "" || t.DateOnly {
		return "", false, bad()
	}
	return m, len(ts) == 16, nil
}

func idNum(id string) int {
	n, _ := parse.EventNum(id)
	return n
}
