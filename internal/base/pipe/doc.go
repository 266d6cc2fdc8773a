// Package pipe runs a function over a stream of values on a goroutine
// of its own, so that producing the values (parsing a log) and using
// them (replaying it, linting it) overlap on two cores. Values are handed
// over in batches: a channel operation per value would cost more than
// the work on many of them. A short stream (Inline values) never leaves
// the caller's goroutine: there the hand-over costs more than it saves.
package pipe
