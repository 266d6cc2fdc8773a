package lint

import (
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/diag"
)

// RulesMarkdown documents every registered rule: a table of ID, name,
// default severity and title, then a section per rule with its doc and
// examples. docs/lint.md embeds it; a test keeps the two equal.
func RulesMarkdown() string {
	var b strings.Builder
	b.WriteString("| ID | Name | Severity | Title |\n|---|---|---|---|\n")
	for _, r := range Rules() {
		sev := r.Severity.String()
		if r.DefaultOff {
			sev += " (off by default)"
		}
		b.WriteString("| [" + r.ID + "](#" + strings.ToLower(r.ID) + ") | `" + r.Name + "` | " + sev + " | " +
			strings.ReplaceAll(r.Title, "|", "\\|") + " |\n")
	}
	for _, r := range Rules() {
		b.WriteString("\n### " + r.ID + "\n\n`" + r.Name + "` (" + r.Severity.String() + "): " + r.Title + ".\n\n" + r.Doc + "\n")
		if r.Git {
			b.WriteString("\nReported by the git checks (`--base`, `--head`, `--staged`).\n")
		}
		b.WriteString("\nBad:\n\n```markdown\n" + r.Bad + "\n```\n\nGood:\n\n```markdown\n" + r.Good + "\n```\n")
	}
	return b.String()
}

// Explain is the help of one rule as `memsys lint --explain ID` prints
// it, offline: the same Title, Doc and examples as docs/lint.md and the
// SARIF help.
func Explain(r *Rule) string {
	var b strings.Builder
	sev := r.Severity.String()
	if r.DefaultOff {
		sev += ", off by default"
	}
	fmt.Fprintf(&b, "%s %s: %s (%s)\n\n", r.ID, r.Name, r.Title, sev)
	b.WriteString(wrap(r.Doc, 76))
	b.WriteString("\nBad:\n")
	b.WriteString(indented(r.Bad))
	b.WriteString("\nGood:\n")
	b.WriteString(indented(r.Good))
	return b.String()
}

// RuleHelp is a rule's documentation as JSON: `memsys lint --list-rules
// --format json` prints one per rule without the examples, `memsys lint
// --explain ID --format json` one with them.
type RuleHelp struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Enabled  bool   `json:"enabled"` // false for a rule that is off by default
	Title    string `json:"title"`
	Doc      string `json:"doc"`
	Bad      string `json:"bad,omitempty"`
	Good     string `json:"good,omitempty"`
}

// SetByFlag is RuleState.SetBy for a severity lint's --rule set.
const SetByFlag = "--rule"

// RuleState is a rule as a Linter runs it, as lint --list-rules prints
// it: its help (whose Severity and Enabled are the rule's defaults,
// as --explain prints them), the severity it runs at here, and what
// set that severity. The list used to show the defaults only, so a
// rule .memsys.json turned off was listed as an error.
type RuleState struct {
	RuleHelp
	// Effective is "error", "warning" or "off": the rule's severity
	// after .memsys.json and --rule.
	Effective string `json:"effective"`
	// SetBy is config.FileName or SetByFlag when one of them set the
	// rule (even to its default), "" when it runs at its default.
	SetBy string `json:"set_by,omitempty"`
}

// States returns every registered rule, sorted by ID (Rules), as l
// runs it.
func (l *Linter) States() []RuleState {
	rules := Rules()
	out := make([]RuleState, 0, len(rules))
	for _, r := range rules {
		out = append(out, RuleState{RuleHelp: Help(r, false), Effective: l.sev[r.ID].String(), SetBy: l.by[r.ID]})
	}
	return out
}

// SeverityText is the SEVERITY column of lint --list-rules: the
// default as before for a rule nothing set ("warning (off)" for one off
// by default); else the effective severity and what set it, with the
// default when it differs ("off (.memsys.json; default error)").
func (s RuleState) SeverityText() string {
	def := s.Severity
	if !s.Enabled {
		def = diag.Off.String()
	}
	switch {
	case s.SetBy == "" && !s.Enabled:
		return s.Severity + " (off)"
	case s.SetBy == "":
		return s.Severity
	case s.Effective == def:
		return s.Effective + " (" + s.SetBy + ")"
	}
	return s.Effective + " (" + s.SetBy + "; default " + def + ")"
}

// Help is r's documentation as JSON carries it, with the Bad and Good
// examples when examples is set.
func Help(r *Rule, examples bool) RuleHelp {
	h := RuleHelp{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Enabled: !r.DefaultOff, Title: r.Title, Doc: r.Doc}
	if examples {
		h.Bad, h.Good = r.Bad, r.Good
	}
	return h
}

func indented(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// wrap breaks text into lines of at most width bytes at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}
