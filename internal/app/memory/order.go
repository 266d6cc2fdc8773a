package memory

import (
	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/parse"
)

// orderErr is nil when the IDs of file's log rise in file order
// (parse.Order: archive takes the events at the top as the oldest),
// else the one line archive refuses with and status repeats (file:line,
// what is wrong, what to do). A log kept newest first is named as such,
// with its first and last events; otherwise the first event out of
// place and the higher one before it, as MS109 reports it. Status,
// which must agree without replaying the log, follows the Order as the
// headings stream past, and the history cache's checkpoint carries it
// over the prefix a status does not read again
// (replayCheckpoint.LogOrder).
func orderErr(o parse.Order, file string) error {
	if o.Ascending() {
		return nil
	}
	if o.Descending {
		return front.Errorf("%s:%d: the log is newest first (%s at line %d comes before %s at line %d), and archive takes the events at its top as the oldest: put the events in ascending ID order, oldest first (lint: MS109), then run %s again",
			file, o.First.Line, o.First.ID, o.First.Line, o.Last.ID, o.Last.Line, front.Archive.Word())
	}
	return front.Errorf("%s:%d: %s comes after %s (line %d), and archive takes the events at the top of the log as the oldest: move %s back to its place in ascending ID order (lint: MS109), then run %s again",
		file, o.Break.Line, o.Break.ID, o.BreakAfter.ID, o.BreakAfter.Line, o.Break.ID, front.Archive.Word())
}
