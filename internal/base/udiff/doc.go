// Package udiff renders unified diffs of two texts, line by line, on top
// of github.com/sergi/go-diff. Output is deterministic: the same inputs
// always give the same hunks.
package udiff
