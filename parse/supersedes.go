package parse

import (
	"bytes"
	"strings"
)

// Supersession is one event's "**Supersedes**" field: the event, where
// its heading starts, and the IDs it names.
type Supersession struct {
	File    string
	Offset  int    // the event's Range.Offset: its heading line, in the file's bytes
	ID      string // the superseding event's ID as written
	Targets []string
}

// SupersessionOf returns e's Supersedes field as a Supersession, and
// false when e supersedes nothing.
func SupersessionOf(e *Event) (Supersession, bool) {
	if len(e.Supersedes) == 0 {
		return Supersession{}, false
	}
	return Supersession{File: e.Range.File, Offset: e.Range.Offset, ID: e.ID, Targets: e.Supersedes}, true
}

// Equal reports whether s and t describe the same field of the same
// event.
func (s Supersession) Equal(t Supersession) bool {
	if s.File != t.File || s.Offset != t.Offset || s.ID != t.ID || len(s.Targets) != len(t.Targets) {
		return false
	}
	for i := range s.Targets {
		if s.Targets[i] != t.Targets[i] {
			return false
		}
	}
	return true
}

// ScanSupersedes finds the Supersedes fields of src without parsing it,
// so a streaming replay can know, before the first event, which events
// later ones will supersede (a superseded event is skipped from the
// start; see materialize.Replayer.Expect). It reads the text, not the
// block structure: a field inside a code fence, a value continued on
// the next line or a heading hidden in a fence make it wrong. Callers
// therefore use it only as a prediction that the replay checks against
// the events it is actually given (Replayer.Exact), replaying again
// when they differ. On the logs people write, it is exact, and it costs
// one substring search when no event supersedes anything.
func ScanSupersedes(file string, src []byte) []Supersession {
	var out []Supersession
	lower, upper := finder{pat: []byte("persedes")}, finder{pat: []byte("PERSEDES")}
	for from := 0; from < len(src); {
		at := min(lower.next(src, from), upper.next(src, from))
		if at == len(src) {
			break
		}
		from = at + len("persedes")
		ls := bytes.LastIndexByte(src[:at], '\n') + 1
		le := bytes.IndexByte(src[at:], '\n')
		if le < 0 {
			le = len(src)
		} else {
			le += at
		}
		from = max(from, le)
		line := strings.TrimRight(string(src[ls:le]), "\r")
		key, val, ok := splitField(line)
		if !ok || !KeyIs(key, "supersedes") {
			continue
		}
		targets := parseRefs(val)
		if len(targets) == 0 && strings.TrimSpace(val) == "" {
			// An empty field takes the bullet list after it, as
			// Refs does (state.list).
			targets = listRefs(src, le)
		}
		if len(targets) == 0 {
			continue
		}
		off, id, ok := headingBefore(src, ls)
		if !ok {
			continue
		}
		out = append(out, Supersession{File: file, Offset: off, ID: id, Targets: targets})
	}
	return out
}

// listRefs reads the IDs of the bullet list that starts after the
// line ending at le, as the parser reads the list after an empty
// Supersedes field: each top-level bullet's text, lazy continuation
// lines included; nested bullets are children, which it does not read.
// The list ends at a heading, or at a blank line not followed by
// another top-level bullet.
func listRefs(src []byte, le int) []string {
	var out []string
	started := false
	for at := le + 1; at < len(src); {
		var line string
		line, at = lineFrom(src, at)
		trimmed, bullet := topBullet(line)
		switch {
		case strings.TrimSpace(line) == "":
			if started && !nextIsBullet(src, at) {
				return out
			}
		case bullet:
			started = true
			out = appendRefs(out, trimmed[1:])
		case !started || trimmed[0] == '#':
			return out
		case len(line)-len(trimmed) >= 2:
			// a nested bullet or its text: a child
		default:
			out = appendRefs(out, line) // lazy continuation
		}
	}
	return out
}

// nextIsBullet reports whether the first non-blank line from at is a
// top-level bullet.
func nextIsBullet(src []byte, at int) bool {
	for at < len(src) {
		var line string
		line, at = lineFrom(src, at)
		if strings.TrimSpace(line) != "" {
			_, bullet := topBullet(line)
			return bullet
		}
	}
	return false
}

// lineFrom returns the line that starts at at, without its line
// ending, and where the next line starts.
func lineFrom(src []byte, at int) (string, int) {
	end := bytes.IndexByte(src[at:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += at
	}
	return strings.TrimRight(string(src[at:end]), "\r"), end + 1
}

// topBullet returns line without its indent, and whether it is a
// top-level bullet: a list marker indented at most one space and
// followed by a space, a tab or nothing.
func topBullet(line string) (string, bool) {
	t := strings.TrimLeft(line, " ")
	return t, len(line)-len(t) <= 1 && len(t) > 0 && strings.ContainsRune("-*+", rune(t[0])) &&
		(len(t) == 1 || t[1] == ' ' || t[1] == '\t')
}

// finder finds the occurrences of pat one after the other, remembering
// the next, so two finders ("persedes" in lower and upper case, the
// part of "Supersedes" its usual spellings share) read the source once
// each however the matches interleave.
type finder struct {
	pat  []byte
	at   int // next match at or after searched; len(src) when none
	done bool
	from int // where at was searched from
}

// next returns the first match at or after from, len(src) if none.
func (f *finder) next(src []byte, from int) int {
	if f.done && f.at >= from {
		return f.at // the first match after an earlier from is still the first
	}
	i := bytes.Index(src[from:], f.pat)
	f.done, f.from = true, from
	if i < 0 {
		f.at = len(src)
	} else {
		f.at = from + i
	}
	return f.at
}

// headingBefore finds the event heading that the line at ls belongs to:
// the last line before it that starts with "#" and whose text begins
// with "evt-". It returns the heading's offset and the event ID.
func headingBefore(src []byte, ls int) (int, string, bool) {
	for end := ls - 1; end > 0; {
		start := bytes.LastIndexByte(src[:end], '\n') + 1
		line := src[start:end]
		off := start
		if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
			line, off = line[3:], off+3
		}
		if len(line) > 0 && line[0] == '#' {
			t := strings.TrimSpace(strings.TrimLeft(strings.TrimRight(string(line), "\r"), "#"))
			if len(t) > 4 && strings.EqualFold(t[:4], "evt-") {
				id := t
				if k := strings.IndexAny(id, "| \t"); k >= 0 {
					id = id[:k]
				}
				return off, id, true
			}
			if n := strings.IndexByte(strings.TrimRight(string(line), "\r"), ' '); n >= 1 && n <= 3 {
				return 0, "", false // a section or other heading: no event
			}
		}
		end = start - 1
	}
	return 0, "", false
}
