package pipe

// A Worker applies its function to every value added, in order, on one
// goroutine. Values must not change until Wait returns.
type Worker[T any] struct {
	f       func(T)
	size    int
	batch   []T
	batches chan []T
	// free returns the batches f is done with to Add, so a long run
	// allocates a handful of batches rather than one per size values.
	free chan []T
	done chan struct{}
}

// queued is how many full batches may wait for the goroutine.
const queued = 4

// Start starts a Worker calling f on batches of size values.
func Start[T any](size int, f func(T)) *Worker[T] {
	w := &Worker[T]{f: f, size: size, batches: make(chan []T, queued), free: make(chan []T, queued+2), done: make(chan struct{})}
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
	return w
}

// Add queues v.
func (w *Worker[T]) Add(v T) {
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
	if len(w.batch) > 0 {
		w.batches <- w.batch
	}
	close(w.batches)
	<-w.done
}
