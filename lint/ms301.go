package lint

import "github.com/memsys/memsys/internal/base/diag"

func init() {
	register(&Rule{
		ID:       "MS301",
		Name:     "event-edited",
		Title:    "committed events are never edited",
		Doc:      "The log is append-only: once an event is committed its text is immutable. With `--base REV` (or `--staged`), memsys compares every event present at REV with the same event now, byte for byte apart from line endings and the blank lines or `---` that follow it, and reports any change with a unified diff, at the lines that changed (the first to the last), so that a pull request shows the annotation on its diff. To correct a committed event, restore it and append a new event that says what changed.",
		Bad:      "### evt-012 | ... | decision\n**Summary**: use MySQL   (was: use PostgreSQL)",
		Good:     "### evt-012 | ... | decision\n**Summary**: use PostgreSQL\n...\n### evt-031 | ... | decision\n**Summary**: switch to MySQL\n**Refs**: evt-012",
		Severity: diag.Error,
		Git:      true,
		Run:      historyRule,
	})
}
