package parse

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unsafe"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/front"
)

// Log is one parsed file.
type Log struct {
	File string // path as given to Parse, used in every Range
	// HasEventLog reports whether a "## Event Log" (or "## Events")
	// section exists. Archive files count every event section.
	HasEventLog bool
	// EventLogLine is the 1-based line of that section heading, 0 if none.
	EventLogLine int
	// AfterLogLine is the 1-based line of a level 1 or 2 heading that
	// follows the last event of the log (a section kept after it, where
	// an appended event would land), 0 if none; AfterLogHeading is it.
	// Text or a "### heading" that is no event may come between: append
	// writes at the end of the file all the same.
	AfterLogLine    int
	AfterLogHeading string
	Events          []Event
	Problems        []Problem
	// Lines is the number of lines in the file.
	Lines int
}

// Event is one event of the log, as written.
type Event struct {
	ID    string // as written, e.g. "evt-012"
	Num   int    // the number in the ID; 0 when the ID is malformed
	Time  Time
	Agent string
	Type  string // lower-cased

	Scope   string   // as written, trimmed
	Scopes  []string // Scope split on commas, trimmed, empties dropped
	Summary string
	Details []Detail
	Refs    []string // event IDs referenced; "none" gives no refs
	Tags    []string
	// Supersedes lists the earlier events this event corrects or
	// replaces (the "**Supersedes**" field, read like Refs): they stay
	// in the log but leave every derived view (docs/materialize.md).
	Supersedes []string
	// Fields holds every "**Key**: value" line in order, including
	// Scope, Summary, Details, Refs, Tags and Supersedes, so unknown
	// keys survive.
	Fields []Field

	Level int  // heading level; 3 in a well-formed log
	InLog bool // inside the Event Log section (always true in an archive)

	// Range spans the heading line to the last line of the body,
	// excluding trailing blank lines and a "---" separator. Offsets are
	// in the original file bytes (BOM and CR included), so an archive
	// move can copy them byte for byte.
	Range diag.Range
	// Text is the event's source with line endings normalised to LF:
	// the unit that append-only checks compare (through EndedText).
	Text string
}

// EndedText returns text, an Event's Text, with its last line ended.
// The last event of a file that does not end its last line (an editor
// that drops the final newline) has no final line feed; an append or an
// archive move ends that line before it writes after it, which changes
// none of the event's text. The append-only checks and the merge
// compare events through it, so that such an end is no edit of a
// committed event. An event that is no longer last keeps the bytes
// after it (a "---" line, the next heading) outside its Text.
func EndedText(text string) string {
	if text == "" || text[len(text)-1] == '\n' {
		return text
	}
	return text + "\n"
}

// Time is an event timestamp at minute precision, with no zone: the
// log records wall-clock minutes as written and memsys never converts
// them, so replay is independent of the machine's TZ.
//
// The fields are as narrow as their ranges allow (a year has four
// digits): a Time is in every event and in much of the replay's state,
// and at 100k events the width of int made it 64 bytes instead of 24.
type Time struct {
	Year         int16
	Month, Day   int8
	Hour, Minute int8
	DateOnly     bool // written as YYYY-MM-DD without a clock time
	Raw          string
}

// IsZero reports whether the timestamp was missing or unreadable.
func (t Time) IsZero() bool { return t.Year == 0 }

// Key returns a sortable integer (YYYYMMDDhhmm); date-only stamps sort
// at 00:00 of their day.
func (t Time) Key() int64 {
	return int64(t.Year)*100000000 + int64(t.Month)*1000000 + int64(t.Day)*10000 + int64(t.Hour)*100 + int64(t.Minute)
}

// Minutes returns minutes since 0000-01-01 in a proleptic calendar, so
// windows such as "the last 48 hours" are plain subtraction.
func (t Time) Minutes() int64 {
	return daysFromCivil(int(t.Year), int(t.Month), int(t.Day))*1440 + int64(t.Hour)*60 + int64(t.Minute)
}

// String formats as "YYYY-MM-DD HH:MM", or "YYYY-MM-DD" when date-only.
func (t Time) String() string {
	if t.IsZero() {
		return t.Raw
	}
	if !t.fits() {
		// Only a Time built by hand gets here; fmt words it as before.
		if t.DateOnly {
			return fmt.Sprintf("%04d-%02d-%02d", t.Year, t.Month, t.Day)
		}
		return fmt.Sprintf("%04d-%02d-%02d %02d:%02d", t.Year, t.Month, t.Day, t.Hour, t.Minute)
	}
	return t.format(' ')
}

// ISO formats as "YYYY-MM-DDTHH:MM" (ISO 8601 without a zone, as the
// ledger writes it), or "YYYY-MM-DD" when date-only, or the raw text of
// a missing or unreadable stamp.
func (t Time) ISO() string {
	if t.IsZero() || t.DateOnly {
		return t.String()
	}
	if !t.fits() {
		s := t.String()
		return s[:10] + "T" + s[11:]
	}
	return t.format('T')
}

// fits reports whether every field fits the digits String gives it
// (four for the year, two for the rest), as every parsed Time does.
func (t Time) fits() bool {
	in := func(v int8) bool { return v >= 0 && v <= 99 }
	return t.Year >= 0 && t.Year <= 9999 && in(t.Month) && in(t.Day) && in(t.Hour) && in(t.Minute)
}

// format is String's "YYYY-MM-DD HH:MM" with sep between date and time,
// for a Time whose fields fit their digits. Every event's time is
// written in export, status, log and the derived files: digits by hand
// cost a tenth of fmt's.
func (t Time) format(sep byte) string {
	b := make([]byte, 0, 16)
	b = appendPadded(b, int(t.Year), 4)
	b = append(b, '-')
	b = appendPadded(b, int(t.Month), 2)
	b = append(b, '-')
	b = appendPadded(b, int(t.Day), 2)
	if !t.DateOnly {
		b = append(b, sep)
		b = appendPadded(b, int(t.Hour), 2)
		b = append(b, ':')
		b = appendPadded(b, int(t.Minute), 2)
	}
	return string(b)
}

// appendPadded appends v (not negative) in decimal with leading zeros to
// at least width digits, as fmt's %0*d does.
func appendPadded(b []byte, v, width int) []byte {
	n := 1
	for x := v; x >= 10; x /= 10 {
		n++
	}
	for ; n < width; n++ {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, int64(v), 10)
}

// daysFromCivil is Howard Hinnant's days_from_civil: exact for every
// Gregorian date, no time package and so no zone involved.
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// Detail is one bullet of the Details list: "key: value", with nested
// bullets kept as children. A bullet without "key:" has an empty Key.
type Detail struct {
	Key      string // as written, without ** or backticks
	Value    string
	Children []Detail
	Line     int
	// norm is NormKey(Key), set by the parser, so lookups compare
	// strings instead of folding the key every time; "" in a Detail
	// built by hand, which then folds as before.
	norm string
}

// Norm returns the key lower-cased with spaces and dashes turned into
// underscores: "Root Cause", "root-cause" and "root_cause" are one key.
func (d Detail) Norm() string {
	if d.norm != "" {
		return d.norm
	}
	return NormKey(d.Key)
}

// Field is one "**Key**: value" line of an event.
type Field struct {
	Key   string // as written
	Value string // trimmed; continuation lines joined with a space
	Line  int
}

// NormKey normalises a field or detail key for case-insensitive
// matching.
func NormKey(k string) string {
	k = strings.TrimSpace(k)
	if isNorm(k) {
		return k // the common case allocates nothing
	}
	k = strings.ToLower(k)
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\t' {
			return '_'
		}
		return r
	}, k)
}

func isNorm(k string) bool {
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'A' && c <= 'Z' || c == ' ' || c == '-' || c == '\t' || c >= 0x80 {
			return false
		}
	}
	return true
}

// isNormTrimmed reports whether NormKey(k) is k: k is normalised and
// has no white space around it to trim (every byte TrimSpace trims is
// at most ' ' or not ASCII, which isNorm rejects).
func isNormTrimmed(k string) bool {
	return isNorm(k) && (k == "" || k[0] > ' ' && k[len(k)-1] > ' ')
}

// SameKey reports whether a and b are the same key once normalised
// (NormKey), without allocating: replay and lint look keys up millions
// of times on a large log.
func SameKey(a, b string) bool {
	a, b = strings.TrimSpace(a), strings.TrimSpace(b)
	if len(a) != len(b) {
		// Folding ASCII keeps the length; only non-ASCII can differ.
		return (!isASCII(a) || !isASCII(b)) && NormKey(a) == NormKey(b)
	}
	for i := 0; i < len(a); i++ {
		x, y := foldKey(a[i]), foldKey(b[i])
		if x >= 0x80 || y >= 0x80 {
			return NormKey(a) == NormKey(b)
		}
		if x != y {
			return false
		}
	}
	return true
}

func foldKey(c byte) byte {
	switch {
	case c >= 'A' && c <= 'Z':
		return c + 'a' - 'A'
	case c == ' ' || c == '-' || c == '\t':
		return '_'
	}
	return c
}

// KeyIs reports whether key normalises to norm (already normalised),
// without allocating.
func KeyIs(key, norm string) bool {
	key = strings.TrimSpace(key)
	if len(key) != len(norm) {
		return !isASCII(key) && NormKey(key) == norm
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '-' || c == '\t':
			c = '_'
		case c >= 0x80:
			return NormKey(key) == norm
		}
		if c != norm[i] {
			return false
		}
	}
	return true
}

// Detail returns the value of the first top-level detail whose key
// matches key case-insensitively, and whether it was found.
func (e *Event) Detail(key string) (string, bool) {
	// Callers pass normalised keys, which NormKey would return as they
	// are: checked here without the trim's calls, a tenth of a cold
	// lint's key lookups.
	nk := key
	if !isNormTrimmed(key) {
		nk = NormKey(key)
	}
	for i := range e.Details {
		d := &e.Details[i]
		if d.norm != "" {
			if d.norm == nk {
				return d.Value, true
			}
		} else if SameKey(d.Key, key) {
			return d.Value, true
		}
	}
	return "", false
}

// Field returns the value of the first "**Key**:" field matching key.
func (e *Event) Field(key string) (string, bool) {
	for _, f := range e.Fields {
		if SameKey(f.Key, key) {
			return f.Value, true
		}
	}
	return "", false
}

// Kind names a class of parse problem. lint maps each kind to a rule ID;
// the parser stays ignorant of rule numbering.
type Kind string

// Problem kinds.
const (
	KindHeader       Kind = "header"        // heading not "evt-NNN | time | agent | type"
	KindID           Kind = "id"            // evt- with letters, too many digits
	KindTimestamp    Kind = "timestamp"     // unreadable or impossible date/time
	KindDateOnly     Kind = "date-only"     // YYYY-MM-DD without HH:MM
	KindLevel        Kind = "heading-level" // evt heading not at level 3
	KindOutside      Kind = "outside-log"   // evt heading outside the Event Log section
	KindFreeText     Kind = "free-text"     // body text that is not a field or details
	KindDuplicateKey Kind = "duplicate-field"
	KindLineLength   Kind = "line-length" // a line over MaxLineLength
	KindEncoding     Kind = "encoding"    // invalid UTF-8, NUL bytes, BOM inside
	KindUnclosed     Kind = "unclosed"    // a code fence or HTML block never closed hides event headings
	KindCut          Kind = "heading-cut" // a "## heading" inside an event ends the Event Log section early
	KindConflict     Kind = "conflict"    // a git conflict marker ("<<<<<<<") left by a merge
)

// Problem is one thing wrong with the input. Parse keeps going after
// every problem.
type Problem struct {
	Kind    Kind
	Range   diag.Range
	Event   string // the event ID as written, if known
	Message string
}

// String formats the problem as "file:line:col: message".
func (p Problem) String() string { return p.Range.String() + ": " + p.Message }

// conflictMessage is a conflict marker's problem (KindConflict). Its
// advice names a command only the command line has, which memsys_lint's
// finding and memsys_regen's warning mark as the CLI's (MessageFor).
var conflictMessage = front.Sprintf("unresolved merge conflict (git's \"<<<<<<<\" marker): finish the merge: %s resolves the log, or keep one side by hand and delete the markers", front.Renumber.With("--onto REV").Word())

// MessageFor is p's message as front f words it: Message, but for a
// problem whose advice names a command, which the MCP server spells as
// a tool or marks as the CLI's (a Problem carries one wording, the
// command line's, so the cached parse state is the same for both).
func (p Problem) MessageFor(f front.Front) string {
	if p.Kind == KindConflict && p.Message == conflictMessage.String() {
		return conflictMessage.For(f)
	}
	return p.Message
}

// Unread reports whether p is an event heading the parser did not take
// as an event: an ID it cannot read (KindID: "### evt-001: Title"), a
// heading outside the Event Log section (KindOutside), or one written
// as an event's with pipes but without evt-NNN (the KindHeader problem
// that names no event; the other KindHeader problems are on events it
// kept). A headers-only parse finds them all, so memsys status counts
// them without reading the bodies: a log of such headings is not an
// empty memory.
func (p Problem) Unread() bool {
	switch p.Kind {
	case KindID, KindOutside:
		return true
	case KindHeader:
		return p.Event == ""
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// IndexControl returns the index of the first control character in s
// that the log does not hold, or -1: an ASCII control other than tab and
// the line breaks (NUL included), or DEL. An escape sequence kept in the
// log acts on the terminal of whoever prints it (memsys log, cat), so
// append and import refuse one in what they write, lint reports one in
// an event (MS136; a NUL byte is MS121's), and export refuses an event
// holding one rather than write a ledger import would refuse.
func IndexControl(s string) int {
	// Eight bytes at a time, the word whose bytes are all at least 0x20
	// and none DEL is skipped whole: export and lint (MS136) run this
	// over the text of every event, and byte by byte it was 4% of an
	// export at 1k events. In a word that may hold one (every line break
	// flags its word) only the flagged bytes are read, and isControl
	// alone decides.
	b := unsafe.Slice(unsafe.StringData(s), len(s)) // read only
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		// Each byte below 0x20 or DEL has its flag set (a few others may
		// too): check the flagged bytes, in order.
		for m := swarBelow20(x) | swarZero(x^del8); m != 0; m &= m - 1 {
			if j := i + bits.TrailingZeros64(m)>>3; isControl(b[j]) {
				return j
			}
		}
	}
	for ; i < len(s); i++ {
		if isControl(s[i]) {
			return i
		}
	}
	return -1
}

// isControl reports whether b is a control character the log does not
// hold (see IndexControl).
func isControl(b byte) bool {
	return b < 0x20 && b != '\t' && b != '\n' && b != '\r' || b == 0x7f
}

const (
	ones8 = 0x0101010101010101
	high8 = 0x8080808080808080
	del8  = 0x7f * ones8
)

// swarBelow20 sets the high bit of every byte of x below 0x20, and
// swarZero of every zero byte: the classic tests (Bit Twiddling Hacks,
// "determine if a word has a byte less than n"). They never miss such a
// byte; a borrow may also flag a byte above one, which isControl then
// rejects.
func swarBelow20(x uint64) uint64 { return (x - 0x20*ones8) &^ x & high8 }

func swarZero(x uint64) uint64 { return (x - ones8) &^ x & high8 }
