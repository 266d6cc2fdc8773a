package recall

import (
	"bytes"
	"errors"
	"slices"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Source is a memory opened for recall: the files of its history and
// where each heading starts, so an event is found by its ID without
// parsing the rest.
type Source struct {
	files []file
	mem   *workspace.Memory // the bytes files hold, for a replay
	// FromGraphFile is true when the last Recall read graph.md rather
	// than replaying (tests and benchmarks check both paths give the
	// same pack).
	FromGraphFile bool
}

type file struct {
	name     string
	src      []byte
	opts     []parse.Option
	headings []int // offsets of lines that start with '#' after at most 3 spaces
}

// OpenEvents reads the log and the archive of root and finds their
// headings.
func OpenEvents(root string) (*Source, error) {
	mem, err := workspace.Read(root)
	if err != nil {
		return nil, err
	}
	if err := mem.Unread(); err != nil {
		return nil, err
	}
	s := &Source{mem: mem}
	if mem.ArchivePath != "" {
		s.files = append(s.files, newFile(mem.ArchivePath, mem.ArchiveBytes, parse.Archive()))
	}
	s.files = append(s.files, newFile(workspace.LogName, mem.LogBytes))
	return s, nil
}

// newFile finds the lines of src that start with '#', after up to
// three spaces (an ATX heading's indent, which the parser reads as an
// event heading; recall cited such an event as "not in the log or the
// archive"): a jump from '#' to '#' (one or a few a heading) rather
// than a walk over every line.
func newFile(name string, src []byte, opts ...parse.Option) file {
	f := file{name: name, src: src, opts: opts}
	for off := 0; off < len(src); {
		i := bytes.IndexByte(src[off:], '#')
		if i < 0 {
			break
		}
		at := off + i
		line := at
		for line > 0 && at-line < 3 && src[line-1] == ' ' {
			line--
		}
		if line == 0 || src[line-1] == '\n' {
			f.headings = append(f.headings, line)
		}
		// Skip the rest of this run of '#'.
		for off = at; off < len(src) && src[off] == '#'; off++ {
		}
	}
	return f
}

// headingNum reads "### evt-NNN |" at src[at:], after the indent
// newFile allows, and returns NNN, or 0.
func headingNum(src []byte, at int) int {
	i := at
	for i < len(src) && src[i] == ' ' {
		i++
	}
	for i < len(src) && src[i] == '#' {
		i++
	}
	for i < len(src) && src[i] == ' ' {
		i++
	}
	j := i
	for j < len(src) && j-i < 16 && src[j] != ' ' && src[j] != '|' && src[j] != '\n' && src[j] != '\r' {
		j++
	}
	return eventNum(string(src[i:j]))
}

// Event parses the event numbered like id from its chunk of source
// (heading to the next event heading), the log before the archive and the last
// heading with that number first, as show finds it. The parser has the
// last word: a heading-like line in a code block can make a lookup
// miss, never return something that is not the event.
func (s *Source) Event(id string) (*parse.Event, bool) {
	n := eventNum(id)
	if n == 0 {
		return nil, false
	}
	for fi := len(s.files) - 1; fi >= 0; fi-- {
		f := &s.files[fi]
		// Logs number upward: try a binary search, then every heading.
		hs := f.headings
		k, _ := slices.BinarySearchFunc(hs, n, func(at, n int) int { return headingNum(f.src, at) - n })
		// The search lands on the first of headings numbered n; the
		// last is taken first, as show does (a copy in a code block
		// of the event before it comes first).
		for j := k + 1; k < len(hs) && j < len(hs); j++ {
			if m := headingNum(f.src, hs[j]); m == n {
				k = j
			} else if m != 0 {
				break
			}
		}
		if e, ok := f.eventAt(k, n); ok {
			return e, true
		}
		for k := len(hs) - 1; k >= 0; k-- {
			if headingNum(f.src, hs[k]) == n {
				if e, ok := f.eventAt(k, n); ok {
					return e, true
				}
			}
		}
	}
	return nil, false
}

// maxSpans bounds how many event headings in code blocks eventAt reads
// past before it calls the event not found.
const maxSpans = 64

// eventAt parses the chunk of heading k when it is event n. The chunk
// runs to the next event heading, not to the next '#' line: a "####
// Notes" sub-heading, a "#tag" line or a heading in a code block belong
// to the event, and cutting there served the event without the rest
// of its text (memsys://event/evt-NNN lost its Refs and Tags). While
// the chunk ends inside a code block or HTML comment, the next event
// heading is in it too, and the chunk runs on to the one after.
func (f *file) eventAt(k, n int) (*parse.Event, bool) {
	if k < 0 || k >= len(f.headings) || headingNum(f.src, f.headings[k]) != n {
		return nil, false
	}
	start := f.headings[k]
	j := k + 1
	for span := 0; ; span++ {
		for j < len(f.headings) && headingNum(f.src, f.headings[j]) == 0 {
			j++
		}
		end := len(f.src)
		if j < len(f.headings) {
			end = f.headings[j]
		}
		chunk := f.src[start:end]
		if end < len(f.src) && parse.OpenBlockLine(chunk) != 0 {
			if span == maxSpans {
				return nil, false
			}
			j++
			continue
		}
		evs := parse.Parse(f.name, chunk, f.opts...).Events
		if len(evs) != 1 || evs[0].Num != n {
			return nil, false
		}
		return &evs[0], true
	}
}

// lastEvent is the ID of the last event of the history: the log's last
// event heading, else the archive's.
func (s *Source) lastEvent() string {
	for fi := len(s.files) - 1; fi >= 0; fi-- {
		f := &s.files[fi]
		for k := len(f.headings) - 1; k >= 0; k-- {
			if n := headingNum(f.src, f.headings[k]); n > 0 {
				if e, ok := f.eventAt(k, n); ok {
					return e.ID
				}
			}
		}
	}
	return ""
}

// graph returns the part of the graph the query needs: from graph.md
// when it is fresh, its horizon the last event and its content what
// regen writes now (reading only the rows of the entities, their edges
// and their neighbours up to the depth), else from a replay of the
// whole history (through the history cache).
func (s *Source) graph(root string, q Query) (*materialize.Graph, error) {
	s.FromGraphFile = false
	if src, err := workspace.ReadFile(root, parse.GraphFile); err == nil {
		// The horizon is the cheap test; the file must also be what
		// regen writes now (memory.GraphFresh, status's verdict): an
		// event edited in place or a hand edit leaves the horizon as
		// it was.
		if h, _ := materialize.FindHorizon(src); h == s.lastEvent() {
			if fresh, err := memory.GraphFresh(root, s.mem, src); err != nil {
				return nil, err
			} else if fresh {
				if g, err := subgraph(src, q); err == nil && g.Horizon == h {
					s.FromGraphFile = true
					return g, nil
				}
			}
		}
	}
	// memory.Replay goes through the history cache: on a memory whose
	// tier writes no graph.md, or one behind the log, a recall costs a
	// checkpoint's decode and a replay of the events after it.
	x, err := memory.ReplayRead(root, materialize.DefaultOptions(), s.mem)
	if err != nil {
		return nil, err
	}
	return x.Graph(), nil
}

// subgraph reads the rows of graph.md that Build can reach for q:
// first the edges out to the depth, one pass a level, then every node
// and edge row at the nodes found.
func subgraph(src []byte, q Query) (*materialize.Graph, error) {
	inner := map[string]bool{} // nodes closer than the depth: their edges count
	frontier := map[string]bool{}
	for _, e := range q.Entities {
		frontier[materialize.Canon(e)] = true
	}
	all := map[string]bool{}
	for k := range frontier {
		all[k] = true
	}
	// Depth 0 and 1, the usual case: the entities' edges in one pass,
	// then the node rows at their ends in another.
	if q.Depth <= 1 {
		edges, err := materialize.ParseGraphWhere(src, nil, func(from, to string) bool {
			hit := frontier[from] || frontier[to]
			if hit {
				all[from], all[to] = true, true
			}
			return hit
		})
		if err != nil {
			return nil, err
		}
		g, err := materialize.ParseGraphWhere(src, func(key string) bool { return all[key] }, nil)
		if err != nil {
			return nil, err
		}
		g.Edges = edges.Edges
		return g, nil
	}
	// Deeper: one pass over the edges a level, then the rows.
	for d := 0; d < q.Depth && len(frontier) > 0; d++ {
		for k := range frontier {
			inner[k] = true
		}
		next := map[string]bool{}
		_, err := materialize.ParseGraphWhere(src, nil, func(from, to string) bool {
			switch {
			case frontier[from] && !all[to]:
				next[to] = true
			case frontier[to] && !all[from]:
				next[from] = true
			}
			return false
		})
		if err != nil {
			return nil, err
		}
		for k := range next {
			all[k] = true
		}
		frontier = next
	}
	return materialize.ParseGraphWhere(src,
		func(key string) bool { return all[key] },
		func(from, to string) bool { return inner[from] || inner[to] })
}

// Recall opens root and builds the pack for q.
func Recall(root string, q Query) (*Pack, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	s, err := OpenEvents(root)
	if err != nil {
		return nil, err
	}
	g, err := s.graph(root, q)
	if err != nil {
		return nil, err
	}
	p, err := Build(g, s.Event, q)
	var nf *materialize.UnknownEntityError
	if errors.As(err, &nf) && s.FromGraphFile {
		// The suggestions need every name.
		if src, rerr := workspace.ReadFile(root, parse.GraphFile); rerr == nil {
			if full, perr := materialize.ParseGraph(src); perr == nil {
				nf.Nearest = materialize.Nearest(full, nf.Name, 3)
			}
		}
	}
	return p, err
}
