// Package converge lets many branches that append to one event log
// merge into one sequential log: the record-aware three-way merge that
// git's merge driver runs (Merge), the same merge applied to a branch
// that has to follow another revision (renumber), and the list of IDs
// two branches would both add (Collisions, with lint.Collide, which
// MS306 shares).
//
// The algorithm files (merge.go, ids.go, derived.go) are
// pure: bytes in, bytes and findings out. The files that need git
// (driver.go, install.go, ops.go) reach it only through the Git
// interface, which internal/io/gitx implements, and write only
// through internal/io/workspace.
package converge
