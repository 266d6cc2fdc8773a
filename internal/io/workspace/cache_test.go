package workspace

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestCacheView checks that CacheView, which maps large entries rather
// than read them, returns exactly what CacheGet returns, and like it
// no entry for a damaged, cut, missing or disabled one, on both sides
// of the size from which it maps.
func TestCacheView(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 1, viewMin - 5, viewMin - 4, viewMin, 3*viewMin + 7} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i*7 + size)
		}
		if !CachePut(root, "e", data) {
			t.Fatalf("size %d: CachePut failed", size)
		}
		got, ok := CacheView(root, "e")
		want, wok := CacheGet(root, "e")
		if !ok || !wok || !bytes.Equal(got, data) || !bytes.Equal(want, data) {
			t.Fatalf("size %d: CacheView ok=%v, CacheGet ok=%v, or not the bytes written", size, ok, wok)
		}
		p := filepath.Join(CacheDir(root), "e")
		whole, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for name, bad := range map[string][]byte{
			"flipped": append(append([]byte(nil), whole[:len(whole)/2]...), append([]byte{whole[len(whole)/2] ^ 1}, whole[len(whole)/2+1:]...)...),
			"cut":     whole[:len(whole)-1],
			"empty":   nil,
		} {
			if err := os.WriteFile(p, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			if _, ok := CacheView(root, "e"); ok {
				t.Errorf("size %d: CacheView accepted a %s entry", size, name)
			}
		}
		os.Remove(p)
		if _, ok := CacheView(root, "e"); ok {
			t.Errorf("size %d: CacheView found a missing entry", size)
		}
	}
	CachePut(root, "e", []byte("x"))
	t.Setenv(EnvNoCache, "1")
	if _, ok := CacheView(root, "e"); ok {
		t.Error("CacheView read the cache with MEMSYS_NO_CACHE set")
	}
}
