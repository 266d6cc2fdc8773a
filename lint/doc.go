// Package lint checks a memory: every integrity rule of the seed's
// Validation Checklist, with stable rule IDs, exact positions and four
// output formats.
//
// A Rule is one value in a registry ordered by ID; each lives in its own
// file named by its ID (ms101.go). MS1xx rules check the event log,
// MS2xx rules the derived files, MS3xx rules the append-only history in
// git. Rules see the memory only through the Pass they are handed,
// never the file system or git, so each is tested with a hand-built
// parse.Log (the shape of golang.org/x/tools/go/analysis).
//
// Rules must be linear in the number of events: duplicates and refs use
// maps, never nested loops, so lint of a 100k-event log costs about what
// parsing and replaying it costs.
package lint
