package materialize

import (
	"sync/atomic"

	"github.com/memsys/memsys/internal/base/pipe"
	"github.com/memsys/memsys/parse"
)

// An Async replays on its own goroutine: Add hands events over and
// returns at once, so the parser and the replay run side by side. Add
// also adds each event to the source digest (Replayer.Split) on the
// caller's goroutine, which balances the two. Events passed to Add must
// not change until Returned counts them, at the latest when Wait
// returns; parse.Stream changes an event only then, and only with
// parse.Reuse(a).
type Async struct {
	x    *Replayer
	hash func(*parse.Event)
	w    *pipe.Worker[*parse.Event]
	// taken counts the events added, replayed those the replay has
	// finished with (parse.Returner).
	taken    int
	replayed atomic.Int64
}

// asyncBatch is the number of events handed over at a time.
const asyncBatch = 256

// NewAsync starts a Replayer with opt on its own goroutine.
func NewAsync(opt Options) *Async { return ResumeAsync(NewReplayer(opt)) }

// Expect is Replayer.Expect; call it before the first Add.
func (a *Async) Expect(edges []parse.Supersession) { a.x.Expect(edges) }

// Reserve is Replayer.Reserve; call it before the first Add.
func (a *Async) Reserve(size int) { a.x.Reserve(size) }

// Add queues the next event.
func (a *Async) Add(e *parse.Event) {
	a.taken++
	a.hash(e)
	a.w.Add(e)
}

// Taken is the number of events added (parse.Returner).
func (a *Async) Taken() int { return a.taken }

// Returned is the number of the first events added that the replay has
// finished with: it keeps no event, only what it read from it, so a
// stream with parse.Reuse(a) may put later events in their memory.
func (a *Async) Returned() int { return int(a.replayed.Load()) }

// Wait replays what is still queued and returns the Replayer, which has
// then seen every event added. Call it once.
func (a *Async) Wait() *Replayer {
	a.w.Wait()
	return a.x
}

// ResumeAsync is NewAsync for a Replayer that has already replayed the
// first part of a history (one restored from a checkpoint).
func ResumeAsync(x *Replayer) *Async {
	replay, hash := x.Split()
	a := &Async{x: x, hash: hash}
	a.w = pipe.Start(asyncBatch, func(e *parse.Event) {
		replay(e)
		a.replayed.Add(1)
	})
	return a
}
