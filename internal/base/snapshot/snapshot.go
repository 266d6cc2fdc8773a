// Package snapshot encodes a value graph (structs, unexported fields
// included, maps, slices, pointers with their sharing) to bytes and
// back. It is how materialize's Replayer serializes itself for the
// history cache: every field of the replay state is covered by
// construction, so state added to the Replayer later is checkpointed
// without anyone listing it, and a type the codec cannot encode (a
// func, a channel, an interface) makes Encode fail, which turns the
// cache off rather than lose state silently.
//
// The encoding is private to one build of memsys: the cache keys
// include the build, so no format is ever read by another version.
package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"unsafe"
)

// Encode appends the encoding of the value p points to.
func Encode(p any) (out []byte, err error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, errors.New("snapshot: Encode needs a non-nil pointer")
	}
	e := &encoder{ptrs: map[ptrKey]uint64{}}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("snapshot: %v", r)
		}
	}()
	encPlanOf(v.Type().Elem()).fn(e, v.UnsafePointer())
	return e.buf, nil
}

// Decode sets the value p points to from data written by Encode for a
// value of the same type. Strings in the result share memory with
// data (one allocation for all of them, not one each), so the caller
// must not modify data afterwards.
func Decode(data []byte, p any) (err error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return errors.New("snapshot: Decode needs a non-nil pointer")
	}
	d := &decoder{buf: data}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("snapshot: corrupt data: %v", r)
		}
	}()
	planOf(v.Type().Elem()).fn(d, v.UnsafePointer())
	if len(d.buf) != 0 {
		return fmt.Errorf("snapshot: %d bytes left over", len(d.buf))
	}
	return nil
}

// ptrKey names a pointer the encoder has written: its address and the
// plan of its type (one plan per type), since a struct and its first
// field share an address. Two words hash at memory speed, where a
// reflect.Type (an interface) cost a type hash at every pointer.
type ptrKey struct {
	addr uintptr
	plan *encPlan
}

type encoder struct {
	buf  []byte
	ptrs map[ptrKey]uint64 // pointers already written, numbered from 1
	// w, when set, takes buf whenever it passes flushAt (EncodeTo);
	// err is its first error.
	w     io.Writer
	err   error
	limit int // room's bound on len(buf) (makeRoom)
}

// flushAt is the most EncodeTo buffers before it writes.
const flushAt = 64 << 10

// firstBuf is the buffer EncodeTo starts with: most encodings it
// makes are small (a few findings), and the buffer doubles from there
// up to flushAt. Grown by append instead, beyond
// 256 bytes a slice grows by a quarter at a time, and all the copies
// of a buffer of 64 KB add up to five times its size.
const firstBuf = 4 << 10

// slack is the room left at the end of a buffer before a value is
// encoded into it: every value but a string or a byte slice takes at
// most a varint.
const slack = 64

// EncodeTo writes the encoding of the value p points to to w, the same
// bytes Encode returns, through a buffer of about flushAt bytes: an
// encoding of megabytes is never held whole.
func EncodeTo(w io.Writer, p any) (err error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return errors.New("snapshot: EncodeTo needs a non-nil pointer")
	}
	e := &encoder{ptrs: map[ptrKey]uint64{}, w: w, buf: make([]byte, 0, firstBuf)}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("snapshot: %v", r)
		}
	}()
	encPlanOf(v.Type().Elem()).fn(e, v.UnsafePointer())
	e.flush()
	return e.err
}

// room makes room for the next value in the buffer (see makeRoom): a
// test the compiler inlines into every plan.
func (e *encoder) room() {
	if len(e.buf)+slack > e.limit {
		e.makeRoom()
	}
}

// makeRoom makes room for the next value in the buffer: a full buffer
// doubles (one copy of what it holds), up to flushAt for EncodeTo,
// which then writes a full one. Grown by append instead, a buffer
// beyond 256 bytes grows by a quarter at a time, and the copies add up
// to five times its final size. It sets limit, the length past which
// room calls it again (a string appended may have grown the buffer
// since).
func (e *encoder) makeRoom() {
	streaming := e.w != nil
	limit := cap(e.buf)
	if streaming {
		limit = min(limit, flushAt)
	}
	switch {
	case len(e.buf)+slack <= limit:
	case !streaming || len(e.buf)+slack <= flushAt:
		n := max(2*cap(e.buf), 256)
		if streaming {
			n = min(n, flushAt)
		}
		b := make([]byte, len(e.buf), n)
		copy(b, e.buf)
		e.buf, limit = b, n
	default:
		e.flush()
	}
	e.limit = limit
}

// flush hands the buffer to the writer.
func (e *encoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) uvarint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }
func (e *encoder) varint(x int64)   { e.buf = binary.AppendVarint(e.buf, x) }

type decoder struct {
	buf  []byte
	ptrs []decoded // by number - 1
}

// decoded is a pointer the decoder made, with its type.
type decoded struct {
	p unsafe.Pointer
	t reflect.Type
}

func (d *decoder) uvarint() uint64 {
	x, n := binary.Uvarint(d.buf)
	if n <= 0 {
		panic("bad varint")
	}
	d.buf = d.buf[n:]
	return x
}

func (d *decoder) varint() int64 {
	x, n := binary.Varint(d.buf)
	if n <= 0 {
		panic("bad varint")
	}
	d.buf = d.buf[n:]
	return x
}

// length reads a length and checks it against what is left, so corrupt
// data cannot make the decoder allocate without bound.
func (d *decoder) length(x uint64) int {
	if x > uint64(len(d.buf))+1 {
		panic("length past the end")
	}
	return int(x)
}

// A plan decodes one type into the memory at p, which holds a value of
// that type. Plans are built once per type (planOf) and write fields
// through unsafe pointers: going through reflect.Value for every field
// of every node was most of the cost of decoding a replay state of a
// long log, which every resumed run pays. Every store is a typed store
// (the compiler adds the write barriers), and a plan writes every part
// of the value, so a reused map key or element never keeps a stale
// field.
type plan = planned[func(d *decoder, p unsafe.Pointer)]

// decPlans holds the decoder's plans (build).
var decPlans = &planSet[func(d *decoder, p unsafe.Pointer)]{build: build}

// planOf returns the plan of t, building it (and those of the types it
// holds) on first use.
func planOf(t reflect.Type) *plan { return decPlans.of(t) }

// sliceHeader is the layout of every slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

func build(t reflect.Type, planOf func(reflect.Type) *plan) func(d *decoder, p unsafe.Pointer) {
	switch t.Kind() {
	case reflect.Bool:
		return func(d *decoder, p unsafe.Pointer) {
			if len(d.buf) == 0 {
				panic("short data")
			}
			*(*bool)(p) = d.buf[0] == 1
			d.buf = d.buf[1:]
		}
	case reflect.Int:
		return func(d *decoder, p unsafe.Pointer) { *(*int)(p) = int(d.varint()) }
	case reflect.Int8:
		return func(d *decoder, p unsafe.Pointer) { *(*int8)(p) = int8(d.varint()) }
	case reflect.Int16:
		return func(d *decoder, p unsafe.Pointer) { *(*int16)(p) = int16(d.varint()) }
	case reflect.Int32:
		return func(d *decoder, p unsafe.Pointer) { *(*int32)(p) = int32(d.varint()) }
	case reflect.Int64:
		return func(d *decoder, p unsafe.Pointer) { *(*int64)(p) = d.varint() }
	case reflect.Uint:
		return func(d *decoder, p unsafe.Pointer) { *(*uint)(p) = uint(d.uvarint()) }
	case reflect.Uint8:
		return func(d *decoder, p unsafe.Pointer) { *(*uint8)(p) = uint8(d.uvarint()) }
	case reflect.Uint16:
		return func(d *decoder, p unsafe.Pointer) { *(*uint16)(p) = uint16(d.uvarint()) }
	case reflect.Uint32:
		return func(d *decoder, p unsafe.Pointer) { *(*uint32)(p) = uint32(d.uvarint()) }
	case reflect.Uint64:
		return func(d *decoder, p unsafe.Pointer) { *(*uint64)(p) = d.uvarint() }
	case reflect.Uintptr:
		return func(d *decoder, p unsafe.Pointer) { *(*uintptr)(p) = uintptr(d.uvarint()) }
	case reflect.Float32:
		return func(d *decoder, p unsafe.Pointer) { *(*float32)(p) = float32(math.Float64frombits(d.uvarint())) }
	case reflect.Float64:
		return func(d *decoder, p unsafe.Pointer) { *(*float64)(p) = math.Float64frombits(d.uvarint()) }
	case reflect.String:
		return func(d *decoder, p unsafe.Pointer) {
			n := d.length(d.uvarint()+1) - 1
			if n > 0 {
				// Shares data's memory (Decode's contract): a 100k-event
				// replay state holds hundreds of thousands of strings.
				*(*string)(p) = unsafe.String(&d.buf[0], n)
			} else {
				*(*string)(p) = ""
			}
			d.buf = d.buf[n:]
		}
	case reflect.Slice:
		et := t.Elem()
		if et.Kind() == reflect.Uint8 {
			return func(d *decoder, p unsafe.Pointer) {
				n := d.length(d.uvarint())
				h := (*sliceHeader)(p)
				if n == 0 {
					h.data, h.len, h.cap = nil, 0, 0
					return
				}
				b := make([]byte, n-1)
				copy(b, d.buf[:n-1])
				d.buf = d.buf[n-1:]
				h.data, h.len, h.cap = unsafe.Pointer(unsafe.SliceData(b)), n-1, n-1
			}
		}
		ep, size := planOf(et), et.Size()
		return func(d *decoder, p unsafe.Pointer) {
			n := d.length(d.uvarint())
			h := (*sliceHeader)(p)
			if n == 0 {
				h.data, h.len, h.cap = nil, 0, 0
				return
			}
			s := reflect.MakeSlice(t, n-1, n-1)
			base := s.UnsafePointer()
			for i := range n - 1 {
				ep.fn(d, unsafe.Add(base, uintptr(i)*size))
			}
			h.data, h.len, h.cap = base, n-1, n-1
		}
	case reflect.Array:
		ep, size, n := planOf(t.Elem()), t.Elem().Size(), t.Len()
		return func(d *decoder, p unsafe.Pointer) {
			for i := range n {
				ep.fn(d, unsafe.Add(p, uintptr(i)*size))
			}
		}
	case reflect.Map:
		kt, et := t.Key(), t.Elem()
		kp, ep := planOf(kt), planOf(et)
		return func(d *decoder, p unsafe.Pointer) {
			n := d.length(d.uvarint())
			if n == 0 {
				*(*unsafe.Pointer)(p) = nil
				return
			}
			m := reflect.MakeMapWithSize(t, n-1)
			// One key and one element for all entries: SetMapIndex
			// copies them, and the plans set every part of them each
			// time.
			k, e := reflect.New(kt), reflect.New(et)
			kv, ev := k.Elem(), e.Elem()
			for range n - 1 {
				kp.fn(d, k.UnsafePointer())
				ep.fn(d, e.UnsafePointer())
				m.SetMapIndex(kv, ev)
			}
			*(*unsafe.Pointer)(p) = m.UnsafePointer()
		}
	case reflect.Pointer:
		et := t.Elem()
		ep := planOf(et)
		return func(d *decoder, p unsafe.Pointer) {
			n := d.uvarint()
			switch {
			case n == 0:
				*(*unsafe.Pointer)(p) = nil
			case n <= uint64(len(d.ptrs)):
				q := d.ptrs[n-1]
				if q.t != t {
					panic("pointer of the wrong type")
				}
				*(*unsafe.Pointer)(p) = q.p
			case n == uint64(len(d.ptrs))+1:
				q := reflect.New(et).UnsafePointer()
				d.ptrs = append(d.ptrs, decoded{q, t})
				ep.fn(d, q)
				*(*unsafe.Pointer)(p) = q
			default:
				panic("pointer out of order")
			}
		}
	case reflect.Struct:
		type field struct {
			off uintptr
			p   *plan
		}
		fs := make([]field, t.NumField())
		for i := range fs {
			f := t.Field(i)
			fs[i] = field{f.Offset, planOf(f.Type)}
		}
		return func(d *decoder, p unsafe.Pointer) {
			for _, f := range fs {
				f.p.fn(d, unsafe.Add(p, f.off))
			}
		}
	}
	return func(*decoder, unsafe.Pointer) { panic("cannot decode a " + t.String()) }
}
