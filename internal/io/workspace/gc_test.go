package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	for _, tc := range []struct {
		name    string
		log     int // bytes of CHANGELOG.md, -1 for none
		archive int
		gogc    string
		want    int // the GC percent after TuneGC
	}{
		{name: "small log", log: 300 << 10, want: smallMemoryGC},
		{name: "no log", log: -1, want: smallMemoryGC},
		{name: "large log", log: smallMemory, want: 100},
		{name: "log and archive over the bound", log: smallMemory / 2, archive: smallMemory / 2, want: 100},
		{name: "GOGC set", log: 10, gogc: "100", want: 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			old := debug.SetGCPercent(100)
			t.Cleanup(func() { debug.SetGCPercent(old) })
			root := t.TempDir()
			if tc.log >= 0 {
				if err := os.WriteFile(filepath.Join(root, LogName), bytes.Repeat([]byte("x"), tc.log), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.archive > 0 {
				if err := os.WriteFile(filepath.Join(root, ArchiveNames[0]), bytes.Repeat([]byte("x"), tc.archive), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			raised := TuneGC(root)
			if got := debug.SetGCPercent(100); got != tc.want || raised != (tc.want == smallMemoryGC) {
				t.Fatalf("TuneGC = %v, GC percent %d; want %d", raised, got, tc.want)
			}
		})
	}
}
