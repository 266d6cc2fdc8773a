package materialize

import (
	"strconv"
	"strings"

	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

// Node names come from the words a writer chose as names (detail
// values such as `entity`, a Scope that lists components), never from
// prose: a Summary such as "Audit documentation accuracy (see the
// CURRENT-REPOSITORY-STATE, README)" split on commas gave nodes named
// after sentence fragments. docs/materialize.md ("Names") states the
// rule NameProblem checks.

// Name limits: a name is at most MaxNameLen bytes and MaxNameWords
// words long.
const (
	MaxNameLen   = 64
	MaxNameWords = 6
)

// NameProblem returns why s cannot be a node name, or "" when it can.
// A name is identifier-like: non-empty, at most MaxNameLen bytes and
// MaxNameWords words, with no sentence punctuation (`,` `;` `!` `?`, a
// `:` or `.` followed by a blank or at the end) and balanced brackets.
// `auth_module`, `Auth Module`, `payments.api`, `jose (v4)` and
// `src/auth.go` are names; "Fix the login flow, then retest." is not.
func NameProblem(s string) string { return nameProblem(cleanName(cleanText(s))) }

// nameProblem is NameProblem for a name already cleaned
// (cleanName(cleanText(s)), which cleaning again leaves as it is).
func nameProblem(s string) string {
	switch {
	case canonEmpty(s):
		return "it is empty"
	case len(s) > MaxNameLen:
		return "it is longer than " + strconv.Itoa(MaxNameLen) + " characters"
	case strings.Count(s, " ")+1 > MaxNameWords:
		// cleanName left single spaces between the words and none
		// around them: this counts strings.Fields(s) without the slice.
		return "it has more than " + strconv.Itoa(MaxNameWords) + " words"
	}
	var stack []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ',', ';', '!', '?':
			return "it has sentence punctuation " + strconv.Quote(string(c))
		case '.', ':':
			if i+1 == len(s) || s[i+1] == ' ' {
				return "it has sentence punctuation " + strconv.Quote(string(c))
			}
		case '(', '[', '{':
			stack = append(stack, c)
		case ')', ']', '}':
			// The opening bracket is one or two bytes below the closing
			// one in ASCII: a map literal here was built per bracket.
			open := byte('(')
			if c != ')' {
				open = c - 2
			}
			if len(stack) == 0 || stack[len(stack)-1] != open {
				return "its brackets are unbalanced"
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return "its brackets are unbalanced"
	}
	return ""
}

// ScopeNames returns the names a Scope gives: its comma-separated
// entries when every one is a name, the whole Scope when it is one
// name, and none when it is prose. A Scope is split only where it is a
// list of names.
func ScopeNames(ev *parse.Event) []string {
	if len(ev.Scopes) == 0 {
		return nil
	}
	out := make([]string, 0, len(ev.Scopes))
	for _, s := range ev.Scopes {
		if NameProblem(s) != "" {
			if NameProblem(ev.Scope) == "" {
				return []string{cleanName(ev.Scope)}
			}
			return nil
		}
		out = append(out, cleanName(s))
	}
	return out
}

// detailName returns the first of keys whose value is a name, and a
// note for each value it skipped because it is not one.
func detailName(ev *parse.Event, keys ...string) (name string, notes []string) {
	for _, k := range keys {
		v, ok := ev.Detail(k)
		if !ok {
			continue
		}
		v = cleanName(cleanText(v))
		if canonEmpty(v) {
			continue
		}
		if why := nameProblem(v); why != "" {
			notes = append(notes, k+" "+strconv.Quote(clip(v))+" is not a name ("+why+"): ignored")
			continue
		}
		return v, notes
	}
	return "", notes
}

func clip(s string) string { return words.ClipTo(s, 48) }

// subjectKeys are, per event type, the detail keys that name the node
// the event is about, in the order replay tries them, and whether the
// Scope may stand in for them. Replay and lint's MS131 read this one
// table.
// A path detail is the last resort where path is set.
var subjectKeys = map[string]struct {
	keys        []string
	scope, path bool
}{
	"create":     {[]string{"entity", "name"}, true, true},
	"modify":     {[]string{"entity", "target", "name"}, true, true},
	"delete":     {[]string{"entity", "target", "name"}, true, true},
	"dependency": {[]string{"dependency", "package", "entity", "name"}, false, false},
	"blocker":    {[]string{"blocked_entity", "blocked", "entity", "target"}, true, false},
	"test":       {[]string{"target", "entity"}, true, false},
	"handoff":    {[]string{"task", "entity"}, true, false},
	"milestone":  {[]string{"name", "milestone"}, false, false},
}

// Unnamed reports, for an event whose type makes or changes a node,
// that it gives no usable name: key is the detail to add, why says what
// was wrong with what it gave. ok is true when the event is named (or
// its type names no node). A milestone may be named by its Summary,
// when the Summary is a name.
func Unnamed(ev *parse.Event) (key, why string, ok bool) {
	sk, typed := subjectKeys[ev.Type]
	if !typed {
		return "", "", true
	}
	name, notes := detailName(ev, sk.keys...)
	if name != "" {
		return "", "", true
	}
	if sk.scope && len(ScopeNames(ev)) > 0 {
		return "", "", true
	}
	if sk.path {
		if p, _ := detailName(ev, "path"); p != "" {
			return "", "", true
		}
	}
	if ev.Type == "milestone" && NameProblem(ev.Summary) == "" {
		return "", "", true
	}
	switch {
	case len(notes) > 0:
		why = notes[0]
	case sk.scope && ev.Scope != "":
		why = "Scope " + strconv.Quote(clip(ev.Scope)) + " is not a list of names"
	default:
		why = "no " + sk.keys[0] + " detail"
	}
	return sk.keys[0], why, false
}

// DetailKeys are, per event type, the detail keys replay reads
// (docs/materialize.md, "Rules by event type"); create, modify and
// handoff also read the relation keys (RelationKeys). Lint's MS132
// reports any other key on a typed event, since replay would ignore it
// without a word.
var DetailKeys = map[string][]string{
	"create":     {"entity", "name", "path", "purpose", "type", "status", "priority", "attributes"},
	"modify":     {"entity", "target", "name", "changes", "change", "status", "path", "priority", "type", "attributes"},
	"delete":     {"entity", "target", "name", "path", "reason"},
	"decision":   {"entity", "attribute", "from", "to", "decision", "choice", "rationale", "reason"},
	"dependency": {"dependency", "package", "entity", "name", "version", "status", "component", "used_by", "dependent"},
	"blocker":    {"blocked_entity", "blocked", "entity", "target", "blocking_entity", "blocking", "blocker", "cause", "owner", "due"},
	"test":       {"target", "entity", "result", "coverage"},
	"fix":        {"symptom", "root_cause", "resolution", "entity", "target"},
	"milestone":  {"name", "milestone", "criteria_met", "criteria", "status"},
	"escalation": {"reason", "requested_action", "owner", "due"},
	"commitment": {"owner", "due"},
	"handoff":    {"task", "entity", "from_agent", "from", "to_agent", "to", "phase", "stage", "priority", "status"},
}

// EveryEventKeys are the detail keys replay reads on an event of any
// type: its priority (context.md's decay and budget) and the loops it
// closes.
var EveryEventKeys = []string{"priority", "closes"}

// Provenance keys are the details memsys import writes on an event to
// say where it came from in a JSONL ledger: its id there, its type
// there, and its timestamp when the event's minute does not hold it
// all. Replay ignores them; lint accepts them on every event type, so
// an imported history does not warn about keys memsys chose itself.
const (
	LedgerIDKey   = "ledger_id"
	LedgerTypeKey = "ledger_type"
	LedgerTSKey   = "ts"
)

// ProvenanceKeys lists them.
var ProvenanceKeys = []string{LedgerIDKey, LedgerTypeKey, LedgerTSKey}

// RelationKeys are the detail keys that draw edges on create, modify
// and handoff events: the seed's relations and their reverse spellings.
func RelationKeys() []string {
	return append(append([]string(nil), EdgeRelations...), "after", "follows", "part_of", "blocked_by")
}
