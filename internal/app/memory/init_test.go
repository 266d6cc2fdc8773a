package memory

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestInitKeepsTier: a plain init after init --tier mvp or core keeps
// that tier, the one status reports, and writes nothing. It deployed
// full before (TODO.md and graph.md), since nothing declared a tier.
func TestInitKeepsTier(t *testing.T) {
	for _, tier := range []parse.Tier{parse.MVP, parse.Core, parse.Full} {
		t.Run(string(tier), func(t *testing.T) {
			root := t.TempDir()
			if _, err := Init(root, tier); err != nil {
				t.Fatal(err)
			}
			r, err := Init(root, "")
			if err != nil {
				t.Fatal(err)
			}
			if r.Tier != tier || len(r.Done) != 0 {
				t.Errorf("plain init after init --tier %s: tier %s, did %q", tier, r.Tier, r.Done)
			}
			st, err := Status(root)
			if err != nil {
				t.Fatal(err)
			}
			if st.Tier != string(r.Tier) {
				t.Errorf("status says %s, init %s", st.Tier, r.Tier)
			}
		})
	}
}

// TestInitExistingLog: a project's own CHANGELOG.md (no memsys block in
// AGENTS.md) still gets the full tier, though status calls it mvp.
func TestInitExistingLog(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, parse.LogFile), []byte("# Release notes\n\n## Event Log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Init(root, "")
	if err != nil {
		t.Fatal(err)
	}
	if r.Tier != parse.Full {
		t.Errorf("init on a project's own log: tier %s, want full", r.Tier)
	}
}
