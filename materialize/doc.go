// Package materialize replays events into the knowledge graph
// (.memory/graph.md) and the context narrative (.memory/context.md).
// It is pure: no file system, no clock, no map-order dependence.
package materialize
