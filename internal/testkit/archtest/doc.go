// Package archtest holds the repository's architecture test: it walks
// the source with go/parser and fails when a layering rule breaks, so
// the rules stay true as the code grows. cmd/memsys stays thin (no
// function over 80 lines, no file-system call, no exec), only gitx runs
// git, and the event number has one parser (parse/id.go).
package archtest
