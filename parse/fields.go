package parse

import (
	"sort"
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
)

// parseHeader reads "evt-NNN | YYYY-MM-DD HH:MM | agent | type".
func (p *state) parseHeader(e *Event, header string, start int) {
	// A well-formed header has four parts: they fit in buf, so the
	// split allocates nothing.
	var buf [4]string
	parts := buf[:0]
	for {
		part, rest, more := strings.Cut(header, "|")
		parts = append(parts, strings.TrimSpace(part))
		if !more {
			break
		}
		header = rest
	}
	id := parts[0]
	// An ID such as "evt-012" may be followed by text when the pipes are
	// missing ("evt-012 2026-01-01 ..."): keep the first word.
	// (A byte loop: strings.IndexAny built a set for every event.)
	for i := 0; i < len(id); i++ {
		if id[i] == ' ' || id[i] == '\t' {
			id = id[:i]
			break
		}
	}
	e.ID = id
	num, msg := parseID(id)
	if msg != "" {
		p.problem(KindID, start, lineEnd(p.src, start), id, msg)
		e.ID, e.Num = "", 0
		return
	}
	e.Num = num
	if len(parts) != 4 {
		// One part is a header with other separators (dashes, commas)
		// or the ID alone: "has 1 parts" said neither.
		what := "has " + itoa(len(parts)) + " parts, want 4"
		if len(parts) == 1 {
			what = "has no \"|\" between its parts"
		}
		p.problem(KindHeader, start, lineEnd(p.src, start), id, "event header "+what+
			": write it as \"### "+id+" | YYYY-MM-DD HH:MM | agent | type\"")
	}
	if len(parts) > 1 {
		t, msg := ParseTime(parts[1])
		e.Time = t
		if msg != "" {
			p.problem(KindTimestamp, start, lineEnd(p.src, start), id, msg)
		} else if t.DateOnly {
			p.problem(KindDateOnly, start, lineEnd(p.src, start), id, "timestamp "+quote(parts[1])+" has no time of day: write \"YYYY-MM-DD HH:MM\"")
		}
	}
	if len(parts) > 2 {
		e.Agent = parts[2]
	}
	if len(parts) > 3 {
		e.Type = strings.ToLower(parts[3])
	}
	if len(parts) >= 4 && (e.Agent == "" || e.Type == "") {
		p.problem(KindHeader, start, lineEnd(p.src, start), id, "event header has an empty agent or type: fill in both")
	}
}

// ParseTime reads "YYYY-MM-DD HH:MM" or a date-only "YYYY-MM-DD". It
// checks the calendar (no 2025-02-30) and the clock (no 24:61), and
// returns a message saying what is wrong, or "".
func ParseTime(s string) (Time, string) {
	t := Time{Raw: s}
	date, clock, hasClock := strings.Cut(strings.TrimSpace(s), " ")
	clock = strings.TrimSpace(clock)
	bad := func() (Time, string) {
		return Time{Raw: s}, "timestamp " + quote(s) + " is not a valid \"YYYY-MM-DD HH:MM\": fix the date or time"
	}
	if len(date) != 10 || date[4] != '-' || date[7] != '-' {
		return bad()
	}
	y, ok1 := atoiN(date[0:4])
	m, ok2 := atoiN(date[5:7])
	d, ok3 := atoiN(date[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return bad()
	}
	t.Year, t.Month, t.Day = int16(y), int8(m), int8(d)
	if !hasClock || clock == "" {
		t.DateOnly = true
		return t, ""
	}
	if len(clock) != 5 || clock[2] != ':' {
		return bad()
	}
	h, ok1 := atoiN(clock[0:2])
	mi, ok2 := atoiN(clock[3:5])
	if !ok1 || !ok2 || h > 23 || mi > 59 {
		return bad()
	}
	t.Hour, t.Minute = int8(h), int8(mi)
	return t, ""
}

func atoiN(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// splitField splits "**Key**: value" or "**Key:** value" into key and
// value. Keys are short words: "**Note**: a **bold** claim" is a field,
// "**Warning** this is prose" is not.
func splitField(line string) (key, value string, ok bool) {
	if !strings.HasPrefix(line, "**") && !strings.HasPrefix(line, "__") {
		return "", "", false
	}
	mark := line[:2]
	rest := line[2:]
	i := strings.Index(rest, mark)
	if i <= 0 || i > 40 {
		return "", "", false
	}
	key, after := rest[:i], rest[i+2:]
	switch {
	case strings.HasSuffix(key, ":"):
		key = key[:len(key)-1]
	case strings.HasPrefix(after, ":"):
		after = after[1:]
	default:
		return "", "", false
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return "", "", false
	}
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '*' || c == '_' || c == '`' || c == '|' {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(after), true
}

func isFieldLine(line string) bool {
	_, _, ok := splitField(line)
	return ok
}

// fieldLines reads the lines of one paragraph: each "**Key**: value"
// line starts a field; other lines continue the previous field (a
// wrapped Summary) or, with no field before them, are free text.
func (p *state) fieldLines(lines []srcLine) {
	e := p.cur
	p.listTo = ""
	inPara := false
	for _, sl := range lines {
		line, off := p.text(sl), sl.off
		if key, val, ok := splitField(line); ok {
			ln := p.line(off)
			k := keyOf(key)
			if k != fkDetails && p.seenKey(key, k) {
				p.problem(KindDuplicateKey, off, lineEnd(p.src, off), e.ID,
					"field "+quote(key)+" appears twice in "+p.eventName(e)+": keep one")
			}
			if n := len(e.Fields); n < cap(e.Fields) {
				// In place, as details does: the room is zero (Parse's
				// fieldChunk and a stream's cells are new, or cleared
				// with their slab), and appending copied the Field with
				// the collector's write barriers.
				e.Fields = e.Fields[:n+1]
				f := &e.Fields[n]
				f.Key, f.Value, f.Line = key, val, ln
			} else {
				e.Fields = append(e.Fields, Field{Key: key, Value: val, Line: ln})
			}
			p.field, p.fieldKey = len(e.Fields)-1, k
			inPara = true
			p.applyField(k, val)
			if val == "" {
				p.listTo = listKind(k)
			} else {
				p.listTo = ""
			}
			continue
		}
		if inPara && p.field >= 0 {
			f := &e.Fields[p.field]
			f.Value = strings.TrimSpace(f.Value + " " + line)
			p.applyField(p.fieldKey, f.Value)
			p.listTo = ""
			continue
		}
		p.problem(KindFreeText, off, lineEnd(p.src, off), e.ID,
			"text "+quote(clip(line))+" in "+p.eventName(e)+" is not a field: write it as \"**Key**: value\" or a Details bullet")
	}
}

// seenKey reports whether the open event already has a field whose key
// is key (SameKey), k being keyOf(key), and records that it now has
// one. A known key is the same as another exactly when both fold to its
// name, so known keys are a bit each; only other keys are compared.
func (p *state) seenKey(key string, k fieldKey) bool {
	if k != fkOther {
		bit := uint16(1) << k
		seen := p.keys&bit != 0
		p.keys |= bit
		return seen
	}
	seen := false
	if p.keys&1 != 0 { // an other key came before
		for i := range p.cur.Fields {
			if SameKey(p.cur.Fields[i].Key, key) {
				seen = true
				break
			}
		}
	}
	p.keys |= 1
	return seen
}

// eventName names e in a message about its body: its ID, or, when the
// heading's ID could not be read (a problem reported at the heading,
// e.g. "### evt-060: Title"), the line of that heading, so the message
// never reads "in  is not a field".
func (p *state) eventName(e *Event) string {
	if e.ID != "" {
		return e.ID
	}
	return "the event at line " + itoa(e.Range.Line)
}

func clip(s string) string { return words.ClipTo(s, 40) }

// applyField copies a known field, k being keyOf its key, into its
// Event member.
func (p *state) applyField(k fieldKey, val string) {
	e := p.cur
	switch k {
	case fkScope:
		e.Scope = val
		e.Scopes = appendList(p.makeStrs(strings.Count(val, ",")+1), val, false)
	case fkSummary:
		e.Summary = val
	case fkRefs, fkRef, fkReferences:
		e.Refs = p.refs(val)
	case fkTags, fkTag:
		e.Tags = appendList(p.makeStrs(strings.Count(val, ",")+1), val, true)
	case fkSupersedes:
		e.Supersedes = p.refs(val)
	}
}

// appendList appends the non-empty comma-separated parts of s to out,
// trimmed; as tags (tags true) they also lose backticks and a leading
// '#', and "none" is no tag. The result is sized once, with no
// intermediate slice: every event has a Scope and Tags.
func appendList(out []string, s string, tags bool) []string {
	if out == nil {
		out = make([]string, 0, strings.Count(s, ",")+1)
	}
	for s != "" {
		part, rest, _ := strings.Cut(s, ",")
		s = rest
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		if tags {
			if part = strings.TrimLeft(strings.Trim(part, "`"), "#"); part == "" || strings.EqualFold(part, "none") {
				continue
			}
		}
		out = append(out, part)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// parseRefs extracts the evt-NNN tokens of a Refs value; "none", "-"
// and "n/a" give none, and prose between them ("evt-003 and evt-004",
// "evt-003 (the decision)") is ignored. A value that names no event at
// all ("see above") is kept whole as one ref, so lint reports it
// rather than the parser dropping it in silence.
func parseRefs(s string) []string {
	return appendRefs(nil, s)
}

// appendRefs appends the refs parseRefs reads from s to out.
func appendRefs(out []string, s string) []string {
	n := len(out)
	for rest := s; rest != ""; {
		i := 0
		for i < len(rest) && isRefSep(rest[i]) {
			i++
		}
		j := i
		for j < len(rest) && !isRefSep(rest[j]) {
			j++
		}
		f := trimRefMarks(rest[i:j])
		rest = rest[j:]
		if len(f) > 4 && strings.EqualFold(f[:4], "evt-") {
			out = append(out, f)
		}
	}
	if len(out) == n {
		switch v := strings.ToLower(strings.Trim(strings.TrimSpace(s), "`*_.")); v {
		case "", "none", "-", "—", "n/a", "na", "nil":
		default:
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}

// refs is parseRefs for a field of the open event. An event that Parse
// keeps (no Reuse) takes its refs from the chunk its Scopes and Tags
// come from: one allocation an event less. Under Reuse they stay
// apart from the reused memory, as Reuse promises.
func (p *state) refs(val string) []string {
	var buf [8]string
	r := appendRefs(buf[:0], val)
	if len(r) == 0 {
		return nil
	}
	var out []string
	if p.reuse == nil {
		out = p.makeStrs(len(r))
	} else {
		out = make([]string, 0, len(r))
	}
	return append(out, r...)
}

// trimRefMarks is strings.Trim(s, "`*."), without the byte set that
// Trim builds on every call (every word of every Refs value).
func trimRefMarks(s string) string {
	i, j := 0, len(s)
	for i < j && isRefMark(s[i]) {
		i++
	}
	for j > i && isRefMark(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isRefMark(c byte) bool { return c == '`' || c == '*' || c == '.' }

// isRefSep reports whether c separates the words of a Refs value.
func isRefSep(c byte) bool {
	return c == ',' || c == ' ' || c == ';' || c == '\t' || c == '(' || c == ')' || c == '[' || c == ']'
}

func parseTags(s string) []string {
	return appendList(nil, s, true)
}

// list reads a bullet list: Details after "**Details**:", refs or tags
// after an empty Refs or Tags field, and Details again when a list
// stands alone in an event, as hand-written logs often do.
func (p *state) list(items []item) {
	e := p.cur
	ds := p.details(items)
	switch p.listTo {
	case "refs":
		for _, d := range ds {
			e.Refs = append(e.Refs, parseRefs(d.Key+" "+d.Value)...)
		}
	case "tags":
		for _, d := range ds {
			e.Tags = append(e.Tags, parseTags(strings.TrimSpace(d.Key+" "+d.Value))...)
		}
	case "supersedes":
		for _, d := range ds {
			e.Supersedes = append(e.Supersedes, parseRefs(d.Key+" "+d.Value)...)
		}
	default:
		if e.Details == nil {
			e.Details = ds // the usual single list: no copy
		} else {
			e.Details = append(e.Details, ds...)
		}
	}
	p.listTo = ""
}

func (p *state) details(items []item) []Detail {
	out := p.makeDetails(len(items))
	for i := range items {
		it := &items[i]
		// Each detail is written in place: out has room for all, and
		// appending a Detail built beside it copied it with the write
		// barriers of a struct of strings and slices.
		out = out[:len(out)+1]
		d := &out[len(out)-1]
		d.Line = p.line(it.off)
		if it.first.end > it.first.off {
			d.Key, d.Value = splitDetail(p.text(it.first))
			d.norm = NormKey(d.Key)
		}
		for _, l := range it.more {
			line := p.text(l)
			if key, _, ok := splitField(line); ok && keyOf(key) != fkOther {
				// A lazy continuation (no blank line after the list):
				// markdown reads the field as the bullet's text, and so
				// does memsys, so its refs or tags are lost unless the
				// writer is told.
				p.problem(KindFreeText, l.off, lineEnd(p.src, l.off), p.cur.ID,
					"field "+quote(key)+" continues the bullet above it, so "+p.eventName(p.cur)+" reads it as that bullet's text: put a blank line before it")
			}
			d.Value = strings.TrimSpace(d.Value + " " + line)
		}
		if len(it.children) > 0 {
			d.Children = p.details(it.children)
		}
	}
	return out
}

// splitDetail splits "key: value". The key is a short run of word
// characters (optionally in ** or backticks), so "C:\dir" or a URL in a
// keyless bullet is not taken for a key.
func splitDetail(s string) (string, string) {
	// Most keys are a plain lower-case word ("entity: x"): read in one
	// pass, they give what the general reading below gives (FuzzSplitDetail).
	i := 0
	for i < len(s) && i <= 48 && isPlainKeyByte(s[i]) {
		i++
	}
	if i > 1 && i < len(s) && i <= 48 && s[i] == ':' && (i+1 == len(s) || s[i+1] != '/') {
		return s[:i], strings.TrimSpace(s[i+1:])
	}
	return splitDetailAny(s)
}

// isPlainKeyByte reports whether c may be in a key that splitDetail
// reads in one pass: one that NormKey keeps as it is, too.
func isPlainKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// splitDetailAny is splitDetail for every key.
func splitDetailAny(s string) (string, string) {
	i := strings.Index(s, ":")
	if i <= 0 || i > 48 {
		return "", s
	}
	key := strings.TrimSpace(s[:i])
	val := s[i+1:]
	bold := false
	if strings.HasPrefix(key, "**") && strings.HasSuffix(key, "**") && len(key) > 4 {
		key, bold = key[2:len(key)-2], true
	} else if strings.HasPrefix(val, "**") && strings.HasPrefix(key, "**") {
		key, val, bold = key[2:], val[2:], true // "**key:** value"
	}
	key = strings.TrimSpace(strings.Trim(key, "`"))
	if key == "" || len(key) == 1 && i+1 < len(s) && s[i+1] == '\\' {
		return "", s
	}
	if bold && !strings.ContainsAny(key, "*`|") {
		// "- **Current system (v1)**: ..." is a key: the bold marks it
		// as one, whatever characters it holds.
		return key, strings.TrimSpace(val)
	}
	for _, r := range key {
		if !(r == '_' || r == '-' || r == ' ' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "", s
		}
	}
	if strings.HasPrefix(val, "//") {
		return "", s // a URL such as https://...
	}
	return key, strings.TrimSpace(val)
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string { return strconv.Quote(s) }

func sortProblems(ps []Problem) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Range.Offset != ps[j].Range.Offset {
			return ps[i].Range.Offset < ps[j].Range.Offset
		}
		if ps[i].Kind != ps[j].Kind {
			return ps[i].Kind < ps[j].Kind
		}
		// Stream and Parse find some problems in a different order.
		return ps[i].Message < ps[j].Message
	})
}

// listKind names where a bullet list after an empty field with key k
// (keyOf) goes.
func listKind(k fieldKey) string {
	switch k {
	case fkRefs, fkRef, fkReferences:
		return "refs"
	case fkTags, fkTag:
		return "tags"
	case fkSupersedes:
		return "supersedes"
	}
	return "details"
}

// fieldKey numbers the field keys the parser reads (applyField,
// listKind); fkOther is every other key. Each is below 16, a bit of
// state.keys.
type fieldKey uint8

// The field keys, in the order of knownKeys from fkScope on.
const (
	fkOther fieldKey = iota
	fkScope
	fkSummary
	fkRefs
	fkRef
	fkReferences
	fkTags
	fkTag
	fkSupersedes
	fkDetails
)

// knownKeys names the field keys the parser reads, normalised
// (NormKey): knownKeys[k-1] is the name of key k.
var knownKeys = [...]string{"scope", "summary", "refs", "ref", "references", "tags", "tag", "supersedes", "details"}

// keyOf returns the key among knownKeys that key normalises to
// (NormKey), or fkOther. Every field of every event goes through it, so
// an ASCII key is folded byte by byte against the one name its length
// and first letter leave, with no copy; only a key with other bytes is
// normalised (which may change its length).
func keyOf(key string) fieldKey {
	key = strings.TrimSpace(key)
	if len(key) < 3 || len(key) > len("references") {
		if isASCII(key) {
			return fkOther
		}
		return knownNorm(NormKey(key))
	}
	var k fieldKey
	switch key[0] | 0x20 {
	case 's':
		switch len(key) {
		case 5:
			k = fkScope
		case 7:
			k = fkSummary
		case 10:
			k = fkSupersedes
		}
	case 'r':
		switch len(key) {
		case 3:
			k = fkRef
		case 4:
			k = fkRefs
		case 10:
			k = fkReferences
		}
	case 't':
		switch len(key) {
		case 3:
			k = fkTag
		case 4:
			k = fkTags
		}
	case 'd':
		if len(key) == 7 {
			k = fkDetails
		}
	}
	var name string
	if k != fkOther {
		name = knownKeys[k-1]
	}
	for i := 0; i < len(key); i++ {
		c := foldKey(key[i])
		if c >= 0x80 {
			return knownNorm(NormKey(key))
		}
		if k != fkOther && c != name[i] {
			k = fkOther
		}
	}
	return k
}

// knownNorm returns the key named norm, a normalised key, or fkOther.
func knownNorm(norm string) fieldKey {
	for i, name := range knownKeys {
		if norm == name {
			return fieldKey(i + 1)
		}
	}
	return fkOther
}
