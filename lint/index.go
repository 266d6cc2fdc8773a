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
	restored        map[place]bool   // events history() found restored (dropRestored)
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
	// typ is the event's type (typeCode), for the closes rule (MS135);
	// it fits in the padding, so an entry stays 24 bytes.
	typ uint8
}

// typeCode is 1 + the index of typ in parse.EventTypes, or otherType.
func typeCode(typ string) uint8 {
	if i := slices.Index(parse.EventTypes, typ); i >= 0 {
		return uint8(i + 1)
	}
	return otherType
}

// otherType is the typeCode of a type outside parse.EventTypes (or
// none): MS112 reports it, and it opens no loop.
const otherType = 255

// typeName is the type typeCode(t) was made from; "" for otherType.
func typeName(c uint8) string {
	if c == 0 || c == otherType {
		return ""
	}
	return parse.EventTypes[c-1]
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

// seen returns the firstSeen of event e, the pos-th of the history.
func (x *firstIndex) seen(pos int, e *parse.Event) firstSeen {
	r := e.Range
	f := slices.Index(x.files, r.File)
	if f < 0 {
		f = len(x.files)
		x.files = append(x.files, r.File)
	}
	return firstSeen{pos: int32(pos), line: int32(r.Line), offset: int64(r.Offset), file: int32(f), typ: typeCode(e.Type)}
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

// add records f for n unless n already has its first event. A later
// event with the number that opens a loop gives the entry its type
// when the first does not: replay closes whichever of the two is open
// (materialize's loops), so closes naming the number is no mistake.
func (x *firstIndex) add(n int, f firstSeen) {
	if old, ok := x.get(n); ok {
		if !materialize.IsLoop(typeName(old.typ)) && materialize.IsLoop(typeName(f.typ)) {
			old.typ = f.typ
			if n < x.n {
				x.dense[n/firstChunk][n%firstChunk] = old
			} else {
				x.sparse[n] = old
			}
		}
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
