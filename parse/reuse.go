package parse

// This file lets a stream reuse the memory of the events its consumer
// has finished with. At 100k events a stream allocated about 58 MB of
// events that lived a few hundred events each: the garbage, not what
// was kept, set how often the collector ran and how high the heap rose
// (bench BenchmarkOps, lint's peak).

// A Returner is the consumer of a stream that says which of the events
// handed to it it has finished with (see Reuse).
type Returner interface {
	// Taken is how many events the consumer has been handed in all,
	// counting those of earlier streams it read.
	Taken() int
	// Returned is how many of those, the first ones in the order they
	// were handed over, neither the consumer nor anything it passed
	// them to will read again. It may lag behind; it must never run
	// ahead. It may be called from another goroutine than the one that
	// does the work.
	Returned() int
}

// Reuse lets Stream put later events in the memory of the events r has
// returned, instead of allocating every event anew. With it, the
// function handed to Stream and everything it passes an event to must
// keep no pointer to the event, nor its Fields, Details, Scopes or Tags
// slices (they share the reused memory), past the moment r returns it;
// its strings and its other slices (Refs, Supersedes, ...) stay valid.
// The event handed over last stays valid after Stream returns. Parse
// ignores it.
func Reuse(r Returner) Option { return func(c *config) { c.reuse = r } }

// A slab holds the cells of cellSlab streamed events and, when the
// stream reuses them, room for their Details: about two thirds of what
// a stream allocated for an event beside its cell.
type slab struct {
	cells   [cellSlab]eventCell
	details []Detail
	strs    []string // Scopes and Tags
}

// slabDetails and slabStrs are the room for Details and for Scopes and
// Tags a reused slab has: three bullets and four names an event. An
// event that needs more than is left gets its own.
const (
	slabDetails = 3 * cellSlab
	slabStrs    = 4 * cellSlab
)

// retired is a slab whose events have all been handed over (or
// dropped), waiting for the consumer to return them.
type retired struct {
	s *slab
	// taken is the consumer's Taken when the slab retired: every
	// event of the slab it took is among the first taken.
	taken int
	// handed is how many events the stream had handed over then; the
	// slab is not reused before a later event is handed over, so the
	// last one stays valid.
	handed int
}

// slab returns a slab of empty cells: a retired one the consumer has
// returned, or a new one.
func (p *state) slab() *slab {
	if p.reuse == nil {
		return &slab{}
	}
	// The slab now used up retires, unless some of its events are held
	// back (flush hands them over later, so they are not yet counted).
	if p.full != nil && len(p.pending) == 0 {
		p.retired = append(p.retired, retired{s: p.full, taken: p.reuse.Taken(), handed: p.handed})
	}
	var s *slab
	if len(p.retired) > 0 {
		if r := p.retired[0]; p.handed > r.handed && p.reuse.Returned() >= r.taken {
			p.retired[0] = retired{}
			p.retired = p.retired[1:]
			s = r.s
			s.cells = [cellSlab]eventCell{}
			clear(s.details)
			s.details = s.details[:0]
			clear(s.strs)
			s.strs = s.strs[:0]
		}
	}
	if s == nil {
		s = &slab{details: make([]Detail, 0, slabDetails), strs: make([]string, 0, slabStrs)}
	}
	p.full = s
	return s
}

// makeDetails returns an empty slice with room for n Details: in the
// slab of the open event when the stream reuses it and it has room.
// The room is zero (new, or cleared when its slab was reused), which
// details relies on when it fills it in place.
func (p *state) makeDetails(n int) []Detail {
	if s := p.full; p.reuse != nil && s != nil && cap(s.details)-len(s.details) >= n {
		return take(&s.details, n)
	}
	if p.reuse == nil && n > 0 && n <= chunkDetails {
		if cap(p.detailChunk)-len(p.detailChunk) < n {
			p.detailChunk = make([]Detail, 0, nextChunk(cap(p.detailChunk), n, chunkDetails))
		}
		return take(&p.detailChunk, n)
	}
	return make([]Detail, 0, n)
}

// take returns the next n elements of *s, which has room for them, as
// an empty slice capped at n: an append by its owner copies rather than
// run into the next event's elements.
func take[T any](s *[]T, n int) []T {
	i := len(*s)
	*s = (*s)[:i+n]
	return (*s)[i : i : i+n]
}

// makeStrs is makeDetails for the Scopes and Tags of the open event.
func (p *state) makeStrs(n int) []string {
	if s := p.full; p.reuse != nil && s != nil && cap(s.strs)-len(s.strs) >= n {
		return take(&s.strs, n)
	}
	if p.reuse == nil && n > 0 && n <= chunkStrs {
		if cap(p.strChunk)-len(p.strChunk) < n {
			p.strChunk = make([]string, 0, nextChunk(cap(p.strChunk), n, chunkStrs))
		}
		return take(&p.strChunk, n)
	}
	return make([]string, 0, n)
}

// nextChunk is the room of the next chunk after one of room last, for
// a slice of n, at most most: twice the last, from 16. A parse of one
// event (append's and import's read-back of each event they write,
// export's check of each event) then zeroes a few dozen elements, not
// max: the full chunks were most of that parse's time.
func nextChunk(last, n, most int) int {
	return max(min(max(2*last, 16), most), n)
}

// chunkDetails and chunkStrs size the chunks that events keep for good
// (Parse, or a stream without Reuse) take their Details, Scopes and Tags
// from: one allocation for about a hundred events instead of two or
// three an event. At 1k events the per-event slices were 2,000 of the
// 5,035 allocations of a Parse (BenchmarkParse/memsys/1000). Each event
// gets a slice capped at its length, so an append by a caller copies
// instead of writing into its neighbour's room, as with its own slice.
const (
	chunkDetails = 256
	chunkStrs    = 512
)
