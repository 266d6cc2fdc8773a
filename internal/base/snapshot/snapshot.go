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
	e.value(v.Elem())
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
	d.value(settable(v.Elem()))
	if len(d.buf) != 0 {
		return fmt.Errorf("snapshot: %d bytes left over", len(d.buf))
	}
	return nil
}

type ptrKey struct {
	addr uintptr
	typ  reflect.Type
}

type encoder struct {
	buf  []byte
	ptrs map[ptrKey]uint64 // pointers already written, numbered from 1
	// w, when set, takes buf whenever it passes flushAt (EncodeTo);
	// err is its first error.
	w   io.Writer
	err error
}

// flushAt is the most EncodeTo buffers before it writes.
const flushAt = 64 << 10

// EncodeTo writes the encoding of the value p points to to w, the same
// bytes Encode returns, through a buffer of about flushAt bytes: an
// encoding of megabytes is never held whole.
func EncodeTo(w io.Writer, p any) (err error) {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return errors.New("snapshot: EncodeTo needs a non-nil pointer")
	}
	e := &encoder{ptrs: map[ptrKey]uint64{}, w: w, buf: make([]byte, 0, 2*flushAt)}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("snapshot: %v", r)
		}
	}()
	e.value(v.Elem())
	e.flush()
	return e.err
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

func (e *encoder) value(v reflect.Value) {
	if e.w != nil && len(e.buf) >= flushAt {
		e.flush()
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			e.buf = append(e.buf, 1)
		} else {
			e.buf = append(e.buf, 0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.varint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.uvarint(v.Uint())
	case reflect.Float32, reflect.Float64:
		e.uvarint(math.Float64bits(v.Float()))
	case reflect.String:
		s := v.String()
		e.uvarint(uint64(len(s)))
		e.buf = append(e.buf, s...)
	case reflect.Slice:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		e.uvarint(uint64(v.Len()) + 1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.buf = append(e.buf, v.Bytes()...) // a nested encoding: copied whole
			return
		}
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.value(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		e.uvarint(uint64(v.Len()) + 1)
		it := v.MapRange()
		for it.Next() {
			e.value(it.Key())
			e.value(it.Value())
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		k := ptrKey{v.Pointer(), v.Type()}
		if n, ok := e.ptrs[k]; ok {
			e.uvarint(n)
			return
		}
		n := uint64(len(e.ptrs)) + 1
		e.ptrs[k] = n
		e.uvarint(n)
		e.value(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			e.value(v.Field(i))
		}
	default:
		panic("cannot encode a " + v.Type().String())
	}
}

type decoder struct {
	buf  []byte
	ptrs []reflect.Value // by number - 1
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

// settable returns v (addressable) in a form whose unexported fields
// can be set.
func settable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

func (d *decoder) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		if len(d.buf) == 0 {
			panic("short data")
		}
		v.SetBool(d.buf[0] == 1)
		d.buf = d.buf[1:]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(d.varint())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(d.uvarint())
	case reflect.Float32, reflect.Float64:
		v.SetFloat(math.Float64frombits(d.uvarint()))
	case reflect.String:
		n := d.length(d.uvarint()+1) - 1
		if n > 0 {
			// Shares data's memory (Decode's contract): a 100k-event
			// replay state holds hundreds of thousands of strings.
			v.SetString(unsafe.String(&d.buf[0], n))
		} else {
			v.SetString("")
		}
		d.buf = d.buf[n:]
	case reflect.Slice:
		n := d.length(d.uvarint())
		if n == 0 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(v.Type(), n-1, n-1)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			copy(s.Bytes(), d.buf[:n-1])
			d.buf = d.buf[n-1:]
			v.Set(s)
			return
		}
		for i := range n - 1 {
			d.value(s.Index(i))
		}
		v.Set(s)
	case reflect.Array:
		for i := range v.Len() {
			d.value(settable(v.Index(i)))
		}
	case reflect.Map:
		n := d.length(d.uvarint())
		if n == 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n-1)
		// One key and one element for all entries: SetMapIndex copies
		// them, and value sets every part of them each time.
		k := reflect.New(v.Type().Key()).Elem()
		e := reflect.New(v.Type().Elem()).Elem()
		for range n - 1 {
			d.value(k)
			d.value(e)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Pointer:
		n := d.uvarint()
		switch {
		case n == 0:
			v.SetZero()
		case n <= uint64(len(d.ptrs)):
			p := d.ptrs[n-1]
			if p.Type() != v.Type() {
				panic("pointer of the wrong type")
			}
			v.Set(p)
		case n == uint64(len(d.ptrs))+1:
			p := reflect.New(v.Type().Elem())
			d.ptrs = append(d.ptrs, p)
			d.value(p.Elem())
			v.Set(p)
		default:
			panic("pointer out of order")
		}
	case reflect.Struct:
		for i := range v.NumField() {
			d.value(settable(v.Field(i)))
		}
	default:
		panic("cannot decode a " + v.Type().String())
	}
}
