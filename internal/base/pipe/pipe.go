package pipe

// A Worker applies its function to every value added, in order, on one
// goroutine at a time. Values must not change until Wait returns.
type Worker[T any] struct {
	f    func(T)
	size int
	// inline counts the values Add has applied f to itself; the
	// goroutine starts after the first Inline of them.
	inline  int
	started bool
	batch   []T
	batches chan []T
	// free returns the batches f is done with to Add, so a long run
	// allocates a handful of batches rather than one per size values.
	free chan []T
	done chan struct{}
}

// queued is how many full batches may wait for the goroutine.
const queued = 4

// Inline is how many values a Worker handles on the caller's goroutine
// before it starts its own. Below it, handing values to another core
// costs more than it saves: on a 1,000-event log, lint with the
// goroutines spent 10-15% more CPU (thread wake-ups, futexes, the
// scheduler) and finished no sooner (perf stat, GOMAXPROCS 2 against 1).
// Above it the two cores overlap where the log is long enough to gain.
const Inline = 2048

// Start returns a Worker calling f on each value: on the caller's
// goroutine for the first Inline values, then on its own goroutine in
// batches of size values.
func Start[T any](size int, f func(T)) *Worker[T] {
	return &Worker[T]{f: f, size: size}
}

// run starts the goroutine. Every value applied inline was applied
// before the go statement, so f's state needs no other synchronisation.
func (w *Worker[T]) run() {
	w.started = true
	w.batches = make(chan []T, queued)
	w.free = make(chan []T, queued+2)
	w.done = make(chan struct{})
	go func() {
		defer close(w.done)
		for b := range w.batches {
			for _, v := range b {
				w.f(v)
			}
			clear(b)
			select {
			case w.free <- b[:0]:
			default:
			}
		}
	}()
}

// Add applies f to v, or queues it once the goroutine runs.
func (w *Worker[T]) Add(v T) {
	if !w.started {
		if w.inline < Inline {
			w.inline++
			w.f(v)
			return
		}
		w.run()
	}
	if w.batch == nil {
		select {
		case w.batch = <-w.free:
		default:
			w.batch = make([]T, 0, w.size)
		}
	}
	w.batch = append(w.batch, v)
	if len(w.batch) == w.size {
		w.batches <- w.batch
		w.batch = nil
	}
}

// Wait hands over the last partial batch and returns once f has seen
// every value. Call it once; nothing may be added afterwards.
func (w *Worker[T]) Wait() {
	if !w.started {
		return
	}
	if len(w.batch) > 0 {
		w.batches <- w.batch
	}
	close(w.batches)
	<-w.done
}
