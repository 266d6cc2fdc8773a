// Package audit walks a repository's history and reports every change
// to an event after it was committed: the seed's "append-only,
// immutable once committed" checked over all time, not only against one
// base. It reads objects through one pipelined git cat-file process and
// parses a version of the log only when it is not a plain append of its
// parent, so a 5,000-commit history costs a small multiple of git log.
package audit
