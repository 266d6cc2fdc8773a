// Package workspace finds a memory root, reads its files within the
// documented limits, and writes derived files atomically under a lock.
// It is the only package that touches the disk (gitx reads git's own
// files): the memory's files, .memsys.json (LoadConfig), the git hook
// files memsys hook edits, and the root search of lint's patterns.
//
// Guarantees, each tested in this package:
//
//   - Reads are bounded: a file over MaxFileSize or a history over
//     MaxEvents is refused with one line naming the file and what to do;
//     a line over MaxLineLength makes Memory.Incomplete report file and
//     line, so writers refuse to work from a history cut short.
//   - Nothing is read or written through a symlink that leads outside the
//     memory root (CHANGELOG.md, the archive, .memory, graph.md,
//     context.md, AGENTS.md, TODO.md alike), and no relative name can
//     climb out of it.
//   - Writes are atomic: a temporary ".memsys-tmp-<name>-*" file in the
//     target's folder, fsync, rename, fsync of the folder. Leftovers of a
//     killed run are never read and are removed by the next write of the
//     same file.
//   - Writers serialise on an flock(2) lock on ".memsys.lock" at the
//     root. flock exists on Linux, macOS and the BSDs, the platforms
//     memsys supports; the kernel drops the lock when the process dies.
//
// The tier (TierAt, View.TierOf) is parse.TierOf over the files: a
// "tier" in .memsys.json, else AGENTS.md's declaration, else the seed's
// Tiers table applied to the files present.
package workspace
