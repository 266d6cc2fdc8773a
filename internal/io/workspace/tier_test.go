package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memsys/memsys/parse"
)

// TestTierAtAndView: the tier of a memory on disk (TierAt: status,
// regen, lint) and of the same files in the index (View.TierOf: lint
// --staged) is one answer, parse.TierOf's, with .memsys.json's tier
// first.
func TestTierAtAndView(t *testing.T) {
	for _, tc := range []struct {
		name, configured string
		files            []string // "AGENTS.md=text" gives content
		want             parse.Tier
	}{
		{"log only", "", []string{LogName}, parse.MVP},
		{"context.md", "", []string{LogName, parse.ContextFile}, parse.Core},
		{"graph.md", "", []string{LogName, parse.GraphFile}, parse.Full},
		{"TODO.md", "", []string{LogName, parse.TodoFile}, parse.Full},
		{"declared core beside graph.md", "", []string{LogName, parse.GraphFile, "AGENTS.md=**Tier**: core\n"}, parse.Core},
		{"configured mvp beside graph.md", "mvp", []string{LogName, parse.GraphFile}, parse.MVP},
		{"configured full over a declaration", "full", []string{LogName, "AGENTS.md=Tier: core\n"}, parse.Full},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			src := mapSource{}
			for _, f := range tc.files {
				name, text, _ := strings.Cut(f, "=")
				src[name] = text
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			disk, staged := TierAt(root, tc.configured), NewView("staged", src).TierOf(tc.configured)
			if disk != tc.want || staged != tc.want {
				t.Errorf("TierAt %s, View.TierOf %s; want %s", disk, staged, tc.want)
			}
			if tc.configured == "" && (DetectTier(root) != tc.want || NewView("staged", src).Tier() != tc.want) {
				t.Errorf("DetectTier %s, View.Tier %s; want %s", DetectTier(root), NewView("staged", src).Tier(), tc.want)
			}
		})
	}
}
