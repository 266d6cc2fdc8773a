package workspace

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// temps are the temporary files this process has created and not yet
// renamed or removed. A SIGINT (Ctrl-C) or SIGTERM (a timeout, an
// editor stopping its agent) used to end memsys between a WriteFile's
// create and its rename and leave a .memsys-tmp-* file beside the
// target until the next write of the same file. The handler removes
// them before the process dies; SIGKILL cannot be caught, and what it
// leaves the next WriteFile cleans (cleanTemps).
var temps struct {
	sync.Mutex
	names   map[string]struct{}
	handler sync.Once
}

// trackedTemp is createTemp (os.CreateTemp) for a file that is renamed
// over its target: the name is recorded, under the same lock the signal handler
// takes, so no file can be created unrecorded while the handler runs.
// The caller calls tempDone once the file is renamed or removed.
func trackedTemp(dir, pattern string) (*os.File, error) {
	temps.handler.Do(catchSignals)
	temps.Lock()
	defer temps.Unlock()
	f, err := createTemp(dir, pattern)
	if err == nil {
		if temps.names == nil {
			temps.names = map[string]struct{}{}
		}
		temps.names[f.Name()] = struct{}{}
	}
	return f, err
}

// tempDone forgets a temporary file trackedTemp made: it was renamed
// over its target or removed.
func tempDone(name string) {
	temps.Lock()
	delete(temps.names, name)
	temps.Unlock()
}

// catchSignals installs the handler that removes the temporary files
// and then dies of the signal it caught, so the exit status is what it
// was without the handler (a shell sees 130 or 143). A signal the
// process was started with ignored (SIGINT under nohup or in a
// background job of a script) stays ignored: Notify would undo that.
func catchSignals() {
	var sigs []os.Signal
	for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	if len(sigs) == 0 {
		return
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		sig := <-c
		// Held until the process ends: no temporary file is created
		// after this point, and a rename racing the removal fails
		// without touching its target.
		temps.Lock()
		for name := range temps.names {
			os.Remove(name)
		}
		dieOf(sig)
	}()
}
