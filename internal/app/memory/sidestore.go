package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/memsys/memsys/internal/io/workspace"
)

// sideStore is the lint.Store of the append-only comparison's
// summaries (lint.Input.Summaries): one cache entry holding the last
// sideStoreMax of them, so a summary per commit never crowds the
// checkpoints out of the bounded cache folder. A hook needs the one of
// the last commit's log; CI a few bases. Keys are blob IDs (content
// hashes), and the entry's name hashes the build and the root, so an
// entry never describes other bytes; a damaged one is ignored.
type sideStore struct{ root, name string }

const sideStoreMax = 8

func newSideStore(root string) sideStore {
	h := sha256.Sum256([]byte(workspace.BuildID() + "\x00" + root))
	return sideStore{root: root, name: "sides-" + hex.EncodeToString(h[:16])}
}

// sideEntries is the entry: keys and data in the order written.
type sideEntries struct {
	Keys []string
	Data [][]byte
}

func (s sideStore) load() sideEntries {
	var e sideEntries
	if data, ok := workspace.CacheGet(s.root, s.name); ok {
		if json.Unmarshal(data, &e) != nil || len(e.Keys) != len(e.Data) {
			return sideEntries{}
		}
	}
	return e
}

func (s sideStore) Get(key string) ([]byte, bool) {
	e := s.load()
	if i := slices.Index(e.Keys, key); i >= 0 {
		return e.Data[i], true
	}
	return nil, false
}

func (s sideStore) Put(key string, data []byte) {
	e := s.load()
	if i := slices.Index(e.Keys, key); i >= 0 {
		e.Keys, e.Data = slices.Delete(e.Keys, i, i+1), slices.Delete(e.Data, i, i+1)
	}
	e.Keys, e.Data = append(e.Keys, key), append(e.Data, data)
	if n := len(e.Keys) - sideStoreMax; n > 0 {
		e.Keys, e.Data = e.Keys[n:], e.Data[n:]
	}
	if b, err := json.Marshal(e); err == nil {
		workspace.CachePut(s.root, s.name, b)
	}
}
