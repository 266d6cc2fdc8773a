package materialize

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/memsys/memsys/parse"
)

// naiveRecent is Recent Changes computed the obvious way, over every
// event kept in memory: the reference the digest must match.
func naiveRecent(events []parse.Event, opt Options) (ids []string, more int) {
	opt = opt.withDefaults()
	var newest int64 = -1
	for i := range events {
		if t := events[i].Time; !t.IsZero() && t.Minutes() > newest {
			newest = t.Minutes()
		}
	}
	from := newest - int64(opt.WindowHours)*60
	var idx []int
	for i := range events {
		t := events[i].Time
		if i >= len(events)-opt.WindowEvents || (newest >= 0 && !t.IsZero() && t.Minutes() >= from) {
			idx = append(idx, i)
		}
	}
	slices.Reverse(idx) // newest first by log position
	limit := sectionCaps[SecRecent]
	if len(idx) > limit {
		more = len(idx) - limit
		idx = idx[:limit]
	}
	for _, i := range idx {
		ids = append(ids, events[i].ID)
	}
	return ids, more
}

// FuzzRecentWindow drives the digest with histories whose timestamps
// jump, repeat, go backwards and go missing, and compares its Recent
// Changes with naiveRecent's. Each input byte is one event: its high
// bits choose how far the clock moves.
func FuzzRecentWindow(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint8(48), uint8(20))
	f.Add(make([]byte, 200), uint8(1), uint8(3))
	f.Add([]byte{0xff, 0x80, 0x40, 0x00, 0xc0, 0x10, 0x10, 0x10}, uint8(2), uint8(1))
	f.Fuzz(func(t *testing.T, steps []byte, hours, last uint8) {
		sameWindow(t, historyOf(steps), Options{WindowHours: int(hours), WindowEvents: int(last)})
	})
}

// historyOf turns bytes into events: 0x00-0x3f go back that many hours,
// 0x40-0x7f stay on the same minute, 0x80-0xef go forward, 0xf0 and up
// have no timestamp.
func historyOf(steps []byte) []parse.Event {
	var events []parse.Event
	m := 30 * 24 * 60 // minutes from 2026-01-01
	for i, s := range steps {
		var tm parse.Time
		switch {
		case s < 0x40:
			m -= int(s) * 60
		case s < 0x80:
		case s < 0xf0:
			m += int(s-0x80) * 37
		}
		if s < 0xf0 {
			m = max(m, 0)
			tm = parse.Time{Year: 2026, Month: int8(1 + m/(28*24*60)%12), Day: int8(1 + m/(24*60)%28), Hour: int8(m / 60 % 24), Minute: int8(m % 60)}
		} else {
			tm.Raw = "someday"
		}
		events = append(events, parse.Event{ID: fmt.Sprintf("evt-%03d", i+1), Num: i + 1, Type: "modify", Time: tm})
	}
	return events
}

// TestRecentWindowLong checks the digest against naiveRecent on long
// random histories, where its buffers are cut and pruned many times.
func TestRecentWindowLong(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		steps := make([]byte, 5000)
		for i := range steps {
			// Mostly forward, as real logs go.
			if r.IntN(10) < 8 {
				steps[i] = byte(0x80 + r.IntN(8))
			} else {
				steps[i] = byte(r.IntN(256))
			}
		}
		events := historyOf(steps)
		for _, opt := range []Options{{}, {WindowHours: 1, WindowEvents: 5}, {WindowHours: 2000, WindowEvents: 100}} {
			sameWindow(t, events, opt)
		}
	}
}

// sameWindow fails t when the digest's Recent Changes over events
// differ from naiveRecent's.
func sameWindow(t *testing.T, events []parse.Event, opt Options) {
	t.Helper()
	d := newDigest(opt)
	for i := range events {
		d.observe(&events[i])
	}
	shown, more := d.recent(sectionCaps[SecRecent], parse.Time{})
	var got []string
	for _, b := range shown {
		got = append(got, b.id)
	}
	want, wantMore := naiveRecent(events, opt)
	if !slices.Equal(got, want) || more != wantMore {
		t.Fatalf("%d events, %+v:\ndigest: %v (+%d)\nnaive:  %v (+%d)", len(events), opt, got, more, want, wantMore)
	}
}
