package parse

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
)

// returnAll is a consumer that is done with every event as soon as it
// has it: the stream reuses memory as early as it ever may.
type returnAll struct{ n int }

func (r *returnAll) Taken() int    { return r.n }
func (r *returnAll) Returned() int { return r.n }

// deepCopy copies e and every slice it shares with the stream's slabs.
func deepCopy(e *Event) Event {
	c := *e
	c.Fields = copyOf(e.Fields)
	c.Details = copyDetails(e.Details)
	c.Scopes = copyOf(e.Scopes)
	c.Tags = copyOf(e.Tags)
	return c
}

// copyOf copies s, keeping nil and empty apart as reflect.DeepEqual does.
func copyOf[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func copyDetails(ds []Detail) []Detail {
	if ds == nil {
		return nil
	}
	out := make([]Detail, len(ds))
	for i, d := range ds {
		d.Children = copyDetails(d.Children)
		out[i] = d
	}
	return out
}

// TestStreamReuse: a stream that reuses the memory of returned events
// hands over the same events as Parse, for logs long enough that every
// slab is reused many times, with events held back before the Event Log
// section and events dropped for a malformed ID; and it did reuse.
func TestStreamReuse(t *testing.T) {
	var before strings.Builder
	before.WriteString("# Changelog\n\n")
	for i := 1; i <= 3*cellSlab; i++ {
		fmt.Fprintf(&before, "### evt-%03d | 2026-01-02 10:00 | a | create\n\n**Scope**: s%d\n**Summary**: held back\n\n", i, i)
	}
	gen := string(loggen.Generate(3*pipelineMin, 11))
	var bad strings.Builder
	for i := range 3 * cellSlab {
		fmt.Fprintf(&bad, "### evt-x%d | 2026-01-02 10:00 | a | create\n\n**Summary**: malformed ID\n\n", i)
	}
	for _, tc := range []struct {
		name string
		src  string
	}{
		{"generated", gen},
		{"generated, sequential", gen},
		{"before the section", before.String() + "## Event Log\n\n" + strings.SplitN(gen, "## Event Log\n", 2)[1]},
		{"no section", before.String()},
		{"malformed IDs", gen + bad.String() + "### evt-999999 | 2026-01-02 10:00 | a | create\n\n**Summary**: last\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []Option
			if strings.HasSuffix(tc.name, "sequential") {
				opts = append(opts, func(c *config) { c.sequential = true })
			}
			want := Parse("CHANGELOG.md", []byte(tc.src), opts...)
			r := &returnAll{}
			var got []Event
			cells := map[*Event]bool{}
			l := Stream("CHANGELOG.md", []byte(tc.src), func(e *Event) {
				r.n++
				got = append(got, deepCopy(e))
				cells[e] = true
			}, append(opts, Reuse(r))...)
			if !reflect.DeepEqual(got, want.Events) || !reflect.DeepEqual(l.Problems, want.Problems) {
				t.Fatalf("Stream with Reuse gave %d events, Parse %d; equal events: %v, equal problems: %v",
					len(got), len(want.Events), reflect.DeepEqual(got, want.Events), reflect.DeepEqual(l.Problems, want.Problems))
			}
			if tc.name != "no section" && len(cells) > len(got)/2 {
				t.Errorf("%d events in %d places: the stream did not reuse them", len(got), len(cells))
			}
		})
	}
}

// TestStreamReuseLast: the event handed over last stays as it was after
// the stream ends, even when many dropped events follow it, so a caller
// may keep it (the caches remember the last event).
func TestStreamReuseLast(t *testing.T) {
	var b strings.Builder
	b.WriteString(string(loggen.Generate(100, 5)))
	for i := range 5 * cellSlab {
		fmt.Fprintf(&b, "### evt-x%d | 2026-01-02 10:00 | a | create\n\n- detail: %d\n\n", i, i)
	}
	r := &returnAll{}
	var last *Event
	var kept Event
	Stream("CHANGELOG.md", []byte(b.String()), func(e *Event) {
		r.n++
		last, kept = e, deepCopy(e)
	}, Reuse(r))
	if last == nil || !reflect.DeepEqual(*last, kept) {
		t.Fatalf("the last event changed after it was handed over: %+v, want %+v", last, kept)
	}
}

// TestStreamReuseLag: a consumer that returns events only long after
// taking them, as the lint Session's goroutines do, never sees an event
// it still holds change.
func TestStreamReuseLag(t *testing.T) {
	src := loggen.Generate(2000, 9)
	want := Parse("CHANGELOG.md", src)
	for _, lag := range []int{1, cellSlab - 1, cellSlab, 3*cellSlab + 5} {
		r := &returnAll{}
		var held []*Event
		var copies []Event
		ok := true
		Stream("CHANGELOG.md", src, func(e *Event) {
			held = append(held, e)
			copies = append(copies, deepCopy(e))
			r.n++
			// Still held: the last lag events, which must not have
			// changed since they were handed over.
			for i := max(0, len(held)-lag); i < len(held); i++ {
				if !reflect.DeepEqual(*held[i], copies[i]) {
					ok = false
				}
			}
		}, Reuse(&lagging{r, lag}))
		if !ok || !reflect.DeepEqual(copies, want.Events) {
			t.Errorf("lag %d: an event changed while its consumer held it", lag)
		}
	}
}

// lagging returns an event only once lag later events were taken.
type lagging struct {
	r   *returnAll
	lag int
}

func (l *lagging) Taken() int    { return l.r.n }
func (l *lagging) Returned() int { return max(0, l.r.n-l.lag) }
