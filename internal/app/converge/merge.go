package converge

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/memsys/memsys/parse"
)

// TextMerge merges text line by line, as git merge-file does: the
// result and whether it holds conflict markers. Merge uses it for the
// bytes outside the event records (a changelog above "## Event Log").
type TextMerge func(ancestor, ours, theirs []byte) (merged []byte, conflict bool, err error)

// Input is one three-way merge of a log or archive file.
type Input struct {
	Path                   string // the file's path, named in every conflict line
	Archive                bool   // parse as an archive (every event section counts)
	Ancestor, Ours, Theirs []byte
	Text                   TextMerge
	MarkerSize             int    // conflict marker length; 7 when 0
	OursLabel, TheirsLabel string // after the markers; "ours" and "theirs" when empty
	// OursName and TheirsName name the sides in conflict messages (the
	// labels when empty). The merge driver names them by what they
	// hold, "HEAD" and "the incoming commit": git's "ours" is the
	// branch being built in a rebase or cherry-pick, not the user's.
	OursName, TheirsName string
	// AncestorOffOurs says the ancestor may hold events ours never had:
	// in a cherry-pick or rebase of a commit whose parent is not on
	// HEAD, git's ancestor is that parent. An event ours lacks or holds
	// otherwise is then not necessarily edited or deleted, and the
	// message says what else to do.
	AncestorOffOurs bool
}

// Move is one event of theirs and the ID it has in the result.
type Move struct {
	From, To string
}

// Conflict is one problem the merge would not resolve.
type Conflict struct {
	Line    int    // 1-based line of the result where it is marked; 0 if not marked
	Event   string // the event, when the problem is one event
	Message string
}

// String formats the conflict as git users read it: "path:line: message".
func (c Conflict) String(path string) string {
	if c.Line == 0 {
		return path + ": " + c.Message
	}
	return fmt.Sprintf("%s:%d: %s", path, c.Line, c.Message)
}

// Result is the merged file and what the merge did.
type Result struct {
	Data []byte
	// Renumbered lists theirs' new events in order with the ID each has
	// in Data (From == To when the number was free).
	Renumbered []Move
	// Dropped lists theirs' new events already present on ours (the same
	// text apart from IDs, as after a cherry-pick), with ours' ID.
	Dropped []Move
	// Conflicts is empty when the merge is clean.
	Conflicts []Conflict
	// Archived holds the bodies of the ancestor events ours still had
	// that theirs moved to its archive, in order: the result leaves
	// them out, and where git takes theirs' archive without a merge
	// (ours left its archive alone) the merged history has them there,
	// which the derived files' driver needs to replay.
	Archived [][]byte
	// TextOnly is true when the file could not be read as records (a
	// malformed heading, duplicate IDs) and was merged as text instead.
	TextOnly bool
}

// side is one version of the file, split into the bytes before the
// first event, the events, and the bytes after the last.
type side struct {
	src   []byte
	log   *parse.Log
	head  []byte
	tail  []byte
	evs   []record
	byNum map[int]int // index of the first event with a number
	// more holds the indexes of the later events with a number: a
	// hand-kept log's committed duplicates (MS107), which Merge accepts
	// when the ancestor has as many copies (inherited, not added).
	more map[int][]int
}

// copies returns the indexes of s's events numbered n, in file order.
func (s *side) copies(n int) []int {
	i, ok := s.byNum[n]
	if !ok {
		return nil
	}
	return append([]int{i}, s.more[n]...)
}

// addedDuplicate returns why s cannot be merged by record when it has
// more copies of a number than the ancestor: a duplicate the side
// added, whose refs and place no rule can tell apart. "" when none.
func (s *side) addedDuplicate(anc *side) string {
	// In number order, so the message is the same on every run.
	for _, n := range slices.Sorted(maps.Keys(s.more)) {
		if extra := s.more[n]; len(extra) > len(anc.more[n]) {
			e := s.evs[extra[len(anc.more[n])]].ev
			return e.Range.String() + ": " + e.ID + " appears twice"
		}
	}
	return ""
}

// record is one event: its bytes (heading to last body line, newline
// included) and the bytes up to the next event.
type record struct {
	ev   *parse.Event
	body []byte
	gap  []byte
}

func split(path string, src []byte, archive bool) (*side, string) {
	opts := []parse.Option{parse.HeadersOnly()}
	if archive {
		opts = append(opts, parse.Archive())
	}
	l := parse.Parse(path, src, opts...)
	s := &side{src: src, log: l, byNum: make(map[int]int, len(l.Events))}
	for _, p := range l.Problems {
		switch p.Kind {
		case parse.KindHeader, parse.KindID, parse.KindOutside, parse.KindUnclosed, parse.KindEncoding, parse.KindLineLength:
			return nil, p.Range.String() + ": " + p.Message
		}
	}
	if len(l.Events) == 0 {
		s.head = src
		return s, ""
	}
	for i := range l.Events {
		e := &l.Events[i]
		if e.Num == 0 {
			return nil, e.Range.String() + ": " + e.ID + " is not a valid event ID"
		}
		if _, dup := s.byNum[e.Num]; dup {
			if s.more == nil {
				s.more = map[int][]int{}
			}
			s.more[e.Num] = append(s.more[e.Num], i)
		} else {
			s.byNum[e.Num] = i
		}
		end := len(src)
		if i+1 < len(l.Events) {
			end = l.Events[i+1].Range.Offset
		}
		s.evs = append(s.evs, record{ev: e, body: src[e.Range.Offset:e.Range.EndOffset], gap: src[e.Range.EndOffset:end]})
	}
	s.head = src[:l.Events[0].Range.Offset]
	last := &s.evs[len(s.evs)-1]
	s.tail, last.gap = last.gap, nil
	return s, ""
}

func (s *side) maxNum() int {
	n := 0
	for _, r := range s.evs {
		n = max(n, r.ev.Num)
	}
	return n
}

// archivedPrefix reports whether the ancestor events missing from s
// are the oldest ones and s says they were archived (memsys archive
// leaves "<!-- memsys: evt-001 through evt-NNN archived to ... -->"):
// moving events to the archive is the one way they may leave the log.
func (s *side) archivedPrefix(anc *side) bool {
	if !bytes.Contains(s.src, []byte(" archived to ")) {
		return false
	}
	gone := true
	for _, r := range anc.evs {
		_, ok := s.byNum[r.ev.Num]
		if ok {
			gone = false
		} else if !gone {
			return false // a hole after a kept event is a deletion
		}
	}
	return true
}

// Merge merges one log or archive file. Records are merged by event,
// not by line:
//
//   - events of the ancestor stay as they are; one that either side
//     edited or deleted is a conflict, marked around that event only;
//   - ours' new events keep their IDs and order;
//   - theirs' new events follow ours' last event, renumbered
//     consecutively in their own order; every ID token in them (heading,
//     **Refs**, details, any field) that names another of theirs' new
//     events is rewritten to its new ID; tokens naming other events
//     stay;
//   - an event of theirs whose text, IDs rewritten, equals a new event
//     of ours (a cherry-pick) is written once, with ours' ID;
//   - the bytes before the first event and after the last are merged
//     by in.Text.
//
// A file that cannot be read as records (a malformed event heading, an
// ID a side repeats that the ancestor does not) is merged by in.Text as
// a whole, with a conflict that says why, so nothing is resolved
// silently.
func Merge(in Input) (Result, error) {
	size := in.MarkerSize
	if size <= 0 {
		size = 7
	}
	ol, tl := in.OursLabel, in.TheirsLabel
	if ol == "" {
		ol = "ours"
	}
	if tl == "" {
		tl = "theirs"
	}
	on, tn := in.OursName, in.TheirsName
	if on == "" {
		on = ol
	}
	if tn == "" {
		tn = tl
	}
	anc, why := split(in.Path, in.Ancestor, in.Archive)
	ours, why2 := split(in.Path, in.Ours, in.Archive)
	theirs, why3 := split(in.Path, in.Theirs, in.Archive)
	if anc != nil && ours != nil {
		if why2 = ours.addedDuplicate(anc); why2 != "" {
			ours = nil
		}
	}
	if anc != nil && theirs != nil {
		if why3 = theirs.addedDuplicate(anc); why3 != "" {
			theirs = nil
		}
	}
	if anc == nil || ours == nil || theirs == nil {
		data, conflict, err := textMerge(in.Text, in.Ancestor, in.Ours, in.Theirs)
		if err != nil {
			return Result{}, err
		}
		r := Result{Data: data, TextOnly: true}
		if conflict {
			var whys []string
			for i, w := range []string{why, why2, why3} {
				if w != "" {
					whys = append(whys, []string{"the base", on, tn}[i]+"'s "+w)
				}
			}
			r.Conflicts = append(r.Conflicts, Conflict{Message: "merged as text because it cannot be read as event records (" + strings.Join(whys, "; ") + "): fix the file, then resolve the conflict markers"})
		}
		return r, nil
	}
	m := merger{anc: anc, ours: ours, theirs: theirs, on: on, tn: tn, offOurs: in.AncestorOffOurs, open: strings.Repeat("<", size) + " " + ol, mid: strings.Repeat("=", size), close: strings.Repeat(">", size) + " " + tl}
	return m.run(in)
}

type merger struct {
	anc, ours, theirs *side
	on, tn            string // the sides' names in messages
	offOurs           bool   // Input.AncestorOffOurs
	open, mid, close  string
	items             []item
	res               Result
	// oMap and tMap map the number of each ancestor event that ours
	// (theirs) holds under another number to that number; width is
	// the ID width rewritten tokens take.
	oMap, tMap map[int]int
	width      int
}

// ids returns every event ID of the three versions.
func (m *merger) ids() []string {
	var ids []string
	for _, s := range []*side{m.anc, m.ours, m.theirs} {
		for _, r := range s.evs {
			ids = append(ids, r.ev.ID)
		}
	}
	return ids
}

// renumbered maps the number of each ancestor event that s holds
// under another number (at: match's pairing) to s's number.
func renumbered(anc, s *side, at []int) map[int]int {
	to := map[int]int{}
	for k, i := range at {
		if i >= 0 && anc.evs[k].ev.Num != s.evs[i].ev.Num {
			to[anc.evs[k].ev.Num] = s.evs[i].ev.Num
		}
	}
	return to
}

// item is one record of the result, or a conflict block.
type item struct {
	body     []byte
	gap      []byte // nil: use the separator
	conflict *Conflict
}

func (m *merger) run(in Input) (Result, error) {
	head, hc, err := textMerge(in.Text, m.anc.head, m.ours.head, m.theirs.head)
	if err != nil {
		return Result{}, err
	}
	tail, tc, err := textMerge(in.Text, m.anc.tail, m.ours.tail, m.theirs.tail)
	if err != nil {
		return Result{}, err
	}
	m.events()

	var out bytes.Buffer
	out.Grow(len(m.ours.src) + len(m.theirs.src) - len(m.anc.src) + 1024)
	out.Write(head)
	if hc {
		m.res.Conflicts = append(m.res.Conflicts, Conflict{Line: 1, Message: "the text before the event log conflicts: resolve it as any text conflict"})
	}
	sep := m.separator()
	for k, it := range m.items {
		if it.conflict != nil {
			c := *it.conflict
			c.Line = bytes.Count(out.Bytes(), []byte("\n")) + 1
			m.res.Conflicts = append(m.res.Conflicts, c)
		}
		out.Write(it.body)
		if k == len(m.items)-1 {
			break
		}
		// The last event of a side whose file did not end its last
		// line, now followed by another: end that line, as append does,
		// or the separator's "---" would underline it as a heading.
		endLine(&out, it.body)
		if it.gap != nil {
			out.Write(it.gap)
		} else {
			out.Write(sep)
		}
	}
	if tc {
		m.res.Conflicts = append(m.res.Conflicts, Conflict{Line: bytes.Count(out.Bytes(), []byte("\n")) + 1, Message: "the text after the last event conflicts: resolve it as any text conflict"})
	}
	out.Write(tail)
	m.res.Data = out.Bytes()
	return m.res, nil
}

// match pairs each ancestor event with its version on side s: the
// event with the same number, or, when that one differs, an event of s
// with the same text apart from its ID tokens (a rebase or cherry-pick
// replays a branch's events under new numbers, refs rewritten). It
// returns, per ancestor event, the index in s.evs or -1, and per
// event of s whether it was claimed.
func match(anc, s *side) ([]int, []bool) {
	at := make([]int, len(anc.evs))
	claimed := make([]bool, len(s.evs))
	for k, a := range anc.evs {
		at[k] = -1
		for _, i := range s.copies(a.ev.Num) {
			if !claimed[i] && parse.EndedText(s.evs[i].ev.Text) == parse.EndedText(a.ev.Text) {
				at[k], claimed[i] = i, true
				break
			}
		}
	}
	var byText map[string][]int
	for k, a := range anc.evs {
		if at[k] >= 0 {
			continue
		}
		if byText == nil {
			byText = map[string][]int{}
			for i, r := range s.evs {
				if !claimed[i] {
					key := string(blankIDs(r.body))
					byText[key] = append(byText[key], i)
				}
			}
		}
		key := string(blankIDs(a.body))
		for n, i := range byText[key] {
			if !claimed[i] {
				at[k], claimed[i] = i, true
				byText[key] = byText[key][n+1:]
				break
			}
		}
	}
	// What is left under an ancestor's number is that event, edited.
	for k, a := range anc.evs {
		if at[k] < 0 {
			for _, i := range s.copies(a.ev.Num) {
				if !claimed[i] {
					at[k], claimed[i] = i, true
					break
				}
			}
		}
	}
	return at, claimed
}

// events lays out the result's records: ours' events in ours' order,
// each ancestor event checked against both sides, then theirs' new
// ones.
func (m *merger) events() {
	oAt, oClaimed := match(m.anc, m.ours)
	tAt, tClaimed := match(m.anc, m.theirs)
	oArch, tArch := m.ours.archivedPrefix(m.anc), m.theirs.archivedPrefix(m.anc)
	m.width = idWidth(m.ids()...)
	m.oMap, m.tMap = renumbered(m.anc, m.ours, oAt), renumbered(m.anc, m.theirs, tAt)
	// ancOf maps an event of ours back to its ancestor event.
	ancOf := make([]int, len(m.ours.evs))
	for i := range ancOf {
		ancOf[i] = -1
	}
	for k, i := range oAt {
		if i >= 0 {
			ancOf[i] = k
		}
	}
	next := 0 // the next ancestor event not yet laid out
	flush := func(upto int) {
		for ; next < upto; next++ {
			if oAt[next] < 0 {
				m.ancestor(next, nil, tAt[next], oArch, tArch)
			}
		}
	}
	for i := range m.ours.evs {
		r := &m.ours.evs[i]
		if k := ancOf[i]; k >= 0 {
			flush(k)
			m.ancestor(k, r, tAt[k], oArch, tArch)
			next = max(next, k+1)
			continue
		}
		m.items = append(m.items, item{body: r.body, gap: r.gap})
	}
	flush(len(m.anc.evs))
	// The last record of ours is followed by what comes next, not by
	// the tail: give it the separator.
	if n := len(m.items); n > 0 {
		m.items[n-1].gap = nil
	}
	// Theirs' numbers of ancestor events ours holds under another
	// number are rewritten in theirs' new events too.
	to := map[int]int{}
	for k, ti := range tAt {
		if ti >= 0 && oAt[k] >= 0 {
			if tn, on := m.theirs.evs[ti].ev.Num, m.ours.evs[oAt[k]].ev.Num; tn != on {
				to[tn] = on
			}
		}
	}
	var fresh []record
	for i, r := range m.theirs.evs {
		if !tClaimed[i] {
			fresh = append(fresh, r)
		}
	}
	m.theirsEvents(fresh, oClaimed, to)
}

// ancestor lays out ancestor event k given ours' version o (nil when
// ours has none) and theirs' at index ti (-1 when none): the event when
// both kept it, nothing when it was archived, else a conflict marked
// around it alone.
func (m *merger) ancestor(k int, o *record, ti int, oArch, tArch bool) {
	a := &m.anc.evs[k]
	var t *record
	if ti >= 0 {
		t = &m.theirs.evs[ti]
	}
	same := func(r *record, to map[int]int) bool {
		if r == nil {
			return false
		}
		if parse.EndedText(r.ev.Text) == parse.EndedText(a.ev.Text) || r.ev.Num != a.ev.Num && bytes.Equal(blankIDs(r.body), blankIDs(a.body)) {
			return true
		}
		// Under its own number but naming events the side holds under
		// other numbers (a rebase moved the event a ref names, not the
		// event itself): the same event when the ancestor's text, its
		// IDs renumbered as the side numbers them, is the side's.
		return len(to) > 0 && bytes.Equal(normalizeEOL(rewriteIDs(a.body, to, m.width)), normalizeEOL(r.body))
	}
	oSame, tSame := same(o, m.oMap), same(t, m.tMap)
	switch {
	case oSame && tSame:
		m.items = append(m.items, item{body: o.body, gap: o.gap})
		return
	case o == nil && oArch && (tSame || t == nil && tArch):
		return // moved to the archive on ours, or on both sides
	case t == nil && tArch && oSame:
		// Moved to the archive on theirs: it leaves the log here too,
		// as theirs' archive (which git takes as theirs wrote it when
		// ours left its own alone) holds it. Keeping ours' copy put
		// the event in both files (MS107).
		m.res.Archived = append(m.res.Archived, o.body)
		return
	}
	c := &Conflict{Event: a.ev.ID, Message: m.changed(a.ev.ID, o != nil, oSame, t != nil, tSame)}
	var b bytes.Buffer
	b.WriteString(m.open + "\n")
	if o != nil {
		writeLine(&b, o.body)
	}
	b.WriteString(m.mid + "\n")
	if t != nil {
		writeLine(&b, t.body)
	}
	b.WriteString(m.close + "\n")
	var gap []byte
	if o != nil {
		gap = o.gap
	}
	m.items = append(m.items, item{body: b.Bytes(), gap: gap, conflict: c})
}

// endLine ends body's last line in out, in the line ending body uses,
// when body does not end it.
func endLine(out *bytes.Buffer, body []byte) {
	if len(body) == 0 || body[len(body)-1] == '\n' {
		return
	}
	switch i := bytes.IndexAny(body, "\r\n"); {
	case i >= 0 && body[i] == '\n':
		out.WriteByte('\n')
	case i >= 0 && i+1 < len(body) && body[i+1] == '\n':
		out.WriteString("\r\n")
	case i >= 0:
		out.WriteByte('\r')
	default:
		out.WriteByte('\n')
	}
}

func writeLine(b *bytes.Buffer, body []byte) {
	b.Write(body)
	if len(body) > 0 && body[len(body)-1] != '\n' {
		b.WriteByte('\n')
	}
}

// theirsEvents appends theirs' new events after ours' last event,
// renumbered, refs and prose rewritten (to already maps theirs'
// numbers of ancestor events ours renumbered), and cherry-picks
// dropped. oursClaimed marks ours' events that are ancestor events.
func (m *merger) theirsEvents(fresh []record, oursClaimed []bool, to map[int]int) {
	if len(fresh) == 0 {
		return
	}
	width := m.width
	// Ours' new events by their text with every ID token blanked, to
	// find the ones theirs also has.
	oursNew := map[string]*record{}
	for i := range m.ours.evs {
		r := &m.ours.evs[i]
		if !oursClaimed[i] {
			k := string(normalizeEOL(blankHeadingID(r.body)))
			if _, dup := oursNew[k]; !dup {
				oursNew[k] = r
			}
		}
	}
	// Number theirs' new events in order. An event whose text, with
	// the IDs of the events before it already mapped, equals a new
	// event of ours is a cherry-pick: it takes ours' ID and is not
	// written again. Refs only name earlier events, so one pass
	// suffices; the bodies are rewritten once every number is known.
	next := max(m.ours.maxNum(), m.anc.maxNum()) + 1
	dropped := map[int]bool{}
	for _, r := range fresh {
		k := string(normalizeEOL(blankHeadingID(rewriteIDs(r.body, to, width))))
		if o, ok := oursNew[k]; ok {
			dropped[r.ev.Num] = true
			to[r.ev.Num] = o.ev.Num
			delete(oursNew, k)
			continue
		}
		to[r.ev.Num] = next
		next++
	}
	for i, r := range fresh {
		nb := rewriteIDs(r.body, to, width)
		newID := string(idToken(nb))
		if dropped[r.ev.Num] {
			m.res.Dropped = append(m.res.Dropped, Move{From: r.ev.ID, To: newID})
			continue
		}
		m.res.Renumbered = append(m.res.Renumbered, Move{From: r.ev.ID, To: newID})
		var gap []byte
		if i < len(fresh)-1 && r.gap != nil && isSeparator(r.gap) {
			gap = r.gap
		}
		m.items = append(m.items, item{body: nb, gap: gap})
	}
}

// blankHeadingID removes the ID from the heading, so an event and its
// cherry-picked copy under another number compare equal.
func blankHeadingID(body []byte) []byte {
	id := idToken(body)
	if id == nil {
		return body
	}
	i := bytes.Index(body, id)
	out := make([]byte, 0, len(body))
	out = append(out, body[:i]...)
	return append(out, body[i+len(id):]...)
}

func normalizeEOL(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b
	}
	return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
}

// isSeparator reports whether gap holds only blank lines and "---".
func isSeparator(gap []byte) bool {
	for l := range bytes.Lines(gap) {
		t := bytes.TrimSpace(l)
		if len(t) != 0 && !bytes.Equal(t, []byte("---")) {
			return false
		}
	}
	return true
}

// separator is what goes between two events the result puts side by
// side: ours' own separator when it has one, else theirs', else the
// ancestor's, else a blank line, "---" and a blank line.
func (m *merger) separator() []byte {
	for _, s := range []*side{m.ours, m.theirs, m.anc} {
		for i := len(s.evs) - 2; i >= 0; i-- {
			if g := s.evs[i].gap; len(g) > 0 && isSeparator(g) {
				return g
			}
		}
	}
	return []byte("\n---\n\n")
}

// textMerge merges with t, skipping it when two versions agree (the
// result is then the third, as git's own merge gives).
func textMerge(t TextMerge, a, o, th []byte) ([]byte, bool, error) {
	switch {
	case bytes.Equal(o, th), bytes.Equal(a, th):
		return o, false, nil
	case bytes.Equal(a, o):
		return th, false, nil
	}
	if t == nil {
		return o, true, fmt.Errorf("no text merge for a change on both sides")
	}
	return t(a, o, th)
}

// changed words the conflict on the ancestor's event id, which a side
// lacks or holds with other text. It says what each side holds, not
// what was done: in a merge a difference from the base is an edit or a
// deletion, but in a cherry-pick or rebase the base is the replayed
// commit's parent, whose events ours may never have had.
func (m *merger) changed(id string, oHas, oSame, tHas, tSame bool) string {
	var what string
	switch {
	case oHas && tHas && !oSame && !tSame:
		what = id + " differs from the base's on both " + m.on + " and " + m.tn
	case !oHas && !tHas:
		what = id + " of the base is on neither " + m.on + " nor " + m.tn
	case !oHas:
		what = id + " of the base is not on " + m.on
		if !tSame {
			what += " and differs on " + m.tn
		}
	case !tHas:
		what = id + " of the base is not on " + m.tn
		if !oSame {
			what += " and differs on " + m.on
		}
	case !oSame:
		what = id + " on " + m.on + " differs from the base's"
	default:
		what = id + " on " + m.tn + " differs from the base's"
	}
	what += ": committed events are immutable; keep the committed text and record the correction as a new event"
	if m.offOurs && !oSame {
		what += ", or, if " + m.on + " never had the base's " + id + " (a commit picked or replayed without the ones before it), abort and replay the branch from its first new commit"
	}
	return what
}
