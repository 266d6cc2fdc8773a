// Package lint checks a memory: every integrity rule of the seed's
// Validation Checklist, with stable rule IDs, exact positions and four
// output formats.
//
// A Rule is one value in a registry ordered by ID; each lives in its own
// file named by its ID (ms101.go). MS1xx rules check the event log,
// MS2xx rules the derived files, MS3xx rules the append-only history in
// git. Rules see the memory only through the Pass they are handed,
// never the file system or git, so each is tested with a hand-built
// parse.Log (the shape of golang.org/x/tools/go/analysis). The history
// rules read git through Pass.Git, a small interface (a blob at a
// revision, shallow or not) that gitx implements and tests fake. Every
// rule's severity comes from its Pass, and a rule declares whether
// lint --fix repairs it (Rule.Fix).
//
// The history reaches the rules as a stream (a Session fed by
// parse.Stream; Check feeds one from a slice), so lint never holds every
// parsed event. A rule that looks at events is a Visit: it sees each
// event once, in order, and keeps only what it needs across events (the
// highest ID so far, refs to events not seen yet, the spellings of
// entity names) in the struct its Visitor.State points to, so that a
// Session can be checkpointed after the last event and resumed after an
// append (Session.Checkpoint, Linter.Resume); its Visitor.End reports
// what only the end of the history decides. A rule about the memory as a whole (files,
// configuration, the last event) is a Run, called after the stream.
// Visitors must be linear in the number of events: maps, never nested
// loops, so lint of a 100k-event log costs about what parsing and
// replaying it costs. The visitors and the drift rules' replay run on a
// goroutine of their own (internal/base/pipe), beside the parser feeding the
// Session.
package lint
