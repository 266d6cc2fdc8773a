package pipe

import (
	"slices"
	"testing"
)

// TestOrder: every value reaches f exactly once, in order, whether the
// Worker stayed inline or started its goroutine, and whether the last
// batch is full, partial or empty.
func TestOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100, Inline - 1, Inline, Inline + 1, Inline + 8, Inline + 9, 3*Inline + 5} {
		var got []int
		w := Start(8, func(v int) { got = append(got, v) })
		var want []int
		for i := range n {
			w.Add(i)
			want = append(want, i)
		}
		w.Wait()
		if !slices.Equal(got, want) {
			t.Errorf("n=%d: got %v", n, got)
		}
	}
}

// TestInlineThenGoroutine: the first Inline values are applied before
// Add returns (a small log pays no hand-over); later ones only by Wait.
func TestInlineThenGoroutine(t *testing.T) {
	var seen int
	w := Start(8, func(int) { seen++ })
	for i := range Inline {
		w.Add(i)
		if seen != i+1 {
			t.Fatalf("value %d: f applied to %d values, want %d (inline)", i, seen, i+1)
		}
	}
	for i := range 100 {
		w.Add(Inline + i)
	}
	w.Wait()
	if seen != Inline+100 {
		t.Fatalf("after Wait: f applied to %d values, want %d", seen, Inline+100)
	}
}
