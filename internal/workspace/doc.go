// Package workspace finds a memory root, reads its files within the
// documented limits, and writes derived files atomically under a lock.
// It is the only package besides the git layer that touches the disk.
package workspace
