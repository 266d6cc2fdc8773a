// Package recall builds the recall pack of `memsys recall` and the MCP
// tool memsys_recall: what an agent about to touch some entities needs
// to know about them (seed 000's "trigger-based expansion": about to
// work on X, load what is known about X), cut to a word budget.
//
// The pack is a pure function of the replayed graph and the events the
// graph names (Build); where the graph and the events come from is the
// job of Open, which reads the memory through workspace. Open takes the
// graph from .memory/graph.md when its event horizon is the last event
// (the seed's Staleness Check: "match → use directly") and it is what
// regen writes now (memory.GraphFresh: status's verdict, from the
// history cache's head or the file's seal), and replays the history
// otherwise: a horizon alone misses an event edited in place. It finds the few events the pack cites by their headings
// instead of parsing the whole log, which is what keeps recall on a
// 100k-event log a small fraction of a lint.
package recall
