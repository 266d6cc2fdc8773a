package parse

import "sort"

// Places finds events by where they are: the event a finding's line
// falls in. A finding names its event by ID, but a hand-kept log can
// hold an ID twice, and a finding on an edit starts at the edited line,
// not at the heading.
type Places map[string][]Event

// PlacesOf indexes evs, whose events of each file come together and in
// file order (a history: the archive's, then the log's). The events are
// shared, not copied.
func PlacesOf(evs []Event) Places {
	p := Places{}
	for start := 0; start < len(evs); {
		end := start + 1
		for end < len(evs) && evs[end].Range.File == evs[start].Range.File {
			end++
		}
		f := evs[start].Range.File
		if p[f] == nil {
			p[f] = evs[start:end:end]
		} else {
			p[f] = append(p[f], evs[start:end]...)
		}
		start = end
	}
	return p
}

// At returns the event of file whose lines hold line, or nil.
func (p Places) At(file string, line int) *Event {
	evs := p[file]
	i := sort.Search(len(evs), func(i int) bool { return evs[i].Range.EndLine >= line })
	if i < len(evs) && evs[i].Range.Line <= line {
		return &evs[i]
	}
	return nil
}
