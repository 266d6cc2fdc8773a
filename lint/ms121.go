package lint

import (
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/parse"
)

func init() {
	register(&Rule{
		ID:    "MS121",
		Name:  "encoding",
		Title: "the log is valid UTF-8 text",
		Doc: "Invalid UTF-8, NUL bytes or a byte-order mark in the middle of the file mean " +
			"the log was damaged or written by a tool with the wrong encoding; names and " +
			"summaries then compare wrongly. A file saved as UTF-16 is not read at all " +
			"(one finding at line 1). Re-save the file as UTF-8.",
		Bad:      "**Summary**: caf\\xe9 opened (Latin-1 byte)",
		Good:     "**Summary**: café opened",
		Severity: diag.Error,
		Problems: []parse.Kind{parse.KindEncoding},
	})
}
