// Package materialize replays events into the knowledge graph
// (.memory/graph.md) and the context narrative (.memory/context.md):
// the seed's materialization table and regeneration algorithm made
// exact. docs/materialize.md is the rules reference; every rule and
// awkward case there has a table test here.
//
// It is pure: no file system, no clock, no map-order dependence. Rows
// keep creation order, sorts are stable with explicit tie-breaks, and
// the context window counts back from the newest event's timestamp.
package materialize
