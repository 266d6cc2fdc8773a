// Package gitx is memsys's one door to git. Every call runs the git
// binary with a fixed argument list (never a shell), puts
// --end-of-options or -- before any value that came from a user or the
// environment, and refuses a revision that looks like an option, so
// "--output=x" can never reach git as a flag (issue 6, hostile input).
//
// It is the only package that runs git. Lint's history rules see git
// through the small lint.Git interface, which Blobs implements, so they
// test against an in-memory fake without a repository.
package gitx
