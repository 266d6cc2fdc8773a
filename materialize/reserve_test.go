package materialize

import (
	"bytes"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestReserveSameFiles: Reserve only makes room. A Replayer told the
// history's size (the right one, a far too small and a far too large
// one) writes the same sealed files as one that was not; and Reserve
// after the first event leaves the replay as it is, so calling it late
// loses nothing replayed.
func TestReserveSameFiles(t *testing.T) {
	for _, sem := range []bool{false, true} {
		src := loggen.Generate(1000, 3)
		if sem {
			src = loggen.GenerateSemantic(1000, 3)
		}
		log := parse.Parse(parse.LogFile, src)
		replay := func(reserve func(x *Replayer, i int)) (g, c []byte) {
			x := NewReplayer(DefaultOptions())
			for i := range log.Events {
				reserve(x, i)
				x.Apply(&log.Events[i])
			}
			return x.Files()
		}
		wg, wc := replay(func(*Replayer, int) {})
		for name, reserve := range map[string]func(*Replayer, int){
			"size":       func(x *Replayer, i int) { x.Reserve(len(src)) },
			"small":      func(x *Replayer, i int) { x.Reserve(64 * bytesPerEvent) },
			"large":      func(x *Replayer, i int) { x.Reserve(1 << 40) },
			"every time": func(x *Replayer, i int) { x.Reserve(len(src)) },
			"late":       func(x *Replayer, i int) { x.Reserve(len(src) * min(i, 1)) },
		} {
			if name != "every time" && name != "late" {
				r := reserve
				reserve = func(x *Replayer, i int) {
					if i == 0 {
						r(x, i)
					}
				}
			}
			g, c := replay(reserve)
			if !bytes.Equal(g, wg) || !bytes.Equal(c, wc) {
				t.Errorf("semantic=%v, Reserve %s: the files differ from a replay without it", sem, name)
			}
		}
	}
}
