package lint

import (
	"strings"
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
