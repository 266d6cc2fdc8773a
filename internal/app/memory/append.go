package memory

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memsys/memsys/internal/base/front"
	"github.com/memsys/memsys/internal/base/words"
	"github.com/memsys/memsys/parse"
)

// Newline returns the line ending a file uses: "\r\n" when it has any
// CRLF, "\r" when its lines end in lone CRs only (classic Mac, which
// CommonMark and the parser read as line breaks), else "\n". New text
// follows the file's own convention so a log does not end up with mixed
// endings; after a lone CR an LF would even join it into one CRLF line
// break, making a "---" written next a setext underline.
func Newline(src []byte) string {
	if bytes.Contains(src, []byte("\r\n")) {
		return "\r\n"
	}
	if bytes.IndexByte(src, '\n') < 0 && bytes.IndexByte(src, '\r') >= 0 {
		return "\r"
	}
	return "\n"
}

// AppendEvent returns src with event added at the end of the Event Log
// section, after the same separator the log already uses between
// events ("---" or a blank line; "---" when the log has too few events
// to tell, as the seed template does). Existing bytes are never
// changed: the result always starts with src. It fails when the log has
// no Event Log section, another section follows it, or a code fence or
// HTML comment is left open at its end, since an event appended at the
// end of the file would then land outside the log or inside that block.
func AppendEvent(file string, src []byte, log *parse.Log, event []byte) ([]byte, error) {
	lead, err := AppendLead(file, src, log)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(src)+len(lead)+len(event))
	out = append(out, src...)
	out = append(out, lead...)
	return append(out, event...), nil
}

// AppendLead returns what goes between the end of src and a new event
// (a line ending if src lacks one, the separator, a blank line): the
// part of AppendEvent that depends on the log. It reads only the last
// two events of the Event Log and the text after them, so src may be
// the whole log or its tail (see ReadTail).
func AppendLead(file string, src []byte, log *parse.Log) ([]byte, error) {
	if log.UTF16() {
		// The section may be there, unread: an event appended in
		// UTF-8 would mix two encodings in one file.
		return nil, fmt.Errorf("%s is UTF-16, which memsys does not read: re-save it as UTF-8, then run this again", file)
	}
	if !log.HasEventLog {
		// init writes the section into a new log only; an existing
		// CHANGELOG.md is the project's, so the user adds the line.
		return nil, front.Errorf("%s: no \"## Event Log\" section: %s, then run this again", file, parse.NoEventLogFix(len(log.Events) > 0))
	}
	// A merge stopped on the log: the event would land inside the
	// conflict, and git merge --abort would discard it with the markers.
	for _, p := range log.Problems {
		if p.Kind == parse.KindConflict {
			return nil, front.Errorf("%s:%d: unresolved merge conflict marker: an event appended now would land inside the conflict: finish the merge first (%s resolves the log), then append", file, p.Range.Line, front.Renumber.With("--onto REV").Word())
		}
	}
	// Only the last two events decide the separator; copying all of them
	// would cost more than the rest of append on a 100k-event log.
	var inLog []*parse.Event
	for i := len(log.Events) - 1; i >= 0 && len(inLog) < 2; i-- {
		if log.Events[i].InLog {
			inLog = append([]*parse.Event{&log.Events[i]}, inLog...)
		}
	}
	tail := 0
	if len(inLog) > 0 {
		tail = inLog[len(inLog)-1].Range.EndOffset
	} else {
		tail = lineStart(src, log.EventLogLine+1)
	}
	// A fence or comment still open after the last event would make the
	// new heading code: the event written, reported, and not in the log.
	from := lineStart(src, log.EventLogLine)
	if len(inLog) > 0 {
		from = inLog[len(inLog)-1].Range.Offset
	}
	if line := parse.OpenBlockLine(src[from:]); line > 0 {
		line += bytes.Count(src[:from], []byte("\n"))
		return nil, fmt.Errorf("%s:%d: a code block or HTML comment opened here is never closed, so an event appended after it would be hidden: close it, then append", file, line)
	}
	if line, h := sectionAfter(src, tail); line > 0 {
		line += bytes.Count(src[:tail], []byte("\n"))
		return nil, fmt.Errorf("%s:%d: section %q follows the Event Log: move it above \"## Event Log\" so events can be appended at the end", file, line, words.Clip(h))
	}
	nl := Newline(src)
	// out is the file's last bytes followed by the lead, so that blank
	// sees what the file ends with; the lead is what comes after them.
	keep := src[max(len(src)-3, 0):] // blank looks at most at "\n\r\n"
	out := append(make([]byte, 0, len(keep)+16), keep...)
	if len(src) > 0 && src[len(src)-1] != '\n' && (nl != "\r" || src[len(src)-1] != '\r') {
		out = append(out, nl...)
	}
	switch {
	case len(inLog) > 0 && hasRule(src[inLog[len(inLog)-1].Range.EndOffset:]):
		// The log ends with a separator already: just keep a blank line.
	case len(inLog) == 1 || len(inLog) > 1 && hasRule(src[inLog[len(inLog)-2].Range.EndOffset:inLog[len(inLog)-1].Range.Offset]):
		out = blank(out, nl)
		out = append(out, "---"...)
		out = append(out, nl...)
	case len(inLog) > 1:
		// blank-line separated log
	}
	out = blank(out, nl)
	return out[len(keep):], nil
}

// TornEnd returns an error naming the last event of src when the file
// ends mid-line inside it and the event is incomplete (a heading
// without its parts, no **Scope** or no **Summary**): what a power
// loss leaves when it keeps part of an append's write and loses the
// journal that would have undone it (docs/lifecycle.md). An event
// appended after it would bury it, and once committed it could not be
// removed; so append refuses and says which lines to delete. nil when
// the file ends with a line ending, or its last event is whole: a log
// saved by hand without a final newline is common and appends as ever.
func TornEnd(file string, src []byte, log *parse.Log) error {
	if len(src) == 0 || src[len(src)-1] == '\n' || !log.HasEventLog {
		return nil
	}
	from := lineStart(src, log.EventLogLine+1)
	for i := len(log.Events) - 1; i >= 0; i-- {
		if log.Events[i].InLog {
			from = log.Events[i].Range.Offset
			break
		}
	}
	// The cut event starts at the last event heading: the last event
	// of the log, or one after it whose ID the cut left unreadable.
	frag := src[from:]
	hs := parse.Headings(frag)
	start := -1
	for i := len(hs) - 1; i >= 0 && start < 0; i-- {
		if t := hs[i].Text; len(t) >= 4 && strings.EqualFold(t[:4], "evt-") {
			start = lineStart(frag, hs[i].Line)
		}
	}
	if start < 0 {
		return nil
	}
	ev := parse.Parse(file, frag[start:])
	why := ""
	for _, p := range ev.Problems {
		if p.Range.Line == 1 && (p.Kind == parse.KindHeader || p.Kind == parse.KindID || p.Kind == parse.KindTimestamp) {
			why = "its heading is incomplete"
			break
		}
	}
	switch {
	case why != "":
	case len(ev.Events) == 0:
		why = "its heading is incomplete"
	case ev.Events[0].Scope == "":
		why = "it has no **Scope**"
	case ev.Events[0].Summary == "":
		why = "it has no **Summary**"
	default:
		return nil
	}
	line := bytes.Count(src[:from+start], []byte("\n")) + 1
	last := src[bytes.LastIndexByte(src, '\n')+1:]
	return fmt.Errorf("%s:%d: the last event is cut short: the file ends mid-line (%q) and %s, as an append interrupted by a crash or power loss leaves it: delete it (line %d to the end of the file) or complete it, then append again",
		file, line, words.Clip(string(last)), why, line)
}

// blank makes b end with an empty line (b already ends with a newline
// or is empty after a heading).
func blank(b []byte, nl string) []byte {
	if bytes.HasSuffix(b, []byte("\n\n")) || bytes.HasSuffix(b, []byte("\n\r\n")) || bytes.HasSuffix(b, []byte("\r\r")) || len(b) == 0 {
		return b
	}
	return append(b, nl...)
}

// hasRule reports whether b contains a "---" thematic break line.
func hasRule(b []byte) bool {
	for _, l := range bytes.Split(b, []byte("\n")) {
		l = bytes.TrimSpace(l)
		if len(l) >= 3 && len(bytes.Trim(l, "-")) == 0 {
			return true
		}
	}
	return false
}

// lineStart returns the offset of 1-based line n of src.
func lineStart(src []byte, n int) int {
	off := 0
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src[off:], '\n')
		if j < 0 {
			return len(src)
		}
		off += j + 1
	}
	return off
}

// sectionAfter finds a level-1 or level-2 heading in src[from:] (read
// through goldmark's block structure, so code and comments do not count)
// and returns its line, counted from the line holding from (1-based, so
// the caller adds the lines before), and its text.
func sectionAfter(src []byte, from int) (int, string) {
	for _, h := range parse.Headings(src[from:]) {
		if h.Level <= 2 {
			return h.Line, strings.Repeat("#", h.Level) + " " + h.Text
		}
	}
	return 0, ""
}
