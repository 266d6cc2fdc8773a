package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/jsontext"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Draft is an event before it has an ID: what `memsys append` builds
// from its flags or from JSON on stdin.
type Draft struct {
	Type    string       `json:"type"`
	Scope   string       `json:"scope"`
	Summary string       `json:"summary"`
	Agent   string       `json:"agent,omitempty"`
	Time    string       `json:"time,omitempty"` // "YYYY-MM-DD HH:MM"
	Details DraftDetails `json:"details,omitempty"`
	Refs    []string     `json:"refs,omitempty"`
	Tags    []string     `json:"tags,omitempty"`
	// Supersedes names earlier events this one corrects (the
	// "**Supersedes**" field, written after Tags when not empty).
	Supersedes []string `json:"supersedes,omitempty"`
}

// DraftDetail is one bullet of Details; Children are nested bullets.
type DraftDetail struct {
	Key      string        `json:"key"`
	Value    string        `json:"value"`
	Children []DraftDetail `json:"children,omitempty"`
}

// DraftDetails are the bullets of Details. In JSON they are either a
// list of {"key", "value", "children"} objects or, the shape an agent
// writes first, one object of key: value pairs, read in document order
// (a nested object gives nested bullets).
type DraftDetails []DraftDetail

// detailShapes is the end of every error about the details' shape.
const detailShapes = `"details" is either an object {"from": "a", "to": "b"} (in order; a nested object gives nested bullets) or a list [{"key": "from", "value": "a", "children": [...]}]`

// UnmarshalJSON reads either shape of DraftDetails.
func (ds *DraftDetails) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	switch {
	case bytes.HasPrefix(data, []byte("[")):
		var list []DraftDetail
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&list); err != nil {
			return fmt.Errorf("%s: %s", jsonMessage(err, "a detail"), detailShapes)
		}
		*ds = list
		return nil
	case bytes.HasPrefix(data, []byte("{")):
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		list, err := objectDetails(dec)
		if err != nil {
			return fmt.Errorf("%s: %s", err, detailShapes)
		}
		*ds = list
		return nil
	case bytes.Equal(data, []byte("null")):
		*ds = nil
		return nil
	}
	return fmt.Errorf("details %s is neither an object nor a list: %s", clipJSON(data), detailShapes)
}

// objectDetails reads one JSON object as bullets in document order; the
// decoder is positioned before its opening brace.
func objectDetails(dec *json.Decoder) ([]DraftDetail, error) {
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("details: want an object")
	}
	var out []DraftDetail
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("details: %v", err)
		}
		key := t.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("details: %v", err)
		}
		d := DraftDetail{Key: key}
		raw = bytes.TrimSpace(raw)
		switch {
		case bytes.HasPrefix(raw, []byte("{")):
			sub := json.NewDecoder(bytes.NewReader(raw))
			sub.UseNumber()
			if d.Children, err = objectDetails(sub); err != nil {
				return nil, err
			}
		case bytes.HasPrefix(raw, []byte(`"`)):
			_ = json.Unmarshal(raw, &d.Value)
		case bytes.HasPrefix(raw, []byte("[")), bytes.Equal(raw, []byte("null")):
			return nil, fmt.Errorf("details: the value of %q is %s, want a string, number or object", words.Clip(key), clipJSON(raw))
		default: // a number or a boolean, written as JSON wrote it
			d.Value = string(raw)
		}
		out = append(out, d)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("details: %v", err)
	}
	return out, nil
}

// clipList is a list of IDs or tags as a message quotes it back: joined
// as the log writes it, then clipped (a 1 MB tag stays one short line).
func clipList(l []string) string { return words.Clip(strings.Join(l, ", ")) }

// clipJSON is a JSON value as a message quotes it (words.ClipTo).
func clipJSON(b []byte) string { return words.ClipTo(string(b), 20) }

// jsonMessage words a decoding error for a person, without Go type
// names such as "[]memory.DraftDetail"; whole names the value decoded
// (the event, a detail) when the error is about the value itself, not
// one of its fields.
func jsonMessage(err error, whole string) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = whole
		}
		want := plainType(te.Type.Kind().String())
		article := "a"
		if strings.ContainsRune("aeiou", rune(want[0])) {
			article = "an"
		}
		return fmt.Sprintf("%s is a JSON %s where %s %s is expected", words.Clip(field), te.Value, article, want)
	}
	// DisallowUnknownFields names the key as sent, however long.
	if k, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if u, err := strconv.Unquote(k); err == nil {
			k = u
		}
		return fmt.Sprintf("json: unknown field %q", words.Clip(k))
	}
	return err.Error()
}

func plainType(k string) string {
	switch k {
	case "slice", "array":
		return "list"
	case "struct", "map":
		return "object"
	}
	return k
}

// MaxDraftJSON is the most bytes of event JSON append reads from
// stdin. A caller reads one byte more, so that DecodeDraft can tell an
// event over the limit from broken JSON.
const MaxDraftJSON = 1 << 20

// DecodeDraft reads a Draft from JSON. Unknown keys are an error, so a
// misspelt "summery" is not silently dropped.
func DecodeDraft(data []byte) (Draft, error) {
	var d Draft
	if len(data) > MaxDraftJSON {
		return Draft{}, fmt.Errorf("event JSON on stdin is over the %d-byte limit: send a shorter event (long text belongs in a file the event refers to)", MaxDraftJSON)
	}
	// PowerShell and Windows editors start UTF-8 text with a byte order
	// mark; import skips it in a ledger, and so does an event.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if msg := jsontext.Problem(data); msg != "" {
		return Draft{}, fmt.Errorf("event JSON on stdin %s", msg)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Draft{}, fmt.Errorf("event JSON on stdin: %s: send one object with type, scope, summary and optional agent, time, details, refs, tags, supersedes", jsonMessage(err, "the event"))
	}
	if dec.More() {
		return Draft{}, fmt.Errorf("event JSON on stdin: more than one value: send exactly one event object")
	}
	return d, nil
}

// AddDetailFlag adds one --detail argument to ds. The form is
// key=value; a dotted key nests the bullet under the latest earlier
// detail with that key path, so
//
//	--detail changes=parser --detail changes.files=parse.go
//
// gives "- changes: parser" with a nested "- files: parse.go". Keys
// that themselves contain dots can only be written with --json.
func AddDetailFlag(ds []DraftDetail, arg string) ([]DraftDetail, error) {
	key, value, ok := strings.Cut(arg, "=")
	if !ok {
		return ds, fmt.Errorf("--detail %q has no \"=\": write it as key=value, e.g. --detail 'rationale=simpler'", words.Clip(arg))
	}
	path := strings.Split(strings.TrimSpace(key), ".")
	for _, k := range path {
		if msg := checkKey(strings.TrimSpace(k)); msg != "" {
			return ds, fmt.Errorf("--detail %q: %s", words.Clip(arg), msg)
		}
	}
	d := DraftDetail{Key: strings.TrimSpace(path[len(path)-1]), Value: strings.TrimSpace(value)}
	return insertDetail(ds, path[:len(path)-1], d, arg)
}

func insertDetail(ds []DraftDetail, parents []string, d DraftDetail, arg string) ([]DraftDetail, error) {
	if len(parents) == 0 {
		return append(ds, d), nil
	}
	want := strings.TrimSpace(parents[0])
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Key == want {
			kids, err := insertDetail(ds[i].Children, parents[1:], d, arg)
			if err != nil {
				return ds, err
			}
			ds[i].Children = kids
			return ds, nil
		}
	}
	return ds, fmt.Errorf("--detail %q nests under %q, which no earlier --detail defines: add --detail '%s=...' before it", words.Clip(arg), words.Clip(want), words.Clip(want))
}

// checkKey mirrors the parser's idea of a detail key (a short run of
// letters, digits, spaces, '_', '-' or '.'), so what append writes is
// read back as the same key.
func checkKey(k string) string {
	if k == "" {
		return "empty key: write key=value"
	}
	if len(k) > 40 {
		return "key is longer than 40 characters: use a short key and put the text in the value"
	}
	for _, r := range k {
		if !(r == '_' || r == '-' || r == ' ' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return fmt.Sprintf("key %q has %q: keys are letters, digits, spaces, '_' and '-'", k, r)
		}
	}
	return ""
}

// SplitList splits comma-separated flag values (--refs, --tags),
// trimming spaces and dropping empties. "none" means no entries.
func SplitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		// SplitSeq, not Split: export checks every event's refs here,
		// and the slice Split built for each was most of the cost.
		for p := range strings.SplitSeq(v, ",") {
			if p = strings.TrimSpace(p); p != "" && !strings.EqualFold(p, "none") {
				out = append(out, p)
			}
		}
	}
	return out
}

// Known answers whether an event number exists in the log or the
// archive, and returns its ID as written there and its type (as the
// parser reads it from the heading, lower-cased), which decides what a
// closes detail may name.
type Known func(num int) (id, typ string, ok bool)

// Normalize trims the draft, lower-cases the type and checks it with
// the rules lint applies to a written event: a known type, a scope, a
// one-line summary, an agent without '|', a valid minute-precision
// time, refs to events that exist, detail keys the parser reads back.
// Refs are rewritten to the IDs as written in the log. It returns the
// first problem as a one-line error saying what to do.
func Normalize(d *Draft, known Known) error {
	d.Type = strings.ToLower(strings.TrimSpace(d.Type))
	d.Scope = strings.TrimSpace(d.Scope)
	d.Summary = strings.TrimSpace(d.Summary)
	d.Agent = strings.TrimSpace(d.Agent)
	d.Time = strings.TrimSpace(d.Time)
	switch {
	case d.Type == "":
		return front.Errorf("missing event type: pass %s, one of %s", inType.Ref(), strings.Join(parse.EventTypes, ", "))
	case !slices.Contains(parse.EventTypes, d.Type):
		return fmt.Errorf("unknown event type %q: use one of %s", words.Clip(d.Type), strings.Join(parse.EventTypes, ", "))
	case d.Scope == "":
		return front.Errorf("missing scope: pass %s with the area the event affects", inScope.Ref())
	case d.Summary == "":
		return front.Errorf("missing summary: pass %s with a one-line description", inSummary.Ref())
	case d.Agent == "":
		return front.Errorf("missing agent: pass %s", missingAgt)
	case BadAgent(d.Agent):
		return fmt.Errorf("agent %q contains '|' or a line break: use a plain name", words.Clip(d.Agent))
	}
	if err := checkUTF8(d); err != nil {
		return err
	}
	for _, f := range [][2]string{{"scope", d.Scope}, {"summary", d.Summary}} {
		if hasBreak(f[1]) {
			return front.Errorf("%s %q spans several lines: keep it on one line and put the rest in %s", f[0], words.Clip(f[1]), inDetail.Ref())
		}
	}
	if strings.Contains(d.Type, "|") {
		return fmt.Errorf("type %q contains '|': use one of %s", words.Clip(d.Type), strings.Join(parse.EventTypes, ", "))
	}
	d.Time = argTime(d.Time)
	t, msg := parse.ParseTime(d.Time)
	if msg != "" {
		return front.Errorf("%s %q is not \"YYYY-MM-DD HH:MM\": give a valid date and 24-hour time", inTime.Name(), words.Clip(d.Time))
	}
	if t.DateOnly {
		return front.Errorf("%s %q has no time of day: write \"YYYY-MM-DD HH:MM\"", inTime.Name(), words.Clip(d.Time))
	}
	d.Time = t.String()
	var err error
	if d.Refs, err = knownIDs(refWord, d.Refs, known, "refer to an existing event"); err != nil {
		return err
	}
	if d.Supersedes, err = knownIDs(front.Word{CLI: "supersedes", MCP: "supersedes"}, d.Supersedes, known, "name the earlier event this one corrects"); err != nil {
		return err
	}
	if d.Tags, err = cleanTags(d.Tags); err != nil {
		return err
	}
	if err := checkDetails(d.Details); err != nil {
		return err
	}
	if err := checkSemantics(d.Details, known); err != nil {
		return err
	}
	return knownCloses(d.Details, known)
}

// closesWord names a closes detail's IDs in knownIDs' messages.
var closesWord = front.Word{CLI: "closes", MCP: "closes", JSON: "closes"}

// knownCloses rewrites the IDs of each closes detail as the log writes
// them, with knownIDs, as Refs and Supersedes are rewritten: "evt-7"
// becomes "evt-007", one ID named twice is written once, and the list
// is joined as the Refs line joins it. Replay matches either spelling;
// the log then spells an event one way wherever it names it. The IDs
// are the ones replay reads (materialize.Closes); checkSemantics has
// refused any that names no event.
func knownCloses(ds []DraftDetail, known Known) error {
	for i := range ds {
		ids, ok, err := closesAsKnown(ds[i], known)
		if err != nil {
			return err
		}
		if ok {
			ds[i].Value = strings.Join(ids, ", ")
		}
	}
	return nil
}

// closesAsKnown returns d's closes IDs as knownCloses writes them; ok
// is false when d is no closes detail or names no ID.
func closesAsKnown(d DraftDetail, known Known) ([]string, bool, error) {
	if parse.NormKey(d.Key) != "closes" {
		return nil, false, nil
	}
	raw := materialize.Closes(&parse.Event{Details: []parse.Detail{{Key: d.Key, Value: d.Value}}})
	if len(raw) == 0 {
		return nil, false, nil
	}
	ids, err := knownIDs(closesWord, raw, known, "a loop is closed after it is opened, so name an earlier event")
	return ids, err == nil, err
}

// Settled reports whether Normalize would accept d and leave it as it
// is, without the slices Normalize builds for refs and tags: export
// checks every event of a history whose drafts are mostly settled
// (planner.planFast in internal/app/ledger), and those copies were a
// third of Normalize there. It runs Normalize's own checks where they
// change nothing (checkUTF8, checkDetails, checkSemantics) and answers
// false, leaving Normalize to decide and word the refusal, for anything
// Normalize would rewrite: untrimmed text, a type not lower-cased, a
// time not as the log writes it, a ref not as known names it or named
// twice, a tag Normalize drops or refuses, a Supersedes list.
// TestSettled holds it to Normalize.
func Settled(d *Draft, known Known) bool {
	if !slices.Contains(parse.EventTypes, d.Type) || d.Scope == "" || d.Summary == "" || d.Agent == "" ||
		!trimmed(d.Scope) || !trimmed(d.Summary) || !trimmed(d.Agent) || !trimmed(d.Time) ||
		BadAgent(d.Agent) || hasBreak(d.Scope) || hasBreak(d.Summary) || len(d.Supersedes) > 0 {
		return false
	}
	if checkUTF8(d) != nil || argTime(d.Time) != d.Time {
		return false
	}
	if t, msg := parse.ParseTime(d.Time); msg != "" || t.DateOnly || t.String() != d.Time {
		return false
	}
	for i, r := range d.Refs {
		// knownIDs: one ID (no comma, not "none", trimmed), known by
		// this very spelling, not named before.
		if r == "" || !trimmed(r) || strings.IndexByte(r, ',') >= 0 || strings.EqualFold(r, "none") || slices.Contains(d.Refs[:i], r) {
			return false
		}
		num, ok := parse.EventNum(r)
		if !ok {
			return false
		}
		if id, _, ok := known(num); !ok || id != r {
			return false
		}
	}
	for _, tag := range d.Tags {
		if tag == "" || !trimmed(tag) || strings.EqualFold(tag, "none") || hasBreak(tag) || strings.IndexByte(tag, ',') >= 0 {
			return false
		}
	}
	for _, x := range d.Details {
		if ids, ok, err := closesAsKnown(x, known); err != nil || ok && strings.Join(ids, ", ") != x.Value {
			return false // Normalize refuses it or writes its IDs as the log does
		}
	}
	// checkDetails trims in place: on trimmed details it changes nothing.
	return trimmedDetails(d.Details) && checkDetails(d.Details) == nil && checkSemantics(d.Details, known) == nil
}

func trimmed(s string) bool { return s == strings.TrimSpace(s) }

func trimmedDetails(ds []DraftDetail) bool {
	for _, d := range ds {
		if !trimmed(d.Key) || !trimmed(d.Value) || !trimmedDetails(d.Children) {
			return false
		}
	}
	return true
}

// cleanTags trims each tag and drops empty ones and "none" (what the
// Tags line writes for no tags). A tag is one entry: a comma in it
// would read back from the **Tags** line as two tags, so it is refused
// rather than split; the flag form (--tags a,b) is split before it
// gets here (SplitList).
func cleanTags(tags []string) ([]string, error) {
	var out []string
	if len(tags) > 0 {
		out = make([]string, 0, len(tags)) // one allocation, not append's doublings
	}
	for _, tag := range tags {
		tag = strings.TrimSpace(tag)
		switch {
		case tag == "" || strings.EqualFold(tag, "none"):
			continue
		case hasBreak(tag):
			return nil, fmt.Errorf("tag %q spans several lines: use one word", words.Clip(tag))
		case strings.Contains(tag, ","):
			return nil, fmt.Errorf("tag %q contains a comma, which the Tags line reads as two tags: give each tag as its own list item", words.Clip(tag))
		}
		out = append(out, tag)
	}
	return out, nil
}

// argTime returns a time given as an argument ("YYYY-MM-DDTHH:MM", ISO
// 8601's separator, as agents and the MCP tools' callers often write
// it) with the space the log's headings use; any other text unchanged.
// append's time and log's since and until both take it.
func argTime(v string) string {
	if len(v) == 16 && v[10] == 'T' {
		return v[:10] + " " + v[11:]
	}
	return v
}

// checkUTF8 names the first field of d that is not UTF-8 (an agent's
// argument in Latin-1, say): the log is UTF-8 (MS121), and the parser's
// complaint about the rendered event would name neither the field nor
// the fix. It also refuses a control character other than tab (line
// breaks have their own messages): an escape sequence kept in the log
// acts on the terminal of whoever prints it later (memsys log, cat),
// and a NUL byte made the parser call the rendered log damaged.
func checkUTF8(d *Draft) error {
	for _, f := range [][2]string{{"agent", d.Agent}, {"scope", d.Scope}, {"summary", d.Summary}} {
		if err := textProblem(f[0], f[1]); err != nil {
			return err
		}
	}
	for _, t := range d.Tags {
		if err := textProblem("tag", t); err != nil {
			return err
		}
	}
	var walk func(ds []DraftDetail) error
	walk = func(ds []DraftDetail) error {
		for _, x := range ds {
			if err := textProblem("detail key", x.Key); err != nil {
				return err
			}
			if !cleanText(x.Value) {
				// The label only now: export checks every detail of a
				// history, and formatting it for each cost a tenth of
				// the export.
				return textProblem(fmt.Sprintf("detail %q value", words.Clip(x.Key)), x.Value)
			}
			if err := walk(x.Children); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(d.Details)
}

// hasBreak reports whether s holds a line break, '\n' or '\r':
// strings.ContainsAny(s, "\n\r"), as two vectorised byte searches where
// IndexAny reads byte by byte. Export runs Normalize on every event, and
// these scans were a tenth of it.
func hasBreak(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 || strings.IndexByte(s, '\r') >= 0
}

// cleanText reports whether v is UTF-8 without control characters.
func cleanText(v string) bool { return utf8.ValidString(v) && parse.IndexControl(v) < 0 }

// textProblem says what is wrong with v, named what, or nil.
func textProblem(what, v string) error {
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s %q is not valid UTF-8: pass UTF-8 text (convert it from its encoding, e.g. Latin-1)", what, words.Clip(v))
	}
	if i := parse.IndexControl(v); i >= 0 {
		return fmt.Errorf("%s %q contains the control character U+%04X: remove it", what, words.Clip(v), v[i])
	}
	return nil
}

// checkSemantics checks the details that replay reads beyond the
// graph, as lint would after the write: a priority must be one replay
// understands (MS130), and closes must name existing events, which an
// appended event always comes after (MS129), that open a loop (MS135).
// A loop already closed is not refused: replay only notes a second
// close (two branches may both close one), and knowing it would mean
// replaying the history, which append does not read.
func checkSemantics(ds []DraftDetail, known Known) error {
	for _, d := range ds {
		switch parse.NormKey(d.Key) {
		case "priority":
			if _, ok := materialize.ParsePriority(d.Value); !ok {
				return fmt.Errorf("priority %q is not P0, P1, P2 or P3: write one of them (P1 is the default)", words.Clip(d.Value))
			}
		case "closes":
			for _, c := range materialize.Closes(&parse.Event{Details: []parse.Detail{{Key: d.Key, Value: d.Value}}}) {
				num, ok := parse.EventNum(c)
				if !ok {
					return fmt.Errorf("closes %q is not an event ID: %s", words.Clip(c), parse.NotIDHint(c))
				}
				_, typ, ok := known(num)
				if !ok {
					return fmt.Errorf("closes %q names no event in the log or the archive: a loop is closed after it is opened, so name an earlier event", words.Clip(c))
				}
				if !materialize.IsLoop(typ) {
					return fmt.Errorf("closes %q names %s, which opens no loop: close %s, or list %s in refs instead", words.Clip(c), materialize.TypeNoun(typ), materialize.LoopTypesText(), words.Clip(c))
				}
			}
		}
	}
	return nil
}

func checkDetails(ds []DraftDetail) error {
	for i := range ds {
		ds[i].Key = strings.TrimSpace(ds[i].Key)
		ds[i].Value = strings.TrimSpace(ds[i].Value)
		if ds[i].Key == "" && ds[i].Value == "" {
			return fmt.Errorf("empty detail: give each detail a key and a value")
		}
		// A bullet without a key is text replay ignores and lint
		// flags (MS132): refuse it rather than write a warning.
		if ds[i].Key == "" {
			return fmt.Errorf("detail %q has an empty key: give every detail a key (\"note\" for text that is only for readers)", words.Clip(ds[i].Value))
		}
		if msg := checkKey(ds[i].Key); msg != "" {
			return fmt.Errorf("detail %q: %s", words.Clip(ds[i].Key), msg)
		}
		if hasBreak(ds[i].Value) {
			return fmt.Errorf("detail %q spans several lines: use nested details for more lines", words.Clip(ds[i].Key))
		}
		if err := checkDetails(ds[i].Children); err != nil {
			return err
		}
	}
	return nil
}

// Render writes the event in the seed's format with line ending nl:
//
//	### evt-NNN | YYYY-MM-DD HH:MM | agent | type
//
//	**Scope**: ...
//	**Summary**: ...
//
//	**Details**:
//	- key: value
//	  - key: value
//
//	**Refs**: evt-XXX (or none)
//	**Tags**: a, b (or none)
//	**Supersedes**: evt-YYY (only when it supersedes something)
//
// Details are left out when there are none; Refs and Tags are always
// written so every event has the same shape.
func Render(id string, d Draft, nl string) []byte {
	// Room for a typical event at once: import renders every line, and
	// the buffer's doublings were half of Render's time there.
	return AppendRender(make([]byte, 0, 512+len(d.Summary)), id, d, nl)
}

// AppendRender appends Render's text to dst. Export renders every event
// to compare it with the log's text (planner.planFast), into one buffer
// it reuses: the strings Render joined for each line were a third of
// its time.
func AppendRender(dst []byte, id string, d Draft, nl string) []byte {
	dst = append(append(append(append(append(append(append(append(dst, "### "...), id...), " | "...), d.Time...), " | "...), d.Agent...), " | "...), d.Type...)
	dst = append(dst, nl...)
	dst = append(dst, nl...)
	dst = append(append(append(dst, "**Scope**: "...), d.Scope...), nl...)
	dst = append(append(append(dst, "**Summary**: "...), d.Summary...), nl...)
	dst = append(dst, nl...)
	if len(d.Details) > 0 {
		dst = append(append(dst, "**Details**:"...), nl...)
		dst = appendDetails(dst, d.Details, 0, nl)
		dst = append(dst, nl...)
	}
	dst = appendList(append(dst, "**Refs**: "...), d.Refs)
	dst = append(dst, nl...)
	dst = appendList(append(dst, "**Tags**: "...), d.Tags)
	dst = append(dst, nl...)
	if len(d.Supersedes) > 0 {
		dst = appendList(append(dst, "**Supersedes**: "...), d.Supersedes)
		dst = append(dst, nl...)
	}
	return dst
}

// appendDetails appends ds as bullets indented by depth levels of two
// spaces.
func appendDetails(dst []byte, ds []DraftDetail, depth int, nl string) []byte {
	for _, d := range ds {
		for range depth {
			dst = append(dst, "  "...)
		}
		dst = append(dst, "- "...)
		switch {
		case d.Key == "":
			dst = append(dst, d.Value...)
		case d.Value == "":
			dst = append(append(dst, d.Key...), ':')
		default:
			dst = append(append(append(dst, d.Key...), ": "...), d.Value...)
		}
		dst = append(dst, nl...)
		dst = appendDetails(dst, d.Children, depth+1, nl)
	}
	return dst
}

// appendList appends xs joined with ", ", or "none" (orNone).
func appendList(dst []byte, xs []string) []byte {
	if len(xs) == 0 {
		return append(dst, "none"...)
	}
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, x...)
	}
	return dst
}

// CheckRoundTrip parses the rendered event on its own and checks that
// it reads back as the draft: the last line of defence against a value
// the markdown would reinterpret (a summary that looks like a field, a
// detail value with a colon that moves the key).
func CheckRoundTrip(id string, d Draft, text []byte) error {
	l := parse.Parse("event", append([]byte("## Event Log\n\n"), text...))
	if len(l.Problems) > 0 {
		return fmt.Errorf("the event would not parse cleanly (%s): simplify the text", l.Problems[0].Message)
	}
	if len(l.Events) != 1 {
		return fmt.Errorf("the event would read back as %d events: remove headings from the text", len(l.Events))
	}
	return ReadsBackAs(id, d, &l.Events[0])
}

// ReadsBackAs is CheckRoundTrip's comparison: whether e, the event the
// rendered text parsed as, reads back as the draft d with ID id. Export
// calls it with an event parsed from the log whose text is exactly what
// Render writes for d, so it need not parse that text again.
func ReadsBackAs(id string, d Draft, e *parse.Event) error {
	switch {
	case e.ID != id || e.Type != d.Type || e.Agent != d.Agent || e.Time.String() != d.Time:
		return fmt.Errorf("the event header would read back differently: remove '|' and line breaks from agent and type")
	case e.Scope != d.Scope:
		return fmt.Errorf("scope %q would read back as %q: simplify it", words.Clip(d.Scope), words.Clip(e.Scope))
	case e.Summary != d.Summary:
		return fmt.Errorf("summary %q would read back as %q: simplify it", words.Clip(d.Summary), words.Clip(e.Summary))
	case !slices.Equal(e.Refs, d.Refs):
		return fmt.Errorf("refs would read back as %q: give plain evt-NNN IDs", clipList(e.Refs))
	case !slices.Equal(e.Supersedes, d.Supersedes):
		return fmt.Errorf("supersedes would read back as %q: give plain evt-NNN IDs", clipList(e.Supersedes))
	case !slices.Equal(e.Tags, d.Tags):
		return fmt.Errorf("tags %q would read back as %q: use plain words", clipList(d.Tags), clipList(e.Tags))
	}
	return sameDetails(d.Details, e.Details)
}

func sameDetails(want []DraftDetail, got []parse.Detail) error {
	if len(want) != len(got) {
		return fmt.Errorf("details would read back as %s, not %d: simplify the values", words.Plural(len(got), "bullet"), len(want))
	}
	for i := range want {
		if want[i].Key != got[i].Key || want[i].Value != got[i].Value {
			return fmt.Errorf("detail %q would read back as key %q, value %q: avoid ':' and markdown in keys", words.Clip(want[i].Key+": "+want[i].Value), words.Clip(got[i].Key), words.Clip(got[i].Value))
		}
		if err := sameDetails(want[i].Children, got[i].Children); err != nil {
			return err
		}
	}
	return nil
}

// NextID returns the ID after the highest event number in logs (the
// log and the archive), zero-padded to three digits or to the widest
// ID already in use, so a log numbered evt-0001 stays that way. It
// fails, naming the event, when that number is parse.MaxEventNum: the
// next ID would not be an event ID. An event heading above the Event
// Log section (MS115) is no event to replay, but its ID is taken: a log
// whose section heading was added below its events got evt-001 again.
func NextID(logs ...*parse.Log) (string, error) {
	maxNum, width := 0, 3
	var last *parse.Event
	for _, l := range logs {
		if l == nil {
			continue
		}
		for _, p := range l.Problems {
			if n, ok := parse.EventNum(p.Event); ok && p.Kind == parse.KindOutside && n < parse.MaxEventNum {
				maxNum, width = max(maxNum, n), max(width, len(p.Event)-4)
			}
		}
		for i := range l.Events {
			e := &l.Events[i]
			if e.Num > maxNum {
				maxNum, last = e.Num, e
			}
			if e.Num > 0 && len(e.ID)-4 > width {
				width = len(e.ID) - 4
			}
		}
	}
	if p := tooLongAfterLast(logs); p != nil {
		return "", fmt.Errorf("%s:%d: %s, then append again", p.Range.File, p.Range.Line, p.Message)
	}
	if maxNum >= parse.MaxEventNum {
		return "", fmt.Errorf("%s:%d: %s is the largest event ID there can be (%d digits), so no event can follow it: if the number is a typo, correct it before it is committed",
			last.Range.File, last.Range.Line, last.ID, parse.MaxIDDigits)
	}
	return parse.FormatID(maxNum+1, width), nil
}

// tooLongAfterLast finds a heading after a log's last numbered event
// whose ID has too many digits (parse.IDTooLong): the parser does not
// count it as an event, so numbering from the events before it would
// write an ID below one already in the log. Only headings after the
// last numbered event count, so the answer is the same whether append
// read the log's tail or all of it.
func tooLongAfterLast(logs []*parse.Log) *parse.Problem {
	for _, l := range logs {
		if l == nil {
			continue
		}
		last := 0
		for i := range l.Events {
			if l.Events[i].Num > 0 {
				last = max(last, l.Events[i].Range.Line)
			}
		}
		for i := range l.Problems {
			p := &l.Problems[i]
			if p.Kind == parse.KindID && p.Range.Line > last && parse.IDTooLong(p.Event) {
				return p
			}
		}
	}
	return nil
}

// KnownIn builds a Known over the events of logs. It searches from the
// newest event back instead of building an index: an append checks a
// few refs, mostly to recent events, and a map of 100k IDs would cost
// more than the search.
func KnownIn(logs ...*parse.Log) Known {
	return func(n int) (string, string, bool) {
		for _, l := range logs {
			if l == nil {
				continue
			}
			for i := len(l.Events) - 1; i >= 0; i-- {
				if l.Events[i].Num == n {
					return l.Events[i].ID, l.Events[i].Type, true
				}
			}
		}
		return "", "", false
	}
}

// spaceSeparatedIDs reports whether v is two or more event IDs
// separated by spaces, not commas.
func spaceSeparatedIDs(v string) bool {
	f := strings.Fields(v)
	if len(f) < 2 {
		return false
	}
	for _, id := range f {
		if _, ok := parse.EventNum(id); !ok {
			return false
		}
	}
	return true
}

// knownIDs resolves a list of event IDs (a field's values, what names
// the field in errors) to the IDs of existing events, in order, each
// once; hint says what to do about an ID that names no event.
func knownIDs(what front.Word, vals []string, known Known, hint string) ([]string, error) {
	ids := make([]string, 0, len(vals))
	for _, r := range SplitList(vals) {
		num, ok := parse.EventNum(r)
		if !ok && spaceSeparatedIDs(r) {
			// Agents often write a list as prose: "evt-001 evt-002".
			return nil, front.Errorf("%s %q holds several event IDs: separate them with commas (%s)", what, words.Clip(r), words.Clip(strings.Join(strings.Fields(r), ",")))
		}
		if !ok {
			return nil, front.Errorf("%s %q is not an event ID: %s", what, words.Clip(r), parse.NotIDHint(r))
		}
		id, _, ok := known(num)
		if !ok {
			return nil, front.Errorf("%s %q names no event in the log or the archive: %s", what, words.Clip(r), hint)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
