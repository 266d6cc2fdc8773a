package snapshot

import (
	"reflect"
	"sync"
)

// A planned is a function built once for a type: the decoder's plan of
// how to fill a value of it, the encoder's encPlan of how to write one.
type planned[F any] struct {
	fn F
}

// A planSet holds the finished plans of one kind, one per reflect.Type.
// mu serializes building them, so a plan is published only once it and
// every plan it calls are complete: a concurrent Decode or Encode never
// finds a half-built one (TestDecodeConcurrent).
type planSet[F any] struct {
	done sync.Map // reflect.Type -> *planned[F]
	mu   sync.Mutex
	// build makes the function of t; of gives the plans of the types t
	// holds, which may not be filled in yet (a recursive type's own).
	build func(t reflect.Type, of func(reflect.Type) *planned[F]) F
}

// of returns the plan of t, building it (and those of the types it
// holds) on first use.
func (s *planSet[F]) of(t reflect.Type) *planned[F] {
	if p, ok := s.done.Load(t); ok {
		return p.(*planned[F])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	building := map[reflect.Type]*planned[F]{}
	p := s.in(t, building)
	for t, q := range building {
		s.done.Store(t, q)
	}
	return p
}

// in returns the plan of t, built into building unless it is published
// already. A recursive type finds its own plan, not yet filled in, and
// calls it through the pointer once the plan runs.
func (s *planSet[F]) in(t reflect.Type, building map[reflect.Type]*planned[F]) *planned[F] {
	if p, ok := s.done.Load(t); ok {
		return p.(*planned[F])
	}
	if p, ok := building[t]; ok {
		return p
	}
	p := &planned[F]{}
	building[t] = p
	p.fn = s.build(t, func(t reflect.Type) *planned[F] { return s.in(t, building) })
	return p
}
