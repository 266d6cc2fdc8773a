package ledger

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/parse"
)

// Record is one ledger line as memsys writes it. Field order is the
// order in the JSON. Time is seed 000's ISO 8601 "ts" at the minute the
// log records, without a zone: the log has none.
type Record struct {
	ID      string               `json:"id"`
	TS      string               `json:"ts"`
	Type    string               `json:"type"`
	Agent   string               `json:"agent"`
	Scope   string               `json:"scope"`
	Content string               `json:"content"`
	Details []memory.DraftDetail `json:"details"`
	Related []string             `json:"related"`
	Tags    []string             `json:"tags"`
	// Fields are "**Key**: value" lines other than the five the format
	// defines; import turns them into details, all but Supersedes.
	Fields []Field `json:"fields,omitempty"`
}

// Field is one extra "**Key**: value" line of an event.
type Field struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ToRecord converts a parsed event.
func ToRecord(e *parse.Event) Record {
	r := Record{ID: e.ID, TS: e.Time.ISO(), Type: e.Type, Agent: e.Agent, Scope: e.Scope, Content: e.Summary,
		Details: details(e.Details), Related: nonNil(e.Refs), Tags: nonNil(e.Tags)}
	for _, f := range e.Fields {
		if isCarried(f.Key) {
			continue
		}
		r.Fields = append(r.Fields, Field{f.Key, fieldValue(e, f)})
	}
	return r
}

// lineOf is the line export writes for e as import reads it
// (decodeLine of ToRecord's JSON), built from the event: export checks
// every line it writes as import would plan it, and decoding the JSON
// it just encoded was half that check's time. Strings are as the JSON
// gives them back (asJSON); lists are copies, since a stream reuses
// the event's memory. TestExportRootSame holds the two to the same
// outcome on every fixture memory.
func lineOf(e *parse.Event) lineIn {
	in := lineIn{
		oldID: asJSON(e.ID), typ: asJSON(e.Type), ts: asJSON(e.Time.ISO()),
		draft: memory.Draft{Agent: asJSON(e.Agent), Scope: asJSON(e.Scope), Summary: asJSON(e.Summary),
			Details: jsonDetails(e.Details), Tags: jsonStrings(e.Tags)},
		related:   jsonStrings(e.Refs),
		haveScope: true, haveDetails: true,
	}
	for _, f := range e.Fields {
		if isCarried(f.Key) {
			continue
		}
		k, v := asJSON(f.Key), asJSON(fieldValue(e, f))
		if parse.SameKey(k, "supersedes") {
			in.fieldSupersedes = append(in.fieldSupersedes, memory.SplitList([]string{v})...)
			continue
		}
		in.extra = append(in.extra, memory.DraftDetail{Key: k, Value: v})
	}
	return in
}

// asJSON is s as a JSON string decodes back after appendString wrote
// it: each byte of invalid UTF-8 becomes U+FFFD, as encoding/json
// writes it; any other string comes back as it was.
func asJSON(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r) // utf8.RuneError for an invalid byte
		i += n
	}
	return b.String()
}

func jsonStrings(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = asJSON(x)
	}
	return out
}

func jsonDetails(ds []parse.Detail) memory.DraftDetails {
	out := make(memory.DraftDetails, 0, len(ds))
	for _, d := range ds {
		dd := memory.DraftDetail{Key: asJSON(d.Key), Value: asJSON(d.Value)}
		if len(d.Children) > 0 {
			dd.Children = jsonDetails(d.Children)
		}
		out = append(out, dd)
	}
	return out
}

// fieldValue is the value export writes for the field f of e: as
// written, but a Supersedes field written as a bullet list (read like
// Refs, its line holds no value) gives the IDs the list names, so the
// line that import reads back still supersedes them.
func fieldValue(e *parse.Event, f parse.Field) string {
	if len(e.Supersedes) > 0 && strings.TrimSpace(f.Value) == "" && parse.SameKey(f.Key, "supersedes") {
		return strings.Join(e.Supersedes, ", ")
	}
	return f.Value
}

// carried are the fields a Record has a member of its own for.
var carried = []string{"scope", "summary", "details", "refs", "tags"}

// isCarried reports whether key names one of carried (parse.SameKey).
// An ASCII key is folded once on the stack and compared whole: five
// SameKey calls a field, each trimming and scanning the key again, were
// over a quarter of export's record writing at 1k events. SameKey, not
// NormKey, decides the rest: lowering each key allocated twice per
// field of every event.
func isCarried(key string) bool {
	k := strings.TrimSpace(key)
	var buf [len("summary")]byte
	if len(k) > len(buf) {
		return !isASCII(k) && slices.ContainsFunc(carried, func(c string) bool { return parse.SameKey(k, c) })
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '-' || c == '\t':
			c = '_'
		case c >= utf8.RuneSelf:
			return slices.ContainsFunc(carried, func(c string) bool { return parse.SameKey(k, c) })
		}
		buf[i] = c
	}
	switch string(buf[:len(k)]) {
	case "scope", "summary", "details", "refs", "tags":
		return true
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func details(ds []parse.Detail) []memory.DraftDetail {
	out := make([]memory.DraftDetail, 0, len(ds))
	for _, d := range ds {
		dd := memory.DraftDetail{Key: d.Key, Value: d.Value}
		if len(d.Children) > 0 {
			dd.Children = details(d.Children)
		}
		out = append(out, dd)
	}
	return out
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Export returns events as JSONL (see Write).
func Export(events []parse.Event) ([]byte, error) {
	var b bytes.Buffer
	if err := Write(&b, events); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes events to w as JSONL, one object a line, '<', '>' and
// '&' as written (the file is read by programs and agents, not
// embedded in HTML).
func Write(w io.Writer, events []parse.Event) error { return writeIf(w, events, nil) }

// writeIf is Write of the events keep accepts (all when keep is nil).
// Each line is what encoding/json writes for the event's Record (with
// SetEscapeHTML(false)), appended by hand from the event: the encoder's
// reflection and the Record's slices were ~1.3 ms of an export of 1k
// events, as long as the parse (BenchmarkExport1k). FuzzRecordJSON and
// TestRecordJSON hold the two to the same bytes. Lines go out in
// batches of about writeBatch bytes, so the output is never held whole.
func writeIf(w io.Writer, events []parse.Event, keep func(*parse.Event) bool) error {
	buf := make([]byte, 0, writeBatch+4096)
	for i := range events {
		if keep != nil && !keep(&events[i]) {
			continue
		}
		buf = appendRecord(buf, &events[i])
		if len(buf) >= writeBatch {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("export %s: %w", events[i].ID, err)
			}
			buf = buf[:0]
		}
	}
	if len(buf) > 0 {
		if _, err := w.Write(buf); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	return nil
}

// writeBatch is how many bytes of lines writeIf gathers before a write.
const writeBatch = 32 << 10

// appendRecord appends the JSON line of ToRecord(e), newline included,
// as encoding/json writes it.
func appendRecord(dst []byte, e *parse.Event) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, e.ID)
	dst = append(dst, `,"ts":`...)
	dst = appendString(dst, e.Time.ISO())
	dst = append(dst, `,"type":`...)
	dst = appendString(dst, e.Type)
	dst = append(dst, `,"agent":`...)
	dst = appendString(dst, e.Agent)
	dst = append(dst, `,"scope":`...)
	dst = appendString(dst, e.Scope)
	dst = append(dst, `,"content":`...)
	dst = appendString(dst, e.Summary)
	dst = append(dst, `,"details":`...)
	dst = appendDetails(dst, e.Details)
	dst = append(dst, `,"related":`...)
	dst = appendStrings(dst, e.Refs)
	dst = append(dst, `,"tags":`...)
	dst = appendStrings(dst, e.Tags)
	first := true
	for _, f := range e.Fields {
		if isCarried(f.Key) {
			continue
		}
		if first {
			dst = append(dst, `,"fields":[`...)
			first = false
		} else {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"key":`...)
		dst = appendString(dst, f.Key)
		dst = append(dst, `,"value":`...)
		dst = appendString(dst, fieldValue(e, f))
		dst = append(dst, '}')
	}
	if !first {
		dst = append(dst, ']')
	}
	return append(dst, "}\n"...)
}

// appendDetails appends ds as the list of DraftDetail objects details
// makes of them: [] when empty, children only when there are some.
func appendDetails(dst []byte, ds []parse.Detail) []byte {
	dst = append(dst, '[')
	for i := range ds {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"key":`...)
		dst = appendString(dst, ds[i].Key)
		dst = append(dst, `,"value":`...)
		dst = appendString(dst, ds[i].Value)
		if len(ds[i].Children) > 0 {
			dst = append(dst, `,"children":`...)
			dst = appendDetails(dst, ds[i].Children)
		}
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// appendStrings appends xs as a JSON list, [] when nil (nonNil).
func appendStrings(dst []byte, xs []string) []byte {
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, x)
	}
	return append(dst, ']')
}

// appendString appends s quoted as encoding/json quotes a string with
// SetEscapeHTML(false): '"' and '\\' escaped, the controls below 0x20
// as \b \f \n \r \t or \u00XX, invalid UTF-8 as \ufffd, U+2028 and
// U+2029 as \u2028 and \u2029, everything else (DEL included) as is.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"
