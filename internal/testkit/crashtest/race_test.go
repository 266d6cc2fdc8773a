//go:build unix

package crashtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// TestRace runs 32 appends at once, mixed with regens and lints, on one
// repository: every event lands exactly once, IDs stay consecutive,
// readers never see a half-written derived file, and the derived files
// end current.
func TestRace(t *testing.T) {
	const (
		base    = 2000
		appends = 32
		regens  = 4
		lints   = 4
	)
	dir := newRepo(t, base)

	var wg sync.WaitGroup
	errs := make(chan string, appends+regens+lints+1)
	startGate := make(chan struct{})
	for i := range appends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startGate
			args := []string{"append", "--type", "test", "--scope", "race",
				"--summary", "race append " + strconv.Itoa(i), "--agent", "racer-" + strconv.Itoa(i),
				"--detail", "target=race", "--detail", "result=pass", "--time", "2099-01-01 00:00"}
			if i%2 == 0 {
				args = append(args, "--regen")
			}
			if r := run(t, dir, args...); r.code != 0 {
				errs <- fmt.Sprintf("append %d: %s", i, r)
			}
		}()
	}
	for i := range regens {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startGate
			if r := run(t, dir, "regen"); r.code != 0 {
				errs <- fmt.Sprintf("regen %d: %s", i, r)
			}
		}()
	}
	for i := range lints {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-startGate
			// 1 is fine mid-race (derived files a moment behind the
			// log); 2 or a crash is not.
			if r := run(t, dir, "lint"); r.code != 0 && r.code != 1 {
				errs <- fmt.Sprintf("lint %d: %s", i, r)
			}
		}()
	}
	// A reader that keeps loading the derived files: thanks to atomic
	// renames it must only ever see whole files.
	stop := make(chan struct{})
	var readerWG sync.WaitGroup
	readerWG.Add(1)
	reads := 0
	go func() {
		defer readerWG.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			for _, f := range []string{".memory/graph.md", ".memory/context.md"} {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					errs <- fmt.Sprintf("reading %s mid-race: %v", f, err)
					return
				}
				if !wholeDerived(f, b) {
					errs <- fmt.Sprintf("%s mid-race is not a whole file (%d bytes)", f, len(b))
					return
				}
				reads++
			}
		}
	}()
	close(startGate)
	wg.Wait()
	close(stop)
	readerWG.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	t.Logf("the reader loaded %d whole derived files mid-race", reads)

	log := parse.Parse("CHANGELOG.md", read(t, dir, "CHANGELOG.md"))
	if len(log.Problems) > 0 {
		t.Errorf("log after the race has problems, first: %s", log.Problems[0])
	}
	if got, want := len(log.Events), base+appends; got != want {
		t.Fatalf("%d events after the race, want %d", got, want)
	}
	seen := map[string]int{}
	for i, e := range log.Events {
		if e.ID != loggen.ID(i+1) {
			t.Errorf("event %d has ID %s, want %s", i+1, e.ID, loggen.ID(i+1))
		}
		if i >= base {
			seen[e.Summary]++
		}
	}
	for i := range appends {
		if s := "race append " + strconv.Itoa(i); seen[s] != 1 {
			t.Errorf("%q landed %d times", s, seen[s])
		}
	}
	// Every append --regen and every regen regenerates under the lock
	// from the log as it then is; whichever ran last saw every event
	// that had landed before it, but a plain append may land after it.
	// So: current after one more regen, and regen --check agrees.
	mustRun(t, dir, "regen")
	if r := run(t, dir, "regen", "--check"); r.code != 0 {
		t.Errorf("regen --check after the race: %s", r)
	}
	if r := run(t, dir, "lint"); r.code != 0 {
		t.Errorf("lint after the race: %s", r)
	}
}

// wholeDerived reports whether b looks like a complete derived file:
// graph.md ends with its Meta section, context.md with a newline after
// its first-line horizon comment; a torn write would cut either.
func wholeDerived(name string, b []byte) bool {
	if len(b) == 0 || b[len(b)-1] != '\n' {
		return false
	}
	if filepath.Base(name) == "graph.md" {
		i := bytes.LastIndex(b, []byte("## Meta"))
		return i >= 0 && bytes.Contains(b[i:], []byte("- **Edges**:"))
	}
	return bytes.Contains(b, []byte("Event horizon:"))
}
