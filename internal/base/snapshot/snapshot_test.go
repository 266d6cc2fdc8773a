package snapshot

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
)

type node struct {
	name  string
	attrs []string
	n     int
}

type key struct{ a, b string }

type state struct {
	nodes   []*node
	index   map[string]*node
	byNode  map[*node]int
	keys    map[key]*node
	empty   []int
	none    []int
	emptyM  map[string]bool
	f       float64
	ok      bool
	arr     [2]uint8
	Public  string
	nothing *node
	raw     []byte
}

func sample() *state {
	a := &node{name: "a", attrs: []string{"x", ""}, n: -3}
	b := &node{name: "b"}
	return &state{
		nodes:  []*node{a, b},
		index:  map[string]*node{"a": a, "B": b},
		byNode: map[*node]int{a: 1, b: 2},
		keys:   map[key]*node{{"a", "b"}: a},
		empty:  []int{},
		emptyM: map[string]bool{},
		f:      1.5, ok: true, arr: [2]uint8{7, 9}, Public: "p", raw: []byte("bytes\x00\xff"),
	}
}

func TestRoundTrip(t *testing.T) {
	in := sample()
	data, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	var out state
	if err := Decode(data, &out); err != nil {
		t.Fatal(err)
	}
	// Maps keyed by pointers compare by address; they are checked
	// below, through the decoded nodes.
	byIn, byOut := in.byNode, out.byNode
	in.byNode, out.byNode = nil, nil
	if !reflect.DeepEqual(in, &out) {
		t.Fatalf("round trip changed the value:\n%+v\n%+v", in, &out)
	}
	out.byNode = byOut
	if len(byIn) != len(byOut) || byOut[out.nodes[0]] != 1 || byOut[out.nodes[1]] != 2 {
		t.Errorf("pointer-keyed map: %v", byOut)
	}
	// Sharing survives: the node in the list, the index and the map
	// keys is one node.
	if out.nodes[0] != out.index["a"] || out.keys[key{"a", "b"}] != out.nodes[0] {
		t.Error("shared pointers decoded as copies")
	}
	if _, ok := out.byNode[out.nodes[1]]; !ok {
		t.Error("pointer map keys do not match the decoded nodes")
	}
	if out.empty == nil || out.none != nil || out.emptyM == nil {
		t.Error("nil and empty are not kept apart")
	}
}

func TestRefusals(t *testing.T) {
	if _, err := Encode(&struct{ f func() }{}); err == nil {
		t.Error("a func field encoded")
	}
	if _, err := Encode(&struct{ i any }{i: 1}); err == nil {
		t.Error("an interface field encoded")
	}
	data, _ := Encode(sample())
	for _, cut := range []int{0, 1, len(data) / 2, len(data) - 1} {
		var s state
		if err := Decode(data[:cut], &s); err == nil {
			t.Errorf("data cut at %d of %d decoded", cut, len(data))
		}
	}
	var s state
	if err := Decode(append(data, 0), &s); err == nil {
		t.Error("trailing bytes accepted")
	}
}

func FuzzDecode(f *testing.F) {
	data, _ := Encode(sample())
	f.Add(data)
	f.Fuzz(func(t *testing.T, b []byte) {
		var s state
		if Decode(b, &s) == nil {
			// Whatever decodes encodes again.
			if _, err := Encode(&s); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestTail: the tail comes back as written, the head decodes, and a
// cut or damaged length is an error, never a panic.
func TestTail(t *testing.T) {
	type head struct {
		A int
		B string
	}
	data, err := EncodeTail(&head{7, "x"}, []byte("tail bytes"))
	if err != nil {
		t.Fatal(err)
	}
	var h head
	tail, err := DecodeTail(data, &h)
	if err != nil || h != (head{7, "x"}) || string(tail) != "tail bytes" {
		t.Fatalf("got %+v %q %v", h, tail, err)
	}
	for _, bad := range [][]byte{nil, {0xff}, data[:2], append([]byte{0x7f}, data[1:]...)} {
		if _, err := DecodeTail(bad, &h); err == nil {
			t.Errorf("%x: no error", bad)
		}
	}
}

// TestEncodeTo checks that EncodeTo writes the bytes Encode returns,
// across many flushes, and reports the writer's error.
func TestEncodeTo(t *testing.T) {
	type row struct {
		s string
		n int
		b []byte
	}
	var rows []row
	for i := range 50000 {
		rows = append(rows, row{s: strings.Repeat("x", i%97), n: -i, b: []byte{byte(i)}})
	}
	long := []row{{s: "a"}, {s: strings.Repeat("y", 3*flushAt)}}
	for _, v := range []any{&rows, &long, &[]row{}, sample().nodes[0]} {
		want, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := EncodeTo(&got, v); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("EncodeTo wrote %d bytes, Encode returns %d", got.Len(), len(want))
		}
	}
	if err := EncodeTo(failWriter{}, &rows); err == nil {
		t.Error("EncodeTo hid the writer's error")
	}
	if err := EncodeTo(&bytes.Buffer{}, &struct{ f func() }{}); err == nil {
		t.Error("EncodeTo encoded a func")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestDecodeConcurrent decodes values of types no plan exists for yet
// from many goroutines at once, a recursive one among them: none may
// find a plan before it is complete.
func TestDecodeConcurrent(t *testing.T) {
	type list struct {
		v    string
		next *list
	}
	type fresh struct {
		l *list
		m map[string][]int
	}
	in := &fresh{l: &list{v: "a", next: &list{v: "b"}}, m: map[string][]int{"x": {1, 2}}}
	data, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			var out fresh
			if err := Decode(data, &out); err != nil {
				t.Error(err)
				return
			}
			if !reflect.DeepEqual(in, &out) {
				t.Error("decoded value differs")
			}
		})
	}
	wg.Wait()
}

// reflectValue is the encoder as it was before the plans (encPlan):
// every value walked through reflect.Value. TestPlansMatchReflect holds
// the plans to its bytes.
func (e *encoder) reflectValue(v reflect.Value) {
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
			e.reflectValue(v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			e.reflectValue(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		e.uvarint(uint64(v.Len()) + 1)
		it := v.MapRange()
		for it.Next() {
			e.reflectValue(it.Key())
			e.reflectValue(it.Value())
		}
	case reflect.Pointer:
		if v.IsNil() {
			e.uvarint(0)
			return
		}
		k := ptrKey{v.Pointer(), encPlanOf(v.Type())}
		if n, ok := e.ptrs[k]; ok {
			e.uvarint(n)
			return
		}
		n := uint64(len(e.ptrs)) + 1
		e.ptrs[k] = n
		e.uvarint(n)
		e.reflectValue(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			e.reflectValue(v.Field(i))
		}
	default:
		panic("cannot encode a " + v.Type().String())
	}
}

// TestPlansMatchReflect encodes values of every kind the codec takes
// through the plans and through reflectValue: the same bytes. Maps of
// more than one entry are left to the round trips (their order is
// Go's).
func TestPlansMatchReflect(t *testing.T) {
	type inner struct {
		f32 float32
		u8  uint8
		i16 int16
		up  uintptr
		m   map[string]int
	}
	type outer struct {
		in    inner
		ins   []inner
		arr   [3]*inner
		self  *outer
		bs    []byte
		nilBs []byte
		empty []string
		ss    []string
		u16   uint16
		u32   uint32
		i8    int8
		i32   int32
		i64   int64
		u     uint
		b     bool
	}
	shared := &inner{f32: 1.25, m: map[string]int{"one": 1}}
	o := &outer{
		in:  inner{f32: -0.5, u8: 200, i16: -300, up: 7, m: map[string]int{}},
		ins: []inner{{u8: 1}, {m: map[string]int{"k": -1}}},
		arr: [3]*inner{shared, nil, shared},
		bs:  []byte("nested\x00"), empty: []string{}, ss: []string{"", "a", strings.Repeat("é", 300)},
		u16: 65535, u32: 1 << 31, i8: -128, i32: -1 << 31, i64: -1 << 62, u: 1 << 40, b: true,
	}
	o.self = o
	for _, v := range []any{o, &outer{}, sample().nodes[0], &[]*node{sample().nodes[0], sample().nodes[0]}} {
		got, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		e := &encoder{ptrs: map[ptrKey]uint64{}}
		e.reflectValue(reflect.ValueOf(v).Elem())
		if !bytes.Equal(got, e.buf) {
			t.Errorf("%T: plans wrote %x\nreflect wrote %x", v, got, e.buf)
		}
	}
}
