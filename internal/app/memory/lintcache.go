package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	"github.com/memsys/memsys/internal/base/config"
	"github.com/memsys/memsys/internal/base/diag"
	"github.com/memsys/memsys/internal/base/snapshot"
	"github.com/memsys/memsys/internal/io/workspace"
	"github.com/memsys/memsys/lint"
)

// The lint result cache. Lint's rules keep their own state across
// events, which no checkpoint holds yet, so lint cannot resume after an
// append; but a lint of a memory where nothing changed (the common
// case for a hook run twice, or an agent checking before and after a
// read) can be answered from the last run. The entry records every
// input the run read (the log and archive, each file the rules read or
// looked for, the tier) by content hash, with the findings; the next
// run re-reads and re-hashes those inputs, and any difference is a cold
// run. Runs with git revisions (--base, --staged) or --fix are never
// cached.

// lintManifest is one lint cache entry.
type lintManifest struct {
	Version  int
	Tier     string
	Log      [32]byte
	Archive  string   // its name, "" if none
	ArchSum  [32]byte // its bytes
	Reads    []lintRead
	Findings diag.Diagnostics
	Events   int
}

// lintRead is one file a rule read or looked for: its content hash, or
// the error, or whether it exists.
type lintRead struct {
	Rel    string
	Exists bool // an Exists call; Sum and Err are unused
	Probe  bool
	Sum    [32]byte
	Err    string
}

const lintManifestVersion = 1

// lintCacheName names the lint entry of root under the given overrides
// and configuration file bytes.
func lintCacheName(root string, overrides []config.RuleSetting) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%v\x00", lintManifestVersion, workspace.BuildID(), root, overrides)
	if b, err := workspace.ReadFile(root, config.FileName); err == nil {
		h.Write(b)
	} else {
		fmt.Fprintf(h, "\x00%v", err)
	}
	return "lint-" + hex.EncodeToString(h.Sum(nil)[:16])
}

// lintRecorder wraps a lint.Input so that every file read or looked for
// is recorded.
type lintRecorder struct {
	reads map[string]lintRead
}

func (r *lintRecorder) wrap(in lint.Input) lint.Input {
	read, exists := in.ReadFile, in.Exists
	in.ReadFile = func(rel string) ([]byte, error) {
		b, err := read(rel)
		rec := lintRead{Rel: rel, Sum: sha256.Sum256(b)}
		if err != nil {
			rec.Err = err.Error()
		}
		r.reads["r\x00"+rel] = rec
		return b, err
	}
	in.Exists = func(rel string) bool {
		ok := exists(rel)
		r.reads["e\x00"+rel] = lintRead{Rel: rel, Probe: true, Exists: ok}
		return ok
	}
	return in
}

// lintFromCache returns the findings of the last lint of root if none
// of its inputs changed since.
func lintFromCache(root, name string, in lint.Input) (diag.Diagnostics, int, bool) {
	data, ok := workspace.CacheGet(root, name)
	if !ok {
		return nil, 0, false
	}
	var m lintManifest
	if snapshot.Decode(data, &m) != nil || m.Version != lintManifestVersion {
		return nil, 0, false
	}
	if string(workspace.DetectTier(root)) != m.Tier {
		return nil, 0, false
	}
	if sum, err := workspace.HashFile(root, workspace.LogName); err != nil || sum != m.Log {
		return nil, 0, false
	}
	mem, err := workspace.ReadArchive(root)
	if err != nil || mem.ArchivePath != m.Archive || sha256.Sum256(mem.ArchiveBytes) != m.ArchSum {
		return nil, 0, false
	}
	for _, r := range m.Reads {
		if r.Probe {
			if in.Exists(r.Rel) != r.Exists {
				return nil, 0, false
			}
			continue
		}
		b, err := in.ReadFile(r.Rel)
		e := ""
		if err != nil {
			e = err.Error()
		}
		if e != r.Err || sha256.Sum256(b) != r.Sum {
			return nil, 0, false
		}
	}
	lintHits++
	return m.Findings, m.Events, true
}

// lintHits counts lints answered from the cache, for the tests.
var lintHits int

// lintToCache stores the findings of a cold lint of mem with what it
// read.
func lintToCache(root, name string, mem *workspace.Memory, rec *lintRecorder, ds diag.Diagnostics, events int) {
	if mem == nil || mem.LogBytes == nil {
		return
	}
	m := lintManifest{Version: lintManifestVersion, Tier: string(mem.Tier), Log: sha256.Sum256(mem.LogBytes),
		Archive: mem.ArchivePath, ArchSum: sha256.Sum256(mem.ArchiveBytes), Findings: ds, Events: events}
	keys := make([]string, 0, len(rec.reads))
	for k := range rec.reads {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m.Reads = append(m.Reads, rec.reads[k])
	}
	data, err := snapshot.Encode(&m)
	if err != nil {
		return
	}
	workspace.CachePut(root, name, data)
}
