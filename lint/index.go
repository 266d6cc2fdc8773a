package lint

import (
	"slices"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/materialize"
	"github.com/memsys/memsys/parse"
)

// This file holds what the rules of one Session share: values computed
// once per memory, and the index of event numbers to their first event.

// shared holds what several rules compute once per memory, and where
// the Session is in the history.
type shared struct {
	in       *Input
	cfg      config.Config
	problems map[parse.Kind][]parse.Problem
	// horizons remembers horizon() per derived file; files are read
	// through memoRead, so a file's bytes never change during a Check.
	horizons map[string]horizonAt
	// replayed is the Session's replay after Finish (nil when the
	// Session did not replay); derived holds what regen writes, each
	// file rendered the first time a rule asks for it: a core-tier
	// memory never pays for rendering graph.md.
	replayed *materialize.Replayer
	derived  map[string][]byte
	// wants names the derived files a drift rule will likely compare
	// (its rule is on and the file exists), so that the first render
	// makes both at once.
	wants map[string]bool
	graph *materialize.Graph // the replayed graph, after Finish (nil when not replayed)
	// sups are the Supersedes fields seen, in history order;
	// supersededBy is computed from them at the end (superseded()).
	sups         []supEdge
	supersededBy map[int]string

	first     firstIndex // event number -> its first event so far
	pos       int        // position of the event being visited
	count     int        // events seen
	logEvents int        // of which in the log (not the archive)
	last      string     // ID of the last event seen

	historyDone     bool             // the history rules compared base and head
	historyFindings diag.Diagnostics // what that comparison found
	sidesRead       bool             // base and head were read (sides)
	base, head      side
	sidesErr        error
	err             error // the first Pass.Fail
}

// firstSeen is where the first event with a number is, as the refs and
// duplicate rules need it.
type firstSeen struct {
	offset    int64
	pos, line int32
	file      int32 // index in firstIndex.files
}

// at is the heading line of the event.
func (x *firstIndex) at(f firstSeen) diag.Range {
	return diag.Range{File: x.files[f.file], Line: int(f.line), Col: 1, EndLine: int(f.line), Offset: int(f.offset)}
}

// firstIndex maps event numbers to their first event. Numbers are
// nearly dense (1, 2, 3, ...), so they index a slice, 24 bytes an
// event; a number far beyond the count (evt-99999999) goes to a map,
// so a typo cannot make the slice huge. The slice is cut in chunks of
// firstChunk numbers: a Session resumed from a checkpoint holds an
// index of every event so far, and the next event must not copy all
// of it to grow one slice.
type firstIndex struct {
	dense  [][]firstSeen // number n at dense[n/firstChunk][n%firstChunk]; pos -1 where no event has n yet
	n      int           // numbers dense covers: 0 to n-1
	sparse map[int]firstSeen
	// files names the files of the events (the archive, the log), so
	// that an entry holds a small index rather than a string: 24 bytes
	// an event instead of 32.
	files []string
}

// seen returns the firstSeen of an event at r, the pos-th of the history.
func (x *firstIndex) seen(pos int, r diag.Range) firstSeen {
	f := slices.Index(x.files, r.File)
	if f < 0 {
		f = len(x.files)
		x.files = append(x.files, r.File)
	}
	return firstSeen{pos: int32(pos), line: int32(r.Line), offset: int64(r.Offset), file: int32(f)}
}

// firstChunk is how many numbers one chunk of firstIndex.dense holds.
const firstChunk = 4096

func (x *firstIndex) get(n int) (firstSeen, bool) {
	if n < x.n {
		f := x.dense[n/firstChunk][n%firstChunk]
		return f, f.pos >= 0
	}
	f, ok := x.sparse[n]
	return f, ok
}

// add records f for n unless n already has its first event.
func (x *firstIndex) add(n int, f firstSeen) {
	if _, ok := x.get(n); ok {
		return
	}
	if n < 2*x.n+1024 {
		for x.n <= n {
			c := x.n / firstChunk
			if c == len(x.dense) {
				x.dense = append(x.dense, make([]firstSeen, 0, firstChunk))
			}
			x.dense[c] = append(x.dense[c], firstSeen{pos: -1})
			x.n++
		}
		x.dense[n/firstChunk][n%firstChunk] = f
		return
	}
	if x.sparse == nil {
		x.sparse = map[int]firstSeen{}
	}
	x.sparse[n] = f
}
