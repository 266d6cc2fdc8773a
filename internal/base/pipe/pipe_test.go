package pipe

import (
	"slices"
	"testing"
)

// TestOrder: every value reaches f exactly once, in order, whether the
// last batch is full, partial or empty.
func TestOrder(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 100} {
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
