// Package adopt carries a memory kept by hand before memsys into the
// event log: it compares a hand-kept graph.md and context.md's
// hand-written constraints with the replay of the log and writes the
// events that make the replay reproduce them, so regen keeps what the
// team curated instead of wiping it (issue 10).
package adopt
