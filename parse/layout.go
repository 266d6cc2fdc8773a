package parse

// Names of the memory files relative to the memory root, with forward
// slashes, as the seed's Deployed Structure names them. Every package
// that names a memory file uses these.
const (
	LogFile     = "CHANGELOG.md"
	MemoryDir   = ".memory"
	GraphName   = "graph.md"   // inside MemoryDir
	ContextName = "context.md" // inside MemoryDir
	GraphFile   = MemoryDir + "/" + GraphName
	ContextFile = MemoryDir + "/" + ContextName
	TodoFile    = "TODO.md"
	AgentsFile  = "AGENTS.md"
)

// ArchiveFile is the archive the seed names, which memsys archive
// creates when there is none.
const ArchiveFile = "changelog-archive.md"

// ArchiveFiles are the archive files memsys reads, in order of
// preference; logs kept in upper case use CHANGELOG-archive.md.
var ArchiveFiles = []string{ArchiveFile, "CHANGELOG-archive.md"}

// Tier is the deployment tier of the seed's Tiers table.
type Tier string

// The tiers.
const (
	MVP  Tier = "mvp"  // CHANGELOG.md only
	Core Tier = "core" // + .memory/context.md
	Full Tier = "full" // + TODO.md and .memory/graph.md
)

// DetectTier reads the tier from which files exist (exists takes a path
// relative to the memory root): graph.md or TODO.md mean full,
// context.md or a .memory folder mean core, else mvp.
func DetectTier(exists func(rel string) bool) Tier {
	switch {
	case exists(TodoFile) || exists(GraphFile):
		return Full
	case exists(MemoryDir) || exists(ContextFile):
		return Core
	}
	return MVP
}

// HasGraph reports whether the tier includes .memory/graph.md.
func (t Tier) HasGraph() bool { return t == Full }

// HasContext reports whether the tier includes .memory/context.md.
func (t Tier) HasContext() bool { return t == Full || t == Core }
