package recall

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// Source is a memory opened for recall: its graph and a way to look
// events up by ID.
type Source struct {
	Graph *materialize.Graph
	// FromGraphFile is true when the graph was read from a fresh
	// graph.md rather than replayed (for tests and benchmarks; the pack
	// is the same either way).
	FromGraphFile bool
	files         []file
	index         map[int]loc
}

type file struct {
	name string
	src  []byte
	opts []parse.Option
}

type loc struct {
	file       int
	start, end int
}

// Open reads the memory at root for recall. The graph comes from
// graph.md when its horizon names the last event and it reads back,
// and from a replay of archive and log otherwise.
func Open(root string) (*Source, error) {
	s, err := OpenEvents(root)
	if err != nil {
		return nil, err
	}
	last := s.lastEvent()
	if g, ok := freshGraph(root, last); ok {
		s.Graph, s.FromGraphFile = g, true
		return s, nil
	}
	x := materialize.NewAsync(materialize.DefaultOptions())
	mem, err := workspace.Stream(root, x.Add)
	r := x.Wait()
	if err != nil {
		return nil, err
	}
	if err := mem.Incomplete(); err != nil {
		return nil, err
	}
	s.Graph = r.Graph()
	return s, nil
}

// OpenEvents reads the log and the archive of root and indexes their
// event headings, for Event; Graph stays nil.
func OpenEvents(root string) (*Source, error) {
	s := &Source{}
	for _, name := range parse.ArchiveFiles {
		src, err := workspace.ReadFile(root, name)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		s.files = append(s.files, file{name, src, []parse.Option{parse.Archive()}})
		break
	}
	src, err := workspace.ReadFile(root, parse.LogFile)
	if err != nil {
		return nil, err
	}
	s.files = append(s.files, file{name: parse.LogFile, src: src})
	s.indexHeadings()
	return s, nil
}

// freshGraph reads graph.md when its event horizon is last.
func freshGraph(root, last string) (*materialize.Graph, bool) {
	src, err := workspace.ReadFile(root, parse.GraphFile)
	if err != nil {
		return nil, false
	}
	if h, _ := materialize.FindHorizon(src); h != last {
		return nil, false
	}
	g, err := materialize.ParseGraph(src)
	if err != nil || g.Horizon != last {
		return nil, false
	}
	return g, true
}

// indexHeadings records where each heading that names an event starts
// and where the next heading starts, keyed by event number; a later
// heading with the same number wins, as lookups by number do in show.
// The parser has the last word on each chunk (Event), so a heading-like
// line in a code block can only make a lookup miss, never lie.
func (s *Source) indexHeadings() {
	s.index = map[int]loc{}
	for fi, f := range s.files {
		src := f.src
		prev, prevNum := -1, 0
		for off := 0; off < len(src); {
			if src[off] == '#' {
				if prev >= 0 && prevNum > 0 {
					s.index[prevNum] = loc{fi, prev, off}
				}
				prev, prevNum = off, headingNum(src[off:])
			}
			nl := bytes.IndexByte(src[off:], '\n')
			if nl < 0 {
				break
			}
			off += nl + 1
		}
		if prev >= 0 && prevNum > 0 {
			s.index[prevNum] = loc{fi, prev, len(src)}
		}
	}
}

// headingNum reads "### evt-NNN |" at the start of line and returns
// NNN, or 0.
func headingNum(line []byte) int {
	i := 0
	for i < len(line) && line[i] == '#' {
		i++
	}
	for i < len(line) && line[i] == ' ' {
		i++
	}
	j := i
	for j < len(line) && line[j] != ' ' && line[j] != '|' && line[j] != '\n' && line[j] != '\r' {
		j++
	}
	return eventNum(string(line[i:j]))
}

// Event parses the event numbered like id from its chunk of source.
func (s *Source) Event(id string) (*parse.Event, bool) {
	n := eventNum(id)
	l, ok := s.index[n]
	if !ok {
		return nil, false
	}
	f := s.files[l.file]
	evs := parse.Parse(f.name, f.src[l.start:l.end], f.opts...).Events
	if len(evs) != 1 || evs[0].Num != n {
		return nil, false
	}
	return &evs[0], true
}

// lastEvent is the ID of the last event of the history: the log's last
// event heading, else the archive's.
func (s *Source) lastEvent() string {
	for fi := len(s.files) - 1; fi >= 0; fi-- {
		best, bestStart := 0, -1
		for n, l := range s.index {
			if l.file == fi && l.start > bestStart {
				best, bestStart = n, l.start
			}
		}
		if bestStart >= 0 {
			if e, ok := s.Event(parse.FormatID(best, 0)); ok {
				return e.ID
			}
		}
	}
	return ""
}

// Recall opens root and builds the pack for q.
func Recall(root string, q Query) (*Pack, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	s, err := Open(root)
	if err != nil {
		return nil, err
	}
	return Build(s.Graph, s.Event, q)
}
