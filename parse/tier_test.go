package parse

import (
	"slices"
	"testing"
)

// tierCases are memories by their files (path → content; a path ending
// in "/" is an empty folder) and .memsys.json's tier, with the tier
// every command must read.
var tierCases = []struct {
	name       string
	configured string
	files      map[string]string
	want       Tier
}{
	{"nothing", "", nil, MVP},
	{"log only", "", map[string]string{LogFile: ""}, MVP},
	{"context.md: core", "", map[string]string{ContextFile: ""}, Core},
	{".memory folder: core", "", map[string]string{MemoryDir + "/": ""}, Core},
	{"graph.md: full", "", map[string]string{GraphFile: ""}, Full},
	{"TODO.md: full", "", map[string]string{TodoFile: ""}, Full},
	{"AGENTS.md without a tier line: the files", "", map[string]string{AgentsFile: "# Agents\n", ContextFile: ""}, Core},
	{"AGENTS.md declares over the files", "", map[string]string{AgentsFile: "**Tier**: core\n", TodoFile: "", GraphFile: ""}, Core},
	{"AGENTS.md declares mvp", "", map[string]string{AgentsFile: "- Tier: MVP\n", ContextFile: ""}, MVP},
	{"configured over AGENTS.md", "full", map[string]string{AgentsFile: "Tier: core\n", ContextFile: ""}, Full},
	{"configured over the files", "mvp", map[string]string{GraphFile: "", TodoFile: ""}, MVP},
	{"configured core, nothing present", "core", nil, Core},
}

// TestTierOf: the one precedence, configured > AGENTS.md > files, and a
// configured tier reads nothing.
func TestTierOf(t *testing.T) {
	for _, tc := range tierCases {
		t.Run(tc.name, func(t *testing.T) {
			var reads []string
			exists := func(rel string) bool {
				reads = append(reads, rel)
				for p := range tc.files {
					if p == rel || p == rel+"/" || len(p) > len(rel) && p[:len(rel)+1] == rel+"/" {
						return true
					}
				}
				return false
			}
			agents := func() []byte {
				reads = append(reads, AgentsFile)
				if a, ok := tc.files[AgentsFile]; ok {
					return []byte(a)
				}
				return nil
			}
			if got := TierOf(tc.configured, exists, agents); got != tc.want {
				t.Errorf("TierOf(%q) = %s, want %s", tc.configured, got, tc.want)
			}
			if tc.configured != "" && len(reads) > 0 {
				t.Errorf("configured %q, yet read %v", tc.configured, reads)
			}
			if tc.configured == "" && !slices.Contains(reads, AgentsFile) {
				t.Errorf("nothing configured, yet AGENTS.md not read (reads %v)", reads)
			}
		})
	}
}
