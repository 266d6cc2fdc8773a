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

// TestInitTier: init without --tier keeps the tier TierOf reads, but
// for a folder memsys has not set up, where TierOf's mvp only means
// that no memory file is there: then full, the seed's default.
func TestInitTier(t *testing.T) {
	block := ProtocolBegin + "\n## Memory System Protocol\n\nUse memsys.\n" + ProtocolEnd + "\n"
	for _, tc := range []struct {
		name       string
		configured string
		files      map[string]string
		want       Tier
	}{
		{"nothing: full", "", nil, Full},
		{"a project's own log: full", "", map[string]string{LogFile: ""}, Full},
		{"AGENTS.md of the team's own: full", "", map[string]string{LogFile: "", AgentsFile: "# Team rules\n"}, Full},
		{"after init --tier mvp: mvp", "", map[string]string{LogFile: "", AgentsFile: "# AGENTS.md\n\n" + block}, MVP},
		{"a protocol section naming memsys: mvp", "", map[string]string{LogFile: "", AgentsFile: "## Memory System Protocol\n\nRun memsys append.\n"}, MVP},
		{"a protocol section of the team's own: full", "", map[string]string{LogFile: "", AgentsFile: "## Memory System Protocol\n\nWrite the log by hand.\n"}, Full},
		{"after init --tier core: core", "", map[string]string{LogFile: "", ContextFile: "", AgentsFile: block}, Core},
		{"a .memory folder without AGENTS.md: core", "", map[string]string{MemoryDir + "/": ""}, Core},
		{"TODO.md: full", "", map[string]string{TodoFile: ""}, Full},
		{"AGENTS.md declares mvp", "", map[string]string{AgentsFile: "**Tier**: mvp\n"}, MVP},
		{"AGENTS.md declares core over the files", "", map[string]string{AgentsFile: "Tier: core\n", TodoFile: ""}, Core},
		{"configured mvp", "mvp", nil, MVP},
		{"configured core over AGENTS.md", "core", map[string]string{AgentsFile: "Tier: mvp\n"}, Core},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exists := func(rel string) bool {
				for p := range tc.files {
					if p == rel || p == rel+"/" || len(p) > len(rel) && p[:len(rel)+1] == rel+"/" {
						return true
					}
				}
				return false
			}
			var agents []byte
			if a, ok := tc.files[AgentsFile]; ok {
				agents = []byte(a)
			}
			got := InitTier(tc.configured, exists, agents)
			if got != tc.want {
				t.Errorf("InitTier(%q) = %s, want %s", tc.configured, got, tc.want)
			}
			// Where memsys is set up, init and status read one tier.
			if st := TierOf(tc.configured, exists, func() []byte { return agents }); got != st && st != MVP {
				t.Errorf("InitTier %s, yet TierOf %s", got, st)
			}
		})
	}
}
