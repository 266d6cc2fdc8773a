package workspace

// API CONTRACT (written by the lead; the cmd-core helper owns this
// package and replaces this file with real code, keeping these names).
//
//   const LogName = "CHANGELOG.md"; MemoryDir = ".memory"; GraphName; ContextName; TodoName; AgentsName
//   var ArchiveNames = []string{"changelog-archive.md", "CHANGELOG-archive.md"}
//
//   type Tier string  // "mvp" | "core" | "full"
//
//   // FindRoot returns the memory root: dir itself when explicit (-C),
//   // else walk up from dir to the nearest folder whose CHANGELOG.md has
//   // an event log, stopping at the repository root (a folder with .git).
//   func FindRoot(dir string, explicit bool) (string, error)
//
//   // Memory is everything read from one memory root.
//   type Memory struct {
//       Root        string
//       Log         *parse.Log      // CHANGELOG.md (nil if missing)
//       Archive     *parse.Log      // archive file (nil if none)
//       ArchivePath string          // relative name of the archive file used
//       Events      []parse.Event   // archive events first, then log events
//       Tier        Tier            // detected from which files exist
//   }
//   func Load(root string) (*Memory, error)   // errors are one line: file:line: what: what to do
//
//   // WriteFile writes atomically: temp file in the same folder, fsync,
//   // rename, fsync dir. Refuses symlinks that leave root.
//   func WriteFile(root, rel string, data []byte) error
//
//   // Lock takes the exclusive lock on the log (flock on
//   // .memory/.lock or CHANGELOG.md.lock) and returns the unlock func.
//   func Lock(root string) (unlock func(), err error)
