package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS119",
		Name:  "duplicate-field",
		Title: "no field appears twice in one event",
		Doc: "An event with two `**Summary**` (or any repeated field) lines is ambiguous: " +
			"memsys reads the first and the second is lost. Merge them into one line.",
		Bad:      "**Summary**: add login\n**Summary**: add logout",
		Good:     "**Summary**: add login and logout",
		Content:  true,
		Severity: diag.Warning,
		Problems: []parse.Kind{parse.KindDuplicateKey},
	})
}
