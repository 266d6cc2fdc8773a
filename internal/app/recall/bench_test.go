package recall

import (
	"github.com/memsys/memsys/internal/base/config"
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/internal/app/memory"
	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// memoryOf writes a full-tier memory of the generated n-event log, with
// its derived files regenerated.
func memoryOf(tb testing.TB, n int) string {
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, parse.LogFile), loggen.Generate(n, 1), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, parse.TodoFile), []byte("# TODO\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if _, err := memory.Regen(dir, config.Default(), true); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// BenchmarkRecallHub recalls the busiest node of a 100k-event memory
// (the worst case for the pack's size); for a profile of recall alone.
func BenchmarkRecallHub(b *testing.B) {
	dir := memoryOf(b, 100_000)
	for b.Loop() {
		if _, err := Recall(dir, Query{Entities: []string{"protobuf"}, Depth: 1, Budget: DefaultBudget}); err != nil {
			b.Fatal(err)
		}
	}
}
