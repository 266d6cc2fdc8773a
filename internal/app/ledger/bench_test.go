package ledger

import (
	"io"
	"testing"

	"github.com/memsys/memsys/internal/testkit/loggen"
	"github.com/memsys/memsys/parse"
)

// BenchmarkPlan10k plans the export of a generated 10,000-event log:
// import's CPU work without the file system.
func BenchmarkPlan10k(b *testing.B) {
	src, err := Export(parse.Parse(parse.LogFile, loggen.Generate(10_000, 1)).Events)
	if err != nil {
		b.Fatal(err)
	}
	none := func(int) (string, string, bool) { return "", "", false }
	for b.Loop() {
		if _, err := Plan("ledger.jsonl", src, "evt-001", none, nil, "agent"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExport1k is export's work after the parse: the records and
// their JSON, for the 1k-event log of issue 15's start-up targets.
func BenchmarkExport1k(b *testing.B) {
	events := parse.Parse(parse.LogFile, loggen.Generate(1000, 1)).Events
	for b.Loop() {
		if err := Write(io.Discard, events); err != nil {
			b.Fatal(err)
		}
	}
}
