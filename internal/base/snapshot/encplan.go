package snapshot

import (
	"math"
	"reflect"
	"unsafe"
)

// An encPlan encodes one type from the memory at p, which holds a value
// of that type: the decoder's plans (plan) the other way round. Walking
// the value through reflect.Value for every field of every node cost a
// first run (the one that writes the history cache's checkpoint) about
// a millisecond for each 200 KB of replay state, a tenth of a first
// lint at 1k events; a plan reads the fields through unsafe pointers.
type encPlan = planned[func(e *encoder, p unsafe.Pointer)]

// encPlans holds the encoder's plans (buildEnc).
var encPlans = &planSet[func(e *encoder, p unsafe.Pointer)]{build: buildEnc}

// encPlanOf returns the encPlan of t, building it (and those of the
// types it holds) on first use.
func encPlanOf(t reflect.Type) *encPlan { return encPlans.of(t) }

// buildEnc writes what Decode's plan for t reads: a bool as one byte,
// integers as varints, a float as the uvarint of its 64-bit pattern, a
// string as its length and bytes, a slice or map as 0 for nil or its
// length plus one and its elements, a pointer as 0 for nil or its
// number (a new one followed by its value), a struct as its fields in
// order.
func buildEnc(t reflect.Type, planOf func(reflect.Type) *encPlan) func(e *encoder, p unsafe.Pointer) {
	switch t.Kind() {
	case reflect.Bool:
		return func(e *encoder, p unsafe.Pointer) {
			e.room()
			b := byte(0)
			if *(*bool)(p) {
				b = 1
			}
			e.buf = append(e.buf, b)
		}
	case reflect.Int:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.varint(int64(*(*int)(p))) }
	case reflect.Int8:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.varint(int64(*(*int8)(p))) }
	case reflect.Int16:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.varint(int64(*(*int16)(p))) }
	case reflect.Int32:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.varint(int64(*(*int32)(p))) }
	case reflect.Int64:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.varint(*(*int64)(p)) }
	case reflect.Uint:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(uint64(*(*uint)(p))) }
	case reflect.Uint8:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(uint64(*(*uint8)(p))) }
	case reflect.Uint16:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(uint64(*(*uint16)(p))) }
	case reflect.Uint32:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(uint64(*(*uint32)(p))) }
	case reflect.Uint64:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(*(*uint64)(p)) }
	case reflect.Uintptr:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(uint64(*(*uintptr)(p))) }
	case reflect.Float32:
		return func(e *encoder, p unsafe.Pointer) {
			e.room()
			e.uvarint(math.Float64bits(float64(*(*float32)(p))))
		}
	case reflect.Float64:
		return func(e *encoder, p unsafe.Pointer) { e.room(); e.uvarint(math.Float64bits(*(*float64)(p))) }
	case reflect.String:
		return func(e *encoder, p unsafe.Pointer) {
			s := *(*string)(p)
			e.room()
			e.uvarint(uint64(len(s)))
			e.buf = append(e.buf, s...)
		}
	case reflect.Slice:
		et := t.Elem()
		if et.Kind() == reflect.Uint8 {
			return func(e *encoder, p unsafe.Pointer) {
				e.room()
				b := *(*[]byte)(p)
				if b == nil {
					e.uvarint(0)
					return
				}
				e.uvarint(uint64(len(b)) + 1)
				e.buf = append(e.buf, b...) // a nested encoding: copied whole
			}
		}
		ep, size := planOf(et), et.Size()
		return func(e *encoder, p unsafe.Pointer) {
			e.room()
			h := (*sliceHeader)(p)
			if h.data == nil {
				e.uvarint(0)
				return
			}
			e.uvarint(uint64(h.len) + 1)
			for i := range h.len {
				ep.fn(e, unsafe.Add(h.data, uintptr(i)*size))
			}
		}
	case reflect.Array:
		ep, size, n := planOf(t.Elem()), t.Elem().Size(), t.Len()
		return func(e *encoder, p unsafe.Pointer) {
			for i := range n {
				ep.fn(e, unsafe.Add(p, uintptr(i)*size))
			}
		}
	case reflect.Map:
		kt, et := t.Key(), t.Elem()
		kp, ep := planOf(kt), planOf(et)
		return func(e *encoder, p unsafe.Pointer) {
			e.room()
			m := reflect.NewAt(t, p).Elem()
			if m.IsNil() {
				e.uvarint(0)
				return
			}
			e.uvarint(uint64(m.Len()) + 1)
			// One key and one element for all entries, set in place
			// from the iterator: Key and Value would copy each.
			k, v := reflect.New(kt).Elem(), reflect.New(et).Elem()
			kq, vq := k.Addr().UnsafePointer(), v.Addr().UnsafePointer()
			it := m.MapRange()
			for it.Next() {
				k.SetIterKey(it)
				v.SetIterValue(it)
				kp.fn(e, kq)
				ep.fn(e, vq)
			}
		}
	case reflect.Pointer:
		ep, self := planOf(t.Elem()), planOf(t)
		return func(e *encoder, p unsafe.Pointer) {
			e.room()
			q := *(*unsafe.Pointer)(p)
			if q == nil {
				e.uvarint(0)
				return
			}
			k := ptrKey{uintptr(q), self}
			if n, ok := e.ptrs[k]; ok {
				e.uvarint(n)
				return
			}
			n := uint64(len(e.ptrs)) + 1
			e.ptrs[k] = n
			e.uvarint(n)
			ep.fn(e, q)
		}
	case reflect.Struct:
		type field struct {
			off uintptr
			p   *encPlan
		}
		fs := make([]field, t.NumField())
		for i := range fs {
			f := t.Field(i)
			fs[i] = field{f.Offset, planOf(f.Type)}
		}
		return func(e *encoder, p unsafe.Pointer) {
			for _, f := range fs {
				f.p.fn(e, unsafe.Add(p, f.off))
			}
		}
	}
	return func(*encoder, unsafe.Pointer) { panic("cannot encode a " + t.String()) }
}
