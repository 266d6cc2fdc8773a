// Package history checks the memory system's first rule, "append-only,
// immutable once committed", against git: the revisions memsys lint
// compares (--base, --head, --staged) and the audit of a whole history.
//
// The comparison itself is lint's history rules (MS301-MS305), which
// read the two versions through lint.Git. This package decides which
// versions: Revisions resolves lint's flags (a pull request's base in
// CI included) into commits, and Run walks every commit that touched
// the log or the archive, all parents of merges, and hands each pair
// whose files changed to Linter.CheckHistory. It reads objects through
// one pipelined git cat-file process and compares a pair only when it is
// not a plain append, so a 5,000-commit history costs a small multiple
// of git log. All git runs through internal/io/gitx.
package history
