package memory

import (
	"fmt"

	"github.com/memsys/memsys/parse"
)

// AppendEvents returns src with events added at the end of the Event
// Log in order, each separated exactly as AppendEvent would separate it
// if the events were appended one at a time (import appends thousands
// at once, and re-parsing the growing log after each would be
// quadratic). AppendEvent places the first; its choice fixes the rest:
// after it the log's last two events are either joined by a "---" rule
// (which AppendEvent then repeats) or by a blank line only (likewise),
// and a log that had no event gets the rule from its second event on.
func AppendEvents(file string, src []byte, log *parse.Log, events [][]byte) ([]byte, error) {
	if len(events) == 0 {
		return src, nil
	}
	out, err := AppendEvent(file, src, log, events[0])
	if err != nil {
		return nil, err
	}
	prevEnd := -1
	for i := len(log.Events) - 1; i >= 0; i-- {
		if log.Events[i].InLog {
			prevEnd = log.Events[i].Range.EndOffset
			break
		}
	}
	rule := prevEnd < 0 || hasRule(out[prevEnd:len(out)-len(events[0])])
	nl := Newline(src)
	for _, ev := range events[1:] {
		if len(out) > 0 && out[len(out)-1] != '\n' {
			return nil, fmt.Errorf("%s: event does not end with a line break", file)
		}
		out = blank(out, nl)
		if rule {
			out = append(out, "---"...)
			out = append(out, nl...)
			out = blank(out, nl)
		}
		out = append(out, ev...)
	}
	return out, nil
}
