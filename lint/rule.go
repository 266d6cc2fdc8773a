package lint

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

// Rule is one check. The ID is stable: never renumbered, never reused;
// it is the rule's file name, its SARIF ruleId and the key users write in
// .memsys.json. Title, Doc, Bad and Good feed --list-rules, docs/lint.md
// and the SARIF rules table from this one source.
type Rule struct {
	ID       string        // MS101; family by hundreds
	Name     string        // kebab-case, also accepted in configuration
	Title    string        // no capital, no period, at most 60 characters
	Doc      string        // one paragraph: what, why, what to do
	Bad      string        // a short example that breaks the rule
	Good     string        // the same example, fixed
	Severity diag.Severity // default severity
	// DefaultOff rules run only when the configuration turns them on.
	DefaultOff bool
	// Content rules judge the text of one event. Their findings on an
	// event that a later event supersedes become notes: the correction
	// is the superseding event, and the log is never edited.
	Content bool
	// Fix says lint --fix repairs the rule's findings by rewriting the
	// file each one names with what regen writes.
	Fix bool
	// Git says the rule reads git through the Pass (Pass.Git): it finds
	// nothing unless lint compares revisions (--base, --staged, audit).
	Git bool
	// Counts says the rule's message quotes a count that grows with the
	// log (MS117's events, MS128's days open), not what the finding is:
	// its Fingerprint leaves every number out, so a finding the team
	// recorded in the baseline stays accepted as the log grows rather
	// than turning new (and its entry stale) at every append.
	Counts bool
	// Problems are the kinds of parse problem the rule reports, one
	// finding each, as the parser words it: register sets Run to
	// report them, and ProblemRule names the rule for a command that
	// prints parse problems itself (regen's warnings).
	Problems []parse.Kind
	// Run reports the rule's findings from the memory as a whole, after
	// the last event.
	Run func(*Pass)
	// Visit makes the rule look at the history one event at a time. It
	// is called once per memory and returns the functions that see each
	// event in order (archive first) and then the end of the history;
	// state lives in the Visitor's State, so the events need not be kept.
	Visit func(*Pass) Visitor
}

// A Visitor receives a memory's history one event at a time.
type Visitor struct {
	Event func(e *parse.Event) // each event, in history order; e is not retained
	End   func()               // after the last event; may be nil
	// State points to a struct holding everything Event and End keep
	// from one event to the next (stateless for a rule that keeps
	// nothing). The functions read and write it through the pointer, so
	// Session.Checkpoint can save it and Linter.Resume restore it into a
	// fresh Visitor: the lint cache resumes after an append without
	// seeing the history again. A Visitor without State cannot be
	// checkpointed (TestVisitorsDeclareState).
	State any
}

// stateless is the State of a Visitor that keeps nothing across events.
var stateless = &struct{}{}

var registry = map[string]*Rule{}

// problemRules maps a kind of parse problem to the ID of the rule that
// reports it (Rule.Problems).
var problemRules = map[parse.Kind]string{}

// register adds r to the registry; called from each rule file's init.
// A malformed rule panics at start-up, so TestRegistry catches it.
func register(r *Rule) {
	if err := r.check(); err != nil {
		panic(err)
	}
	if _, dup := registry[r.ID]; dup {
		panic("lint: rule " + r.ID + " registered twice")
	}
	for _, k := range r.Problems {
		if other, dup := problemRules[k]; dup {
			panic("lint: rules " + other + " and " + r.ID + " both report parse problems of kind " + string(k))
		}
		problemRules[k] = r.ID
	}
	if len(r.Problems) > 0 {
		if r.Run != nil {
			panic("lint: rule " + r.ID + " reports parse problems: its Run is problemRule's, not its own")
		}
		r.Run = problemRule(r.Problems...)
	}
	registry[r.ID] = r
}

// ProblemRule is the ID of the rule that reports parse problems of
// kind k, "" for a kind no rule reports.
func ProblemRule(k parse.Kind) string { return problemRules[k] }

// isRuleID reports whether id reads MSnnn with a first digit from 1.
// The checks at registration are plain byte tests, not regular
// expressions: they run at package init, which every command pays.
func isRuleID(id string) bool {
	if len(id) != 5 || id[:2] != "MS" || id[2] < '1' || id[2] > '9' {
		return false
	}
	return isDigit(id[3]) && isDigit(id[4])
}

// isKebab reports whether name is lower-case kebab-case: a letter
// first, then letters and digits in dash-separated words.
func isKebab(name string) bool {
	if name == "" || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', isDigit(c):
		case c == '-' && name[i-1] != '-' && i < len(name)-1:
		default:
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (r *Rule) check() error {
	switch {
	case !isRuleID(r.ID):
		return fmt.Errorf("lint: rule ID %q is not MSnnn", r.ID)
	case !isKebab(r.Name):
		return fmt.Errorf("lint: rule %s name %q is not kebab-case", r.ID, r.Name)
	case r.Title == "" || len(r.Title) > 60 || strings.HasSuffix(r.Title, ".") ||
		strings.ToLower(r.Title[:1]) != r.Title[:1]:
		return fmt.Errorf("lint: rule %s title %q: no capital, no period, at most 60 characters", r.ID, r.Title)
	case r.Doc == "" || r.Bad == "" || r.Good == "":
		return fmt.Errorf("lint: rule %s needs Doc, Bad and Good", r.ID)
	case r.Severity != diag.Error && r.Severity != diag.Warning:
		return fmt.Errorf("lint: rule %s default severity must be error or warning", r.ID)
	case len(r.Problems) > 0 && r.Visit != nil:
		return fmt.Errorf("lint: rule %s reports parse problems: it has no Visit", r.ID)
	case r.Run != nil && r.Visit != nil:
		return fmt.Errorf("lint: rule %s has both Run and Visit: use Visitor.End for the end of the history", r.ID)
	}
	return nil
}

// Rules returns every registered rule, ordered by ID.
func Rules() []*Rule {
	rs := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		rs = append(rs, r)
	}
	slices.SortFunc(rs, func(a, b *Rule) int { return cmp.Compare(a.ID, b.ID) })
	return rs
}

// Lookup finds a rule by ID (any case) or name.
func Lookup(key string) *Rule {
	if r := registry[strings.ToUpper(key)]; r != nil {
		return r
	}
	for _, r := range registry {
		if r.Name == key {
			return r
		}
	}
	return nil
}

// DefaultLevel is the severity a rule has without configuration: Off for
// a DefaultOff rule.
func (r *Rule) DefaultLevel() diag.Severity {
	if r.DefaultOff {
		return diag.Off
	}
	return r.Severity
}
