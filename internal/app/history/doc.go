// Package history checks the memory system's first rule, "append-only,
// immutable once committed", over git history.
//
// Compare judges two versions of the log (log plus archive): a base, as
// committed, and a head. It is pure; the caller reads the blobs through
// gitx and hands the parsed files over.
//
// The audit walks a repository's history and reports every change to an
// event after it was committed, over all time, not only against one
// base. It reads objects through one pipelined git cat-file process and
// parses a version of the log only when it is not a plain append of its
// parent, so a 5,000-commit history costs a small multiple of git log.
package history
