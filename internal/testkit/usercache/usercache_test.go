package usercache

import (
	"os"
	"testing"
)

type fakeM struct {
	run func() int
}

func (f fakeM) Run() int { return f.run() }

// TestIsolated checks that the tests run with XDG_CACHE_HOME at a fresh
// folder, the go command's build cache where it was, the tests' exit
// code passed on, and the folder gone afterwards.
func TestIsolated(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // restored after the test
	t.Setenv("GOCACHE", "")
	before, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	var during string
	code := Isolated(fakeM{func() int {
		during = os.Getenv("XDG_CACHE_HOME")
		if fi, err := os.Stat(during); err != nil || !fi.IsDir() {
			t.Errorf("XDG_CACHE_HOME=%q during the tests: not a folder (%v)", during, err)
		}
		if ents, _ := os.ReadDir(during); len(ents) != 0 {
			t.Errorf("XDG_CACHE_HOME=%q during the tests holds %d entries, want none", during, len(ents))
		}
		if got, want := os.Getenv("GOCACHE"), before+string(os.PathSeparator)+"go-build"; got != want {
			t.Errorf("GOCACHE=%q during the tests, want %q", got, want)
		}
		return 3
	}}).Run()
	if code != 3 {
		t.Errorf("Run returned %d, want the tests' 3", code)
	}
	if during == "" || during == before {
		t.Errorf("XDG_CACHE_HOME=%q during the tests, want a folder other than %q", during, before)
	}
	if _, err := os.Stat(during); !os.IsNotExist(err) {
		t.Errorf("%s still exists after the tests (%v)", during, err)
	}
}
